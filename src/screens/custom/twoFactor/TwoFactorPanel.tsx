import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { formatDate } from '../../shared/formatValue.ts';
import { QueryState } from '../../shared/QueryState.tsx';
import { CodeField } from './CodeField.tsx';
import { RecoveryCodes } from './RecoveryCodes.tsx';
import { TotpEnrolForm, type Enrolment } from './TotpEnrolForm.tsx';
import './twoFactor.css';

/** `GET user/two-factor` (docs/api.md, "Two-factor sign-in"). */
interface TwoFactorStatus {
  enabled: boolean;
  recovery_codes_left: number;
  enabled_at: string | null;
  required: boolean;
}
type CodesAnswer = { data: { recovery_codes: string[] }; message: string };

const QUERY_KEY = ['two-factor'];

/**
 * "Two-factor sign-in" on the profile: turn it on (a QR code and the secret as text for the authenticator app, then a
 * first code), the recovery codes shown once, new recovery codes, and turning it off, each with a code.
 */
export function TwoFactorPanel() {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: QUERY_KEY,
    queryFn: ({ signal }) => http.get<{ data: TwoFactorStatus }>('user/two-factor', { signal }).then((b) => b.data),
  });
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const changed = () => void queryClient.invalidateQueries({ queryKey: QUERY_KEY });
  const start = useMutation({
    mutationFn: () => http.post<{ data: Enrolment }>('user/two-factor/totp', {}),
    onSuccess: (body) => setEnrolment(body.data),
  });
  const showCodes = (body: CodesAnswer) => {
    setEnrolment(null);
    setCode('');
    setCodes(body.data.recovery_codes);
    changed();
  };
  const confirm = useMutation({
    mutationFn: () => http.post<CodesAnswer>('user/two-factor/totp/confirm', { code: code.trim() }),
    onSuccess: (body) => {
      toastSuccess('Two-factor sign-in is on.');
      showCodes(body);
    },
  });
  const renew = useMutation({
    mutationFn: () => http.post<CodesAnswer>('user/two-factor/recovery-codes', { code: code.trim() }),
    onSuccess: showCodes,
  });
  const turnOff = useMutation({
    mutationFn: () => http.deleteWithBody<{ message: string }>('user/two-factor', { code: code.trim() }),
    onSuccess: (body) => {
      toastSuccess(body.message);
      setCode('');
      changed();
    },
  });
  const busy = start.isPending || confirm.isPending || renew.isPending || turnOff.isPending;
  const submit = (action: () => void) => (event: FormEvent) => {
    event.preventDefault();
    if (!busy && code.trim()) action();
  };

  return (
    <section className="panel two-factor" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      <QueryState query={status} what="two-factor sign-in">
        {codes ? (
          <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
        ) : enrolment ? (
          <TotpEnrolForm
            enrolment={enrolment}
            code={code}
            onCodeChange={setCode}
            busy={busy}
            onSubmit={submit(() => confirm.mutate())}
            onCancel={() => setEnrolment(null)}
          />
        ) : status.data?.enabled ? (
          <form onSubmit={submit(() => renew.mutate())} aria-label="Manage two-factor sign-in">
            <p role="status">
              On since {formatDate(status.data.enabled_at, true)}. {status.data.recovery_codes_left} recovery code
              {status.data.recovery_codes_left === 1 ? '' : 's'} left.
              {status.data.required && ' Your role requires two-factor sign-in.'}
            </p>
            <CodeField label="Code from the app, or a recovery code" value={code} onChange={setCode} />
            <div className="two-factor__actions">
              <button type="submit" className="button" disabled={busy}>
                New recovery codes
              </button>
              <button
                type="button"
                className="button button--danger"
                disabled={busy}
                onClick={() => code.trim() && turnOff.mutate()}
              >
                Turn off
              </button>
            </div>
          </form>
        ) : (
          <>
            <p role="status">
              Off. Turn it on to be asked, after your password, for a code from an authenticator app on your phone.
            </p>
            <div className="two-factor__actions">
              <button type="button" className="button button--primary" disabled={busy} onClick={() => start.mutate()}>
                Set up an authenticator app
              </button>
            </div>
          </>
        )}
      </QueryState>
    </section>
  );
}
