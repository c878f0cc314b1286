/** The part of a data router this needs (createBrowserRouter's and createMemoryRouter's both fit). */
interface NavigatingRouter {
  state: { location: unknown };
  subscribe(listener: (state: { location: unknown }) => void): () => void;
}

/** What had focus when the address last changed: the link or button that navigated, or the page itself on a load. */
let origin: Element | null = null;

/** Notes where focus is at each change of the router's address, before React renders the new screen. */
export function followNavigationFocus(router: NavigatingRouter): () => void {
  let location = router.state.location;
  return router.subscribe((state) => {
    if (state.location === location) return;
    location = state.location;
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
