import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { isApiError } from '../http/ApiError.ts';
import { http } from '../http/http.ts';
import { AuthCard } from './AuthCard.tsx';
import { FormMessage } from './FormMessage.tsx';
import { onceByKey } from './onceByKey.ts';

type Verification = { kind: 'checking' } | { kind: 'error' | 'success'; message: string };

/** /auth/verify-email?token=…: POST email-verify once (SESSION-10) and say how it went. */
export function VerifyEmailScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<Verification>(
    token ? { kind: 'checking' } : { kind: 'error', message: 'This verification link is incomplete.' },
  );

  useEffect(() => {
    if (!token) return;
    let current = true;
    onceByKey(`email-verify:${token}`, () => http.post<{ message?: string }>('email-verify', { token })).then(
      (answer) => current && setState({ kind: 'success', message: answer.message ?? 'Your email is verified.' }),
      (failure: unknown) =>
        current && setState({ kind: 'error', message: isApiError(failure) ? failure.message : 'This link could not be verified.' }),
    );
    return () => {
      current = false;
    };
  }, [token]);

  return (
    <AuthCard title="Verify email">
      {state.kind === 'checking' ? (
        <p role="status">Verifying your email…</p>
      ) : (
        <FormMessage kind={state.kind} text={state.message} />
      )}
      <p className="auth-links">
        <Link to="/auth/login">Go to sign in</Link>
      </p>
    </AuthCard>
  );
}
