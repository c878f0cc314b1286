import { useEffect, useRef, type ReactNode } from 'react';
import { toast, type ToastContentProps } from 'react-toastify/unstyled';
import { TOAST_EXTENDED_TIMEOUT_MS } from '../config/constants.ts';

export interface ToastFrameProps extends Partial<ToastContentProps> {
  title?: string;
  children: ReactNode;
}

/** TOAST-01: title and message; once the pointer leaves a paused toast it closes after the extended time-out (TOAST-03). */
export function ToastFrame({ title, isPaused, toastProps, children }: ToastFrameProps) {
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
      {children}
    </div>
  );
}
