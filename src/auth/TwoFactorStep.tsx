import { useState } from 'react';
import { http } from '../http/http.ts';
import { startSession } from '../session/sessionStore.ts';
import { required } from './fieldRules.ts';
import { TextField } from './TextField.tsx';
import { useAuthForm } from './useAuthForm.ts';

const RULES = { code: [required] };

/** The second factors `POST login` names (docs/api.md, "Two-factor sign-in"). */
export type SecondStepMethod = 'totp' | 'recovery_code' | 'passkey';

export interface TwoFactorStepProps {
  /** The single-use token `POST login` answered for the second step (docs/api.md, "Two-factor sign-in"). */
  mfaToken: string;
  /** The user's second factors: a passkey is offered when they have one, codes when they have the app. */
  methods: SecondStepMethod[];
  /** Back to the password: the token expired or the user wants to start again. */
  onRestart: () => void;
}

/**
 * The second step of signing in with two-factor sign-in on: a code of the authenticator app, or a recovery code. A
 * wrong code keeps what was typed; the server's message shows in its "Error" toast (ERR-01).
 */
export function TwoFactorStep({ mfaToken, methods, onRestart }: TwoFactorStepProps) {
  const form = useAuthForm(RULES);
  const [recovery, setRecovery] = useState(false);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const codes = methods.includes('totp');
  const usePasskey = () => {
    setPasskeyBusy(true);
    import('./passkeyCeremony.ts')
      .then(({ signInWithPasskey }) => signInWithPasskey(mfaToken))
      .then((tokens) => startSession(tokens.access, tokens.refresh))
      // A refusal or a dismissed prompt has said so in its toast (ERR-01).
      .catch(() => undefined)
      .finally(() => setPasskeyBusy(false));
  };
  const passkeyButton = methods.includes('passkey') && (
    <button
      type="button"
      className={`button button--block${codes ? '' : ' button--primary'}`}
      disabled={passkeyBusy}
      onClick={usePasskey}
    >
      {passkeyBusy ? 'Waiting for your passkey…' : 'Use a passkey'}
    </button>
  );
  const verify = async () => {
    const answer = await http.post<{ data: { access: string; refresh: string } }>('login/two-factor', {
      mfa_token: mfaToken,
      code: form.values.code.trim(),
    });
    startSession(answer.data.access, answer.data.refresh);
  };
  const restart = (
    <button type="button" className="link-button" onClick={onRestart}>
      Start again
    </button>
  );
  if (!codes)
    return (
      <div className="auth-form" aria-label="Two-factor sign-in" role="group">
        <p>Use your passkey: your browser asks for it, with your fingerprint, face or device PIN.</p>
        {passkeyButton}
        <p className="auth-links">{restart}</p>
      </div>
    );
  return (
    <form className="auth-form" noValidate onSubmit={form.onSubmit(verify)} aria-label="Two-factor sign-in">
      <p>
        {recovery
          ? 'Type one of the recovery codes you kept when you turned on two-factor sign-in. Each works once.'
          : 'Open your authenticator app and type the 6-digit code it shows for this account.'}
      </p>
      <TextField
        key={recovery ? 'recovery' : 'app'}
        label={recovery ? 'Recovery code' : 'Authentication code'}
        name="code"
        autoComplete="one-time-code"
        inputMode={recovery ? 'text' : 'numeric'}
        autoFocus
        field={form.field('code')}
      />
      <button type="submit" className="button button--primary button--block" disabled={form.busy}>
        {form.busy ? 'Checking…' : 'Verify'}
      </button>
      {passkeyButton}
      <p className="auth-links">
        <button type="button" className="link-button" onClick={() => setRecovery((current) => !current)}>
          {recovery ? 'Use a code from the app' : 'Use a recovery code'}
        </button>
        {' · '}
        {restart}
      </p>
    </form>
  );
}
