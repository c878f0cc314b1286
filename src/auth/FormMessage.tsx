export interface FormMessageProps {
  kind: 'error' | 'success' | 'info';
  text: string | null;
}

/** A message above a form: the server's error (an alert), its confirmation or a notice (a status). */
export function FormMessage({ kind, text }: FormMessageProps) {
  if (!text) return null;
  return (
    <p className={`form-message form-message-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {text}
    </p>
  );
}
