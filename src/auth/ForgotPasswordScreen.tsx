import { useState } from 'react';
import { Link } from 'react-router-dom';
import { DEV_MAILBOX_PATH } from '../config/constants.ts';
import { http } from '../http/http.ts';
import { AuthCard } from './AuthCard.tsx';
import { email, required } from './fieldRules.ts';
import { FormMessage } from './FormMessage.tsx';
import { TextField } from './TextField.tsx';
import { useAuthForm } from './useAuthForm.ts';

const RULES = { email: [required, email] };

/**
 * /auth/forgot-password: POST forget_password (SESSION-10); the answer is the same whether the email exists or not.
 * A failure is its "Error" toast (ERR-01) alone.
 */
export function ForgotPasswordScreen() {
  const form = useAuthForm(RULES);
  const [sent, setSent] = useState<string | null>(null);
  const send = async () => {
    setSent(null);
    const answer = await http.post<{ message?: string }>('forget_password', form.values);
    setSent(answer.message ?? 'If the email belongs to an account, a reset link is on its way.');
  };

  return (
    <AuthCard title="Forgot password" intro="Enter your email and we will send you a link to choose a new password.">
      <form className="auth-form" noValidate onSubmit={form.onSubmit(send)}>
        <FormMessage kind="success" text={sent} />
        <TextField label="Email" name="email" type="email" autoComplete="email" autoFocus field={form.field('email')} />
        <button type="submit" className="button button--primary button--block" disabled={form.busy}>
          {form.busy ? 'Sending…' : 'Send reset link'}
        </button>
        {__DEV_MAILBOX__ && sent && (
          <p className="auth-links">
            Development: the e-mail is in the <Link to={DEV_MAILBOX_PATH}>development mailbox</Link>.
          </p>
        )}
        <p className="auth-links">
          <Link to="/auth/login">Back to sign in</Link>
        </p>
      </form>
    </AuthCard>
  );
}
