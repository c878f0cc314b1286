import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { formatDate } from '../../shared/formatValue.ts';
import { QueryState } from '../../shared/QueryState.tsx';
import '../twoFactor/twoFactor.css';

/** `GET user/passkeys` (docs/api.md, "Passkeys"). */
interface Passkey {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

const QUERY_KEY = ['passkeys'];

/**
 * "Passkeys" on the profile: the caller's passkeys with when each was added and last used; add one (named, the
 * browser's prompt loads its library only then), rename or remove one.
 */
export function PasskeysPanel() {
  const queryClient = useQueryClient();
  const nameId = useId();
  const passkeys = useQuery({
    queryKey: QUERY_KEY,
    queryFn: ({ signal }) => http.get<{ data: Passkey[] }>('user/passkeys', { signal }).then((body) => body.data),
  });
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const done = (body: { message: string }) => {
    toastSuccess(body.message);
    void queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: ['two-factor'] });
  };
  const add = useMutation({
    mutationFn: async () => (await import('../../../auth/passkeyCeremony.ts')).addPasskey(name.trim()),
    onSuccess: (body) => {
      setName('');
      done(body);
    },
  });
  const rename = useMutation({
    mutationFn: (to: { id: number; name: string }) =>
      http.patch<{ message: string }>(`user/passkeys/${to.id}`, { name: to.name.trim() }),
    onSuccess: (body) => {
      setRenaming(null);
      done(body);
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => http.delete<{ message: string }>(`user/passkeys/${id}`),
    onSuccess: done,
  });
  const busy = add.isPending || rename.isPending || remove.isPending;
  const submitAdd = (event: FormEvent) => {
    event.preventDefault();
    if (!busy && name.trim()) add.mutate();
  };
  const submitRename = (event: FormEvent) => {
    event.preventDefault();
    if (!busy && renaming?.name.trim()) rename.mutate(renaming);
  };

  return (
    <section className="panel two-factor" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p>Sign in with your fingerprint, face or device PIN instead of a password, or as the step after it.</p>
      <QueryState query={passkeys} what="your passkeys">
        {passkeys.data?.length === 0 && <p role="status">No passkeys yet.</p>}
        {passkeys.data && passkeys.data.length > 0 && (
          <ul aria-label="Your passkeys" className="passkeys__list">
            {passkeys.data.map((passkey) => (
              <li key={passkey.id}>
                {renaming?.id === passkey.id ? (
                  <form onSubmit={submitRename} aria-label={`Rename ${passkey.name}`} className="two-factor__actions">
                    <input
                      aria-label="New name"
                      value={renaming.name}
                      maxLength={80}
                      onChange={(event) => setRenaming({ id: passkey.id, name: event.target.value })}
                    />
                    <button type="submit" className="button button--primary" disabled={busy}>
                      Save
                    </button>
                    <button type="button" className="button" onClick={() => setRenaming(null)}>
                      Cancel
                    </button>
                  </form>
                ) : (
                  <>
                    <strong>{passkey.name}</strong>{' '}
                    <span>
                      added {formatDate(passkey.created_at, true)}, last used{' '}
                      {passkey.last_used_at ? formatDate(passkey.last_used_at, true) : 'never'}
                    </span>
                    <div className="two-factor__actions">
                      <button
                        type="button"
                        className="button"
                        aria-label={`Rename ${passkey.name}`}
                        onClick={() => setRenaming({ id: passkey.id, name: passkey.name })}
                      >
                        Rename
                      </button>
                      <button
                        type="button"
                        className="button button--danger"
                        aria-label={`Remove ${passkey.name}`}
                        disabled={busy}
                        onClick={() => remove.mutate(passkey.id)}
                      >
                        Remove
                      </button>
                    </div>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
        <form onSubmit={submitAdd} aria-label="Add a passkey">
          <div className="field two-factor__field">
            <label htmlFor={nameId}>Name of the new passkey</label>
            <input
              id={nameId}
              value={name}
              maxLength={80}
              placeholder="Work laptop"
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <div className="two-factor__actions">
            <button type="submit" className="button button--primary" disabled={busy}>
              Add a passkey
            </button>
          </div>
        </form>
      </QueryState>
    </section>
  );
}
