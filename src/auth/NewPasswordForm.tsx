import { password, required, sameAs } from './fieldRules.ts';
import { TextField } from './TextField.tsx';
import { useAuthForm } from './useAuthForm.ts';

const RULES = { password: [required, password], confirm_password: [required, sameAs('password', 'Password')] };

export interface NewPasswordFormProps {
  /** Sends the chosen password; a failure is its "Error" toast (ERR-01), with its field errors on the form. */
  send: (values: { password: string; confirm_password: string }) => Promise<void>;
  submitLabel: string;
}

/** A password and its confirmation, chosen with an e-mailed link (a reset, or an invitation's first password). */
export function NewPasswordForm({ send, submitLabel }: NewPasswordFormProps) {
  const form = useAuthForm(RULES);
  return (
    <form className="auth-form" noValidate onSubmit={form.onSubmit(() => send(form.values))}>
      <TextField
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        autoFocus
        field={form.field('password')}
      />
      <TextField
        label="Confirm password"
        name="confirm_password"
        type="password"
        autoComplete="new-password"
        field={form.field('confirm_password')}
      />
      <button type="submit" className="button button--primary button--block" disabled={form.busy}>
        {form.busy ? 'Saving…' : submitLabel}
      </button>
    </form>
  );
}
