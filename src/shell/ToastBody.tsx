import { sanitizeHtml } from './sanitizeHtml.ts';
import { ToastFrame, type ToastFrameProps } from './ToastFrame.tsx';

export interface ToastBodyProps extends Omit<ToastFrameProps, 'children'> {
  /** Plain text or HTML; HTML is sanitised (TOAST-04). */
  message: string;
}

export function ToastBody({ message, ...frame }: ToastBodyProps) {
  return (
    <ToastFrame {...frame}>
      <div className="toast-message" dangerouslySetInnerHTML={{ __html: sanitizeHtml(message) }} />
    </ToastFrame>
  );
}
