import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { http } from '../http/http.ts';
import { AuthCard } from './AuthCard.tsx';
import { FormMessage } from './FormMessage.tsx';
import { NewPasswordForm } from './NewPasswordForm.tsx';
import { onceByKey } from './onceByKey.ts';

/** An expired link's message is null when the check's "Error" toast said why (ERR-01). */
type LinkState =
  | { kind: 'checking' }
  | { kind: 'valid'; email: string }
  | { kind: 'expired'; message: string | null }
  | { kind: 'done'; message: string };

const MISSING_LINK = 'This reset link is incomplete. Ask for a new one.';

/**
 * /auth/reset-password?token=…: verifies the link with check-link first (SESSION-10), then sets the new password. A
 * link the server refuses leaves its toast to say why and the screen to offer a new one.
 */
export function ResetPasswordScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [link, setLink] = useState<LinkState>(
    token ? { kind: 'checking' } : { kind: 'expired', message: MISSING_LINK },
  );

  useEffect(() => {
    if (!token) return;
    let current = true;
    onceByKey(`check-link:${token}`, () =>
      http.post<{ data: { valid: boolean; email?: string } }>('check-link', { token }),
    ).then(
      (answer) => current && setLink({ kind: 'valid', email: answer.data.email ?? '' }),
      () => current && setLink({ kind: 'expired', message: null }),
    );
    return () => {
      current = false;
    };
  }, [token]);

  const save = async (values: { password: string; confirm_password: string }) => {
    const answer = await http.post<{ message?: string }>('reset_password', { token, ...values });
    setLink({ kind: 'done', message: answer.message ?? 'Your password has been changed.' });
  };

  if (link.kind === 'checking') {
    return (
      <AuthCard title="Reset password">
        <p role="status">Checking your link…</p>
      </AuthCard>
    );
  }
  if (link.kind === 'expired' || link.kind === 'done') {
    const expired = link.kind === 'expired';
    return (
      <AuthCard title={expired ? 'This link has expired' : 'Password changed'}>
        <FormMessage kind={expired ? 'error' : 'success'} text={link.message} />
        <p className="auth-links">
          {expired ? <Link to="/auth/forgot-password">Ask for a new link</Link> : <Link to="/auth/login">Sign in</Link>}
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Reset password"
      intro={link.email ? `Choose a new password for ${link.email}.` : 'Choose a new password.'}
    >
      <NewPasswordForm send={save} submitLabel="Save new password" />
    </AuthCard>
  );
}
