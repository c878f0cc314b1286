import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { isApiError } from '../http/ApiError.ts';
import { http } from '../http/http.ts';
import { AuthCard } from './AuthCard.tsx';
import { FormMessage } from './FormMessage.tsx';
import { NewPasswordForm } from './NewPasswordForm.tsx';
import { onceByKey } from './onceByKey.ts';

type Verification =
  | { kind: 'checking' }
  | { kind: 'choose-password'; email: string }
  | { kind: 'error' | 'success'; message: string };

interface LinkCheck {
  data: { valid: boolean; email: string; password_set: boolean };
}

const failed = (failure: unknown) => ({ kind: 'error', message: isApiError(failure) ? failure.message : 'This link could not be verified.' }) as const;

/**
 * /auth/verify-email?token=…: checks the link, then POSTs email-verify once (SESSION-10). An account created without a
 * password (an invitation) chooses it here first, and the same request verifies the address.
 */
export function VerifyEmailScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<Verification>(
    token ? { kind: 'checking' } : { kind: 'error', message: 'This verification link is incomplete.' },
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
      (failure: unknown) => current && setState(failed(failure)),
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
      {state.kind === 'checking' ? <p role="status">Verifying your email…</p> : <FormMessage kind={state.kind} text={state.message} />}
      <p className="auth-links">
        <Link to="/auth/login">Go to sign in</Link>
      </p>
    </AuthCard>
  );
}
