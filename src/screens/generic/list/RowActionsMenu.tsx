import { useEffect, useId, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';

export interface RowActionsMenuProps {
  /** The record's label: the button is "Actions for <label>". */
  label: string;
  /** The paths of the screens the user may open, null for the others. */
  view: string | null;
  details: string | null;
  edit: string | null;
  onDelete: (() => void) | null;
  /** Only the row that holds the table's focus puts its controls in the Tab order. */
  tabbable: boolean;
}

/** Room the menu needs below its button; nearer the bottom of the window it opens upwards. */
const MENU_ROOM_PX = 180;
const GAP_PX = 4;

/**
 * A row's actions behind one compact button (the menu button pattern): opened by click, Enter or Space with focus on
 * its first item; the arrows, Home and End move; Escape closes it, focus back on the button; Tab, a click elsewhere,
 * a scroll or a resize close it. Fixed in the window, so the table region's scrolling never clips it.
 */
export function RowActionsMenu({ label, view, details, edit, onDelete, tabbable }: RowActionsMenuProps) {
  const [place, setPlace] = useState<CSSProperties | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const menuId = useId();
  const open = place !== null;
  const name = `Actions for ${label}`;

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointerDown = (event: Event) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setPlace(null);
    };
    const onMove = () => setPlace(null);
    document.addEventListener('mousedown', onPointerDown);
    window.addEventListener('scroll', onMove, true);
    window.addEventListener('resize', onMove);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      window.removeEventListener('scroll', onMove, true);
      window.removeEventListener('resize', onMove);
    };
  }, [open]);

  const show = () => {
    const rect = buttonRef.current!.getBoundingClientRect();
    const right = window.innerWidth - rect.right;
    setPlace(
      window.innerHeight - rect.bottom < MENU_ROOM_PX
        ? { bottom: window.innerHeight - rect.top + GAP_PX, right }
        : { top: rect.bottom + GAP_PX, right },
    );
  };
  const close = () => {
    setPlace(null);
    buttonRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    // The menu's keys are its own: they neither move between rows nor open one.
    event.stopPropagation();
    const items = [...event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const moveTo = (index: number) => {
      event.preventDefault();
      items[(index + items.length) % items.length]?.focus();
    };
    if (event.key === 'ArrowDown') moveTo(at + 1);
    else if (event.key === 'ArrowUp') moveTo(at - 1);
    else if (event.key === 'Home') moveTo(0);
    else if (event.key === 'End') moveTo(items.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') close();
  };

  const link = (to: string | null, text: string) =>
    to && (
      <li role="none">
        <Link role="menuitem" tabIndex={-1} className="row-menu__item" to={to} onClick={() => setPlace(null)}>
          {text}
        </Link>
      </li>
    );

  return (
    <div className="row-menu">
      <button
        ref={buttonRef}
        type="button"
        className="row-menu__button"
        aria-label={name}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        tabIndex={tabbable ? 0 : -1}
        onClick={() => (open ? setPlace(null) : show())}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <ul
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={name}
          className="row-menu__list"
          style={place}
          onKeyDown={onKeyDown}
        >
          {link(view, 'View')}
          {link(details, 'Details')}
          {link(edit, 'Edit')}
          {onDelete && (
            <li role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className="row-menu__item row-menu__item--danger"
                onClick={() => {
                  setPlace(null);
                  onDelete();
                }}
              >
                Delete
              </button>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
