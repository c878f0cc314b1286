import { toast } from 'react-toastify/unstyled';
import { ERROR_TOAST_TITLE } from '../config/constants.ts';
import { ToastFrame } from './ToastFrame.tsx';
import { rememberUntilToastHost, showPlainAlert, toastsUnreachable } from './plainAlert.ts';

/**
 * An error toast with a message of our own, shown as text. For the first screen's code (the HTTP wrapper before its
 * client has loaded): it needs no HTML sanitiser, so DOMPurify stays out of the initial bundle.
 */
export function toastErrorText(message: string, title: string = ERROR_TOAST_TITLE): void {
  if (toastsUnreachable()) return showPlainAlert(message, title);
  const id = toast.error((props) => (
    <ToastFrame {...props} title={title}>
      <div className="toast-message">{message}</div>
    </ToastFrame>
  ));
  rememberUntilToastHost(message, title, () => toast.dismiss(id));
}
