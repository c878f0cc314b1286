import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { http } from '../http/http.ts';
import { AuthCard } from './AuthCard.tsx';
import { FormMessage } from './FormMessage.tsx';
import { NewPasswordForm } from './NewPasswordForm.tsx';
import { onceByKey } from './onceByKey.ts';

type Verification =
  | { kind: 'checking' }
  | { kind: 'choose-password'; email: string }
  | { kind: 'incomplete' | 'success'; message: string }
  | { kind: 'refused' };

interface LinkCheck {
  data: { valid: boolean; email: string; password_set: boolean };
}

/**
 * /auth/verify-email?token=…: checks the link, then POSTs email-verify once (SESSION-10). An account created without a
 * password (an invitation) chooses it here first, and the same request verifies the address. A link the server
 * refuses leaves its "Error" toast to say why (ERR-01) and the screen to say where a new one comes from.
 */
export function VerifyEmailScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<Verification>(
    token ? { kind: 'checking' } : { kind: 'incomplete', message: 'This verification link is incomplete.' },
  );

  useEffect(() => {
    if (!token) return;
    let current = true;
    const verify = async (): Promise<Verification> => {
      const link = await http.post<LinkCheck>('email-verify/check', { token });
      if (!link.data.password_set) return { kind: 'choose-password', email: link.data.email };
      const answer = await http.post<{ message?: string }>('email-verify', { token });
      return { kind: 'success', message: answer.message ?? 'Your email is verified.' };
    };
    onceByKey(`email-verify:${token}`, verify).then(
      (next) => current && setState(next),
      () => current && setState({ kind: 'refused' }),
    );
    return () => {
      current = false;
    };
  }, [token]);

  const choose = async (values: { password: string; confirm_password: string }) => {
    const answer = await http.post<{ message?: string }>('email-verify', { token, ...values });
    setState({ kind: 'success', message: answer.message ?? 'Your password is set.' });
  };

  if (state.kind === 'choose-password') {
    return (
      <AuthCard title="Choose your password" intro={`Choose the password you will sign in with as ${state.email}.`}>
        <NewPasswordForm send={choose} submitLabel="Save password and verify" />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Verify email">
      {state.kind === 'checking' && <p role="status">Verifying your email…</p>}
      {state.kind === 'incomplete' && <FormMessage kind="error" text={state.message} />}
      {state.kind === 'success' && <FormMessage kind="success" text={state.message} />}
      {state.kind === 'refused' && <p>An address not verified yet can have a new link sent from the sign-in screen.</p>}
      <p className="auth-links">
        <Link to="/auth/login">Go to sign in</Link>
      </p>
    </AuthCard>
  );
}
