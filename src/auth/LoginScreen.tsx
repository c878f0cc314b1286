import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { isApiError } from '../http/ApiError.ts';
import { http } from '../http/http.ts';
import { startSession } from '../session/sessionStore.ts';
import { AuthCard } from './AuthCard.tsx';
import { email, required } from './fieldRules.ts';
import { FormMessage } from './FormMessage.tsx';
import { TextField } from './TextField.tsx';
import { useAuthForm } from './useAuthForm.ts';

interface LoginAnswer {
  data: { access: string; refresh: string };
}

const RULES = { email: [required, email], password: [required] };

/**
 * /auth/login. A successful login stores both tokens (SESSION-06); the guest-only guard then sends the user to
 * their landing path (ROUTE-15). A failure keeps what was typed and shows the server's message.
 */
export function LoginScreen() {
  const form = useAuthForm(RULES);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!form.submit() || busy) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await http.post<LoginAnswer>('login', form.values);
      startSession(answer.data.access, answer.data.refresh);
    } catch (failure) {
      if (isApiError(failure)) {
        setError(failure.message);
        form.showServerErrors(failure.fieldErrors);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Sign in" intro="Sign in to the Trade Data administration console.">
      <form className="auth-form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <FormMessage kind="error" text={error} />
        <TextField label="Email" name="email" type="email" autoComplete="username" autoFocus field={form.field('email')} />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" field={form.field('password')} />
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="auth-links">
          <Link to="/auth/forgot-password">Forgot password?</Link>
        </p>
      </form>
    </AuthCard>
  );
}
