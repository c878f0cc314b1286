export interface FormMessageProps {
  kind: 'error' | 'success';
  text: string | null;
}

/** A message above a form: the server's error (an alert) or its confirmation (a status). */
export function FormMessage({ kind, text }: FormMessageProps) {
  if (!text) return null;
  return (
    <p className={`form-message form-message-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {text}
    </p>
  );
}
