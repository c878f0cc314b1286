import { toast } from 'react-toastify/unstyled';
import { ERROR_TOAST_TITLE } from '../config/constants.ts';
import { ToastBody } from './ToastBody.tsx';
import { rememberUntilToastHost, showPlainAlert, toastsUnreachable } from './plainAlert.ts';

export interface ToastOptions {
  /** TOAST-01: the close button is optional per toast; shown unless turned off. */
  closeButton?: boolean;
  /**
   * A button in the toast for as long as it shows (e.g. "Undo"); pressing it closes the toast. With `key`, Ctrl (⌘ on
   * a Mac) and that key do the same from anywhere but a text field, where they are the field's own: a keyboard user
   * whose focus went back to the page reaches it without hunting for the toast.
   */
  action?: { label: string; onClick: () => void; key?: string };
}

const isTextField = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || target.matches('input, textarea, select'));

/** A success toast; the message may be HTML (sanitised). */
export function toastSuccess(message: string, title?: string, { closeButton = true, action }: ToastOptions = {}): void {
  const key = action?.key?.toLowerCase();
  // Once: the toast is on its way out, and a second press must not act again.
  let acted = false;
  const act = () => {
    if (acted || !action) return;
    acted = true;
    toast.dismiss(id);
    action.onClick();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== key || isTextField(event.target)) return;
    event.preventDefault();
    act();
  };
  if (key) document.addEventListener('keydown', onKeyDown);
  const id = toast.success(
    (props) => (
      <>
        <ToastBody {...props} title={title} message={message} />
        {action && (
          <button
            type="button"
            className="link-button toast-action"
            aria-keyshortcuts={key ? `Control+${key.toUpperCase()} Meta+${key.toUpperCase()}` : undefined}
            onClick={act}
          >
            {action.label}
            {key && (
              <kbd className="toast-action__key" aria-hidden="true">
                Ctrl+{key.toUpperCase()}
              </kbd>
            )}
          </button>
        )}
      </>
    ),
    { closeButton, onClose: () => document.removeEventListener('keydown', onKeyDown) },
  );
}

/** An error toast, titled "Error" unless told otherwise (ERR-01). */
export function toastError(
  message: string,
  title: string = ERROR_TOAST_TITLE,
  { closeButton = true }: ToastOptions = {},
): void {
  if (toastsUnreachable()) return showPlainAlert(message, title);
  const id = toast.error((props) => <ToastBody {...props} title={title} message={message} />, { closeButton });
  rememberUntilToastHost(message, title, () => toast.dismiss(id));
}
