import { toast } from 'react-toastify/unstyled';
import { ERROR_TOAST_TITLE } from '../config/constants.ts';
import { ToastBody } from './ToastBody.tsx';

/** A success toast; the message may be HTML (sanitised). */
export function toastSuccess(message: string, title?: string): void {
  toast.success((props) => <ToastBody {...props} title={title} message={message} />);
}

/** An error toast, titled "Error" unless told otherwise (ERR-01). */
export function toastError(message: string, title: string = ERROR_TOAST_TITLE): void {
  toast.error((props) => <ToastBody {...props} title={title} message={message} />);
}
