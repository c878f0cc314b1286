import { useEffect, useRef } from 'react';
import { toast, type ToastContentProps } from 'react-toastify/unstyled';
import { TOAST_EXTENDED_TIMEOUT_MS } from '../config/constants.ts';
import { sanitizeHtml } from './sanitizeHtml.ts';

export interface ToastBodyProps extends Partial<ToastContentProps> {
  title?: string;
  /** Plain text or HTML; HTML is sanitised (TOAST-04). */
  message: string;
}

/** TOAST-01: title and message; once the pointer leaves a paused toast it closes after the extended time-out (TOAST-03). */
export function ToastBody({ title, message, isPaused, toastProps }: ToastBodyProps) {
  const wasPaused = useRef(false);
  const toastId = toastProps?.toastId;
  useEffect(() => {
    if (wasPaused.current && !isPaused && toastId !== undefined) {
      toast.update(toastId, { autoClose: TOAST_EXTENDED_TIMEOUT_MS, updateId: `extended-${Date.now()}` });
    }
    wasPaused.current = Boolean(isPaused);
  }, [isPaused, toastId]);
  return (
    <div className="toast-body">
      {title && <strong className="toast-title">{title}</strong>}
      <div className="toast-message" dangerouslySetInnerHTML={{ __html: sanitizeHtml(message) }} />
    </div>
  );
}
