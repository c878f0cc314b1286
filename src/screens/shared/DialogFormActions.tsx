import type { ReactNode } from 'react';

export interface DialogFormActionsProps {
  /** The submit button's text. */
  children: ReactNode;
  disabled: boolean;
  /** What the submit does cannot be taken back: its button warns. */
  destructive?: boolean;
  onCancel: () => void;
}

/** The buttons under a form in a dialog: Cancel, then the form's submit. */
export function DialogFormActions({ children, disabled, destructive = false, onCancel }: DialogFormActionsProps) {
  return (
    <div className="dialog__actions">
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
      <button
        type="submit"
        className={destructive ? 'button button--danger' : 'button button--primary'}
        disabled={disabled}
      >
        {children}
      </button>
    </div>
  );
}
