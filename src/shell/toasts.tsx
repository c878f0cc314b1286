import { toast } from 'react-toastify/unstyled';
import { ERROR_TOAST_TITLE } from '../config/constants.ts';
import { ToastBody } from './ToastBody.tsx';
import { rememberUntilToastHost, showPlainAlert, toastsUnreachable } from './plainAlert.ts';

export interface ToastOptions {
  /** TOAST-01: the close button is optional per toast; shown unless turned off. */
  closeButton?: boolean;
  /** A button in the toast for as long as it shows (e.g. "Undo"); pressing it closes the toast. */
  action?: { label: string; onClick: () => void };
}

/** A success toast; the message may be HTML (sanitised). */
export function toastSuccess(message: string, title?: string, { closeButton = true, action }: ToastOptions = {}): void {
  toast.success(
    (props) => (
      <>
        <ToastBody {...props} title={title} message={message} />
        {action && (
          <button
            type="button"
            className="link-button toast-action"
            onClick={() => {
              props.closeToast();
              action.onClick();
            }}
          >
            {action.label}
          </button>
        )}
      </>
    ),
    { closeButton },
  );
}

/** An error toast, titled "Error" unless told otherwise (ERR-01). */
export function toastError(message: string, title: string = ERROR_TOAST_TITLE, { closeButton = true }: ToastOptions = {}): void {
  if (toastsUnreachable()) return showPlainAlert(message, title);
  const id = toast.error((props) => <ToastBody {...props} title={title} message={message} />, { closeButton });
  rememberUntilToastHost(message, title, () => toast.dismiss(id));
}
