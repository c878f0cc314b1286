import { useEffect, useRef, type ReactNode } from 'react';
import { toast, type ToastContentProps } from 'react-toastify/unstyled';
import { TOAST_EXTENDED_TIMEOUT_MS } from '../config/constants.ts';

export interface ToastFrameProps extends Partial<ToastContentProps> {
  title?: string;
  children: ReactNode;
}

/**
 * TOAST-01: title and message; once the pointer leaves a hovered toast it closes after the extended time-out
 * (TOAST-03). The pointer itself is watched: a toast is also paused until its fade-in ends, and that first start
 * must keep the full time-out.
 */
export function ToastFrame({ title, toastProps, children }: ToastFrameProps) {
  const bodyRef = useRef<HTMLDivElement>(null);
  const toastId = toastProps?.toastId;
  useEffect(() => {
    const frame = bodyRef.current?.closest('.Toastify__toast');
    if (!frame || toastId === undefined) return;
    const onLeave = () =>
      toast.update(toastId, { autoClose: TOAST_EXTENDED_TIMEOUT_MS, updateId: `extended-${Date.now()}` });
    frame.addEventListener('mouseleave', onLeave);
    return () => frame.removeEventListener('mouseleave', onLeave);
  }, [toastId]);
  return (
    <div ref={bodyRef} className="toast-body">
      {title && <strong className="toast-title">{title}</strong>}
      {children}
    </div>
  );
}
