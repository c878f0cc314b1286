import type { FormEvent, ReactNode } from 'react';
import { Dialog } from './Dialog.tsx';
import { DialogFormActions } from './DialogFormActions.tsx';

export interface FormDialogProps {
  /** The dialog's title and its form's accessible name. */
  title: string;
  className?: string;
  /** What the form needs is filled in: it may be sent. */
  ready: boolean;
  busy: boolean;
  submitLabel: string;
  /** The submit button's text while the form is being sent, e.g. "Saving…". */
  busyLabel: string;
  /** A refusal of the server that names none of the fields, said above the buttons. */
  refusal: string | null;
  onSubmit: () => void;
  onCancel: () => void;
  children: ReactNode;
}

/** A form in a dialog, with Cancel and a submit button that waits until the form is ready and is not sent twice. */
export function FormDialog({
  title,
  className,
  ready,
  busy,
  submitLabel,
  busyLabel,
  refusal,
  onSubmit,
  onCancel,
  children,
}: FormDialogProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready && !busy) onSubmit();
  };
  return (
    <Dialog title={title} onClose={onCancel}>
      <form onSubmit={submit} aria-label={title} className={className}>
        <div className="dialog__body">
          {children}
          {refusal && (
            <p role="alert" className="field-error">
              {refusal}
            </p>
          )}
        </div>
        <DialogFormActions disabled={busy || !ready} onCancel={onCancel}>
          {busy ? busyLabel : submitLabel}
        </DialogFormActions>
      </form>
    </Dialog>
  );
}
