import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';

export interface UseRowNavigationOptions {
  /** How many rows the body has. */
  count: number;
  /** Where each row opens, null for a row the user may not open. */
  pathOf: (index: number) => string | null;
  /** Space on a focused row selects it or not; absent when the list has no selection. */
  onToggle?: ((index: number) => void) | undefined;
}

/** Controls inside a row that take their own clicks (and, for text, their own keys). */
const OWN_CLICKS = 'a, button, input, label, select, textarea, [role="menu"]';
const OWN_KEYS = 'input:not([type="checkbox"]), select, textarea, [contenteditable="true"], [role="menu"]';

/**
 * The keyboard and pointer paths of a list's rows. The body is one Tab stop (a roving tabindex: the row last focused,
 * the first at the start), and that row's own controls follow it in the Tab order; ArrowDown/ArrowUp or j/k move
 * between rows, Home and End go to the first and last, Enter opens the focused row, Space selects it. A click anywhere
 * on a row but its controls opens it, unless it ends a text selection.
 */
export function useRowNavigation({ count, pathOf, onToggle }: UseRowNavigationOptions) {
  const navigate = useNavigate();
  const [focused, setFocused] = useState(0);
  const active = Math.min(focused, Math.max(0, count - 1));

  const onBodyKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    const target = event.target as HTMLElement;
    const row = target.closest('tr');
    if (!row || row.parentElement !== event.currentTarget || target.closest(OWN_KEYS)) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const rows = [...event.currentTarget.rows];
    const index = rows.indexOf(row);
    const onRow = target === row;
    const moveTo = (next: number) => {
      event.preventDefault();
      rows[Math.max(0, Math.min(rows.length - 1, next))]?.focus();
    };
    if (event.key === 'ArrowDown' || event.key === 'j') moveTo(index + 1);
    else if (event.key === 'ArrowUp' || event.key === 'k') moveTo(index - 1);
    else if (event.key === 'Home' && onRow) moveTo(0);
    else if (event.key === 'End' && onRow) moveTo(rows.length - 1);
    else if (event.key === 'Enter' && onRow) {
      const path = pathOf(index);
      if (path) {
        event.preventDefault();
        void navigate(path);
      }
    } else if (event.key === ' ' && onRow && onToggle) {
      event.preventDefault();
      onToggle(index);
    }
  };

  const rowProps = (index: number) => {
    const path = pathOf(index);
    return {
      tabIndex: index === active ? 0 : -1,
      onFocus: () => setFocused(index),
      onClick: path
        ? (event: MouseEvent<HTMLTableRowElement>) => {
            if ((event.target as Element).closest(OWN_CLICKS) || window.getSelection()?.toString()) return;
            void navigate(path);
          }
        : undefined,
    };
  };

  return { active, onBodyKeyDown, rowProps };
}
