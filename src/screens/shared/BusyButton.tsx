import type { ButtonHTMLAttributes, ReactNode } from 'react';

type BusyButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  /** What the button started is running: the button is disabled and says so to assistive technology. */
  busy: boolean;
  /** Shown in place of the children while busy (absent: the children stay). */
  busyLabel?: ReactNode;
};

/** A button that cannot be pressed twice while its work runs, and shows that it is running. */
export function BusyButton({ busy, busyLabel, className = 'button', disabled, children, ...rest }: BusyButtonProps) {
  return (
    <button type="button" {...rest} className={className} disabled={busy || disabled} aria-busy={busy || undefined}>
      {busy && busyLabel !== undefined ? busyLabel : children}
    </button>
  );
}
