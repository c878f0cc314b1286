import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { isApiError } from '../http/ApiError.ts';
import { http } from '../http/http.ts';
import { AuthCard } from './AuthCard.tsx';
import { email, required } from './fieldRules.ts';
import { FormMessage } from './FormMessage.tsx';
import { TextField } from './TextField.tsx';
import { useAuthForm } from './useAuthForm.ts';

const RULES = { email: [required, email] };

/** /auth/forgot-password: POST forget_password (SESSION-10); the answer is the same whether the email exists or not. */
export function ForgotPasswordScreen() {
  const form = useAuthForm(RULES);
  const [result, setResult] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!form.submit() || busy) return;
    setBusy(true);
    setResult(null);
    try {
      const answer = await http.post<{ message?: string }>('forget_password', form.values);
      setResult({ kind: 'success', text: answer.message ?? 'If the email belongs to an account, a reset link is on its way.' });
    } catch (failure) {
      if (isApiError(failure)) {
        setResult({ kind: 'error', text: failure.message });
        form.showServerErrors(failure.fieldErrors);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Forgot password" intro="Enter your email and we will send you a link to choose a new password.">
      <form className="auth-form" noValidate onSubmit={(event) => void onSubmit(event)}>
        {result && <FormMessage kind={result.kind} text={result.text} />}
        <TextField label="Email" name="email" type="email" autoComplete="email" autoFocus field={form.field('email')} />
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Sending…' : 'Send reset link'}
        </button>
        <p className="auth-links">
          <Link to="/auth/login">Back to sign in</Link>
        </p>
      </form>
    </AuthCard>
  );
}
