import { useState, type FormEvent } from 'react';
import { http } from '../http/http.ts';
import { RecoveryCodes } from '../screens/custom/twoFactor/RecoveryCodes.tsx';
import { TotpEnrolForm, type Enrolment } from '../screens/custom/twoFactor/TotpEnrolForm.tsx';
import { toastSuccess } from '../shell/index.ts';

export interface EnrolStepProps {
  /**
   * The access token `POST login` answered with `enrol_required`, or the stored session's: only the enrolment routes
   * accept it until a factor is enrolled.
   */
  tokens: { access: string };
  /** What the role's users may enrol: an authenticator app, a passkey. */
  methods: string[];
  /** A second factor was enrolled: the session starts, or (a signed-in user sent here) goes on. */
  onEnrolled: () => void;
  /** Back to the password, or (a signed-in user) sign out. */
  onRestart: () => void;
  /** The words of `onRestart`'s link: "Start again" unless said. */
  restartLabel?: string;
}

/**
 * Right after the password of a user whose role requires two-factor sign-in and who has none yet: enrol an
 * authenticator app (its recovery codes shown once) or add a passkey, and only then does the session start. Nothing
 * else answers before (docs/api.md, "Two-factor sign-in"). Also for a signed-in user whose role came to require it.
 */
export default function EnrolStep({
  tokens,
  methods,
  onEnrolled,
  onRestart,
  restartLabel = 'Start again',
}: EnrolStepProps) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (call: () => Promise<void>) => {
    setBusy(true);
    try {
      await call();
    } catch {
      // The "Error" toast has said it (ERR-01); what was typed stays.
    } finally {
      setBusy(false);
    }
  };
  const start = () =>
    run(async () => {
      const answer = await http.post<{ data: Enrolment }>('user/two-factor/totp', {}, { token: tokens.access });
      setEnrolment(answer.data);
    });
  const passkey = () =>
    run(async () => {
      const { addPasskey } = await import('./passkeyCeremony.ts');
      const added = await addPasskey('Passkey', tokens.access);
      toastSuccess(added.message);
      onEnrolled();
    });
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !code.trim()) return;
    void run(async () => {
      const answer = await http.post<{ data: { recovery_codes: string[] } }>(
        'user/two-factor/totp/confirm',
        { code: code.trim() },
        { token: tokens.access },
      );
      toastSuccess('Two-factor sign-in is on.');
      setCodes(answer.data.recovery_codes);
    });
  };

  if (codes) return <RecoveryCodes codes={codes} onDone={onEnrolled} />;
  if (enrolment)
    return (
      <TotpEnrolForm
        enrolment={enrolment}
        code={code}
        onCodeChange={setCode}
        busy={busy}
        onSubmit={confirm}
        onCancel={() => setEnrolment(null)}
      />
    );
  return (
    <div className="auth-form">
      <p>
        Your role requires two-factor sign-in. Set up an authenticator app on your phone now (after your password you
        will be asked for the code it shows), or add a passkey of this device.
      </p>
      {methods.includes('totp') && (
        <button
          type="button"
          className="button button--primary button--block"
          disabled={busy}
          onClick={() => void start()}
        >
          Set up an authenticator app
        </button>
      )}
      {methods.includes('passkey') && (
        <button type="button" className="button button--block" disabled={busy} onClick={() => void passkey()}>
          Add a passkey
        </button>
      )}
      <p className="auth-links">
        <button type="button" className="link-button" onClick={onRestart}>
          {restartLabel}
        </button>
      </p>
    </div>
  );
}
