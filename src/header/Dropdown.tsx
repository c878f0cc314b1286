import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { DROPDOWN_ANIMATION_MS } from '../config/constants.ts';
import './Dropdown.css';

export interface DropdownProps {
  /** The trigger's accessible name. */
  label: string;
  /** What the trigger shows. */
  trigger: ReactNode;
  /** The panel's content; `close` shuts the dropdown (e.g. after following a link). */
  children: (close: () => void) => ReactNode;
  className?: string;
}

const FOCUSABLE = 'a[href], button:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A disclosure dropdown of the header (CONST-01): opens with a 220 ms animation, closes on an outside click,
 * on Escape (focus back on the trigger) and when focus leaves it, not on a click inside. Opened from the
 * keyboard, it moves focus to its first item.
 */
export function Dropdown({ label, trigger, children, className = '' }: DropdownProps) {
  const [open, setOpen] = useState(false);
  const [focusFirst, setFocusFirst] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      triggerRef.current?.focus();
    };
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  useEffect(() => {
    if (open && focusFirst) panelRef.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
  }, [open, focusFirst]);

  return (
    <div
      ref={rootRef}
      className={`dropdown ${className}`}
      onBlur={(event) => {
        if (event.relatedTarget instanceof Node && !rootRef.current?.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={triggerRef}
        type="button"
        className="dropdown-trigger"
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={(event) => {
          // detail 0: activated with Enter or Space rather than a pointer.
          setFocusFirst(event.detail === 0);
          setOpen((current) => !current);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setFocusFirst(true);
            setOpen(true);
          }
        }}
      >
        {trigger}
      </button>
      {open && (
        <div
          ref={panelRef}
          id={panelId}
          role="region"
          aria-label={label}
          className="dropdown-panel"
          style={{ animationDuration: `${DROPDOWN_ANIMATION_MS}ms` }}
        >
          {children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}
