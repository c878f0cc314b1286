import type { ReactNode } from 'react';
import { Dialog } from './Dialog.tsx';

export interface InfoDialogProps {
  title: string;
  /** The text of the one button, which closes the dialog: "Close", "Done". */
  closeLabel: string;
  /** Classes of the body besides `dialog__body`. */
  bodyClassName?: string;
  children: ReactNode;
  onClose: () => void;
}

/** A dialog that only shows something: its body, and one button that closes it, with the focus on it. */
export function InfoDialog({ title, closeLabel, bodyClassName, children, onClose }: InfoDialogProps) {
  return (
    <Dialog title={title} onClose={onClose}>
      <div className={bodyClassName ? `dialog__body ${bodyClassName}` : 'dialog__body'}>{children}</div>
      <div className="dialog__actions">
        <button type="button" className="button" data-autofocus onClick={onClose}>
          {closeLabel}
        </button>
      </div>
    </Dialog>
  );
}
