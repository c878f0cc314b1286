import type { History } from '../routing/appHistory.ts';

/** What had focus when the address last changed: the link or button that navigated, or the page itself on a load. */
let origin: Element | null = null;

/** Notes where focus is at each change of the address, before React renders the new screen. */
export function followNavigationFocus(history: Pick<History, 'listen'>): () => void {
  return history.listen(() => {
    origin = document.activeElement;
  });
}

/**
 * Whether the user left focus where the navigation put it: on the page, or still on what navigated. A screen that
 * finishes loading may then take focus; once the user has moved on (opened the account menu, typed in a field),
 * it must not.
 */
export function focusUntouchedSinceNavigation(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || active === origin;
}
