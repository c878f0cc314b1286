import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { formatDate } from '../../shared/formatValue.ts';
import '../twoFactor/twoFactor.css';

export interface ResetTwoFactorPanelProps {
  /** `users/12`. */
  owner: string;
  /** The caller may edit users: "Reset two-factor" is offered. */
  canReset: boolean;
}

interface Passkey {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** `GET users/:id/two-factor`: the authenticator app (`enabled`) and the passkeys. */
interface SecondFactors {
  enabled: boolean;
  recovery_codes_left: number;
  enabled_at: string | null;
  required: boolean;
  passkeys: Passkey[];
}

const passkeyCount = (count: number) => `${count} passkey${count === 1 ? '' : 's'}`;

/** What a reset removes, in words. */
function removedWords(data: SecondFactors): string {
  const parts = data.enabled ? ['their authenticator app and recovery codes'] : [];
  const count = data.passkeys.length;
  if (count > 0) parts.push(count === 1 ? 'their passkey' : `all ${count} of their passkeys`);
  return parts.join(' and ');
}

/**
 * A user's second factors (`GET users/:id/two-factor`): the authenticator app and each passkey, with when it was added
 * and last used; when they have any, "Reset two-factor" for an administrator who may edit users: after a confirmation
 * all of them are removed and every session of the user's ends: they sign in with their password alone until they
 * enrol again, and are told by e-mail
 * (`DELETE users/:id/two-factor`).
 */
export function ResetTwoFactorPanel({ owner, canReset }: ResetTwoFactorPanelProps) {
  const queryClient = useQueryClient();
  const queryKey = ['two-factor', owner];
  const [asking, setAsking] = useState(false);
  const status = useQuery({
    queryKey,
    queryFn: ({ signal }) => http.get<{ data: SecondFactors }>(`${owner}/two-factor`, { signal }).then((b) => b.data),
  });
  const reset = useMutation({
    mutationFn: () => http.delete<{ message: string }>(`${owner}/two-factor`),
    onSuccess: (body) => {
      toastSuccess(body.message);
      void queryClient.invalidateQueries({ queryKey });
    },
    onSettled: () => setAsking(false),
  });
  const data = status.data;
  const passkeys = data?.passkeys ?? [];
  const on = data !== undefined && (data.enabled || passkeys.length > 0);
  return (
    <section className="panel" aria-labelledby="reset-two-factor-title">
      <h2 id="reset-two-factor-title">Two-factor sign-in</h2>
      {status.isPending && <p>Loading…</p>}
      {status.isError && <p>Whether two-factor sign-in is on could not be loaded.</p>}
      {data && !on && (
        <p>
          Off: this user signs in with their password alone.
          {data.required && ' Their role requires a second factor: they add one when they next sign in.'}
        </p>
      )}
      {data && on && (
        <>
          <p>
            {data.enabled
              ? `Authenticator app on since ${formatDate(data.enabled_at, true)}; ${data.recovery_codes_left} recovery codes left.`
              : 'No authenticator app.'}{' '}
            {passkeys.length === 0 ? 'No passkeys.' : `${passkeyCount(passkeys.length)}:`}
          </p>
          {passkeys.length > 0 && (
            <ul aria-label="Their passkeys" className="passkeys__list">
              {passkeys.map((passkey) => (
                <li key={passkey.id}>
                  <strong>{passkey.name}</strong>{' '}
                  <span>
                    added {formatDate(passkey.created_at, true)}, last used{' '}
                    {passkey.last_used_at ? formatDate(passkey.last_used_at, true) : 'never'}
                  </span>
                </li>
              ))}
            </ul>
          )}
          {canReset && (
            <>
              <p>
                A user who lost the phone or security key holding them cannot sign in, and whoever has it still might:
                reset their second factors.
              </p>
              <div>
                <button type="button" className="button button--danger" onClick={() => setAsking(true)}>
                  Reset two-factor
                </button>
              </div>
            </>
          )}
        </>
      )}
      {asking && (
        <ConfirmDialog
          title="Reset two-factor sign-in?"
          confirmLabel="Reset two-factor"
          destructive
          busy={reset.isPending}
          onConfirm={() => !reset.isPending && reset.mutate()}
          onCancel={() => setAsking(false)}
        >
          <p>
            This removes {data ? removedWords(data) : 'their second factors'} and signs this user out everywhere: they
            sign in again with their password alone until they set up a second factor again. They are told by e-mail,
            and the reset is written in the audit log.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
