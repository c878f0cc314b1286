import {
  UNSAFE_createBrowserHistory,
  UNSAFE_createMemoryHistory,
  type HistoryRouterProps,
  type Location,
  type Path,
  type To,
} from 'react-router-dom';

/** React Router's history interface (the package exports it only as this prop's type). */
export type History = HistoryRouterProps['history'];
type Update = Parameters<Parameters<History['listen']>[0]>[0];
type Listener = (update: Update) => void;

/** Whether a navigation from the current location to the next should wait for the user's word. */
export type NavigationGuard = (currentLocation: Location, nextLocation: Path) => boolean;

/** What must be there before the app shows `nextLocation` (its route chunks), or null when nothing is missing. */
export type NavigationPreparation = (nextLocation: Path) => Promise<void> | null;

/** The console's history: React Router's own, with navigation guards and any number of listeners. */
export interface AppHistory extends History {
  /**
   * Asks `guard` before each navigation; one it holds is handed to `onHold` as the function that carries it out
   * (not calling it stays where the user is). Returns the guard's removal.
   */
  guard(guard: NavigationGuard, onHold: (proceed: () => void) => void): () => void;
}

/**
 * Wraps the history React Router itself uses so the app can hold navigations, which only the data router's
 * useBlocker did: a link or navigate() is held before it reaches the browser; back or forward, which the browser has
 * already carried out, is undone by going the other way, and done again when the user chooses to leave. A link or
 * navigate() changes the address once `prepare` has what the next page needs, as the data router did: the address
 * and the page on screen change together.
 */
export function createAppHistory(base: History, prepare: NavigationPreparation = () => null): AppHistory {
  const listeners = new Set<Listener>();
  const guards = new Map<NavigationGuard, (proceed: () => void) => void>();
  /** Set while a held back/forward is being undone: that move is no navigation, and ends the undoing. */
  let undoing: (() => void) | null = null;
  /** Set from a navigation the user chose to carry out until it arrives, so that no guard holds it again. */
  let proceeding = false;
  /** Where the app is: after back or forward, the browser's location is already the next one. */
  let current = base.location;
  /** Counts navigations, so that one still being prepared gives way to any that came after it. */
  let navigations = 0;

  function holding(nextLocation: Path): ((proceed: () => void) => void) | undefined {
    if (proceeding) return undefined;
    for (const [guard, onHold] of guards) if (guard(current, nextLocation)) return onHold;
    return undefined;
  }

  function navigateOrHold(nextLocation: Path, change: () => void) {
    const navigation = ++navigations;
    const navigate = () => {
      const ready = prepare(nextLocation);
      if (!ready) return change();
      void ready.then(() => {
        if (navigation === navigations) change();
      });
    };
    const onHold = holding(nextLocation);
    if (!onHold) return navigate();
    onHold(() => {
      proceeding = true;
      navigate();
    });
  }

  base.listen((update) => {
    if (undoing) {
      undoing();
      undoing = null;
      return;
    }
    const onHold = update.action === 'POP' && update.delta ? holding(update.location) : undefined;
    if (onHold && update.delta) {
      const delta = update.delta;
      const undone = new Promise<void>((resolve) => (undoing = resolve));
      base.go(-delta);
      onHold(() => {
        void undone.then(() => {
          proceeding = true;
          base.go(delta);
        });
      });
      return;
    }
    if (update.action === 'POP') navigations += 1;
    proceeding = false;
    current = update.location;
    for (const listener of listeners) listener(update);
  });

  return {
    get action() {
      return base.action;
    },
    get location() {
      return current;
    },
    createHref: (to) => base.createHref(to),
    createURL: (to) => base.createURL(to),
    encodeLocation: (to) => base.encodeLocation(to),
    push: (to: To, state?: unknown) => navigateOrHold(base.encodeLocation(to), () => base.push(to, state)),
    replace: (to: To, state?: unknown) => navigateOrHold(base.encodeLocation(to), () => base.replace(to, state)),
    go: (delta) => base.go(delta),
    listen(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    guard(guard, onHold) {
      guards.set(guard, onHold);
      return () => {
        guards.delete(guard);
      };
    },
  };
}

/**
 * The browser's history, as the console runs: the one React Router's BrowserRouter would make for itself (exported
 * as UNSAFE_ for routers on a history of their own, as here), so addresses, keys and `history.state` are React Router's.
 */
export const createBrowserAppHistory = (prepare?: NavigationPreparation) =>
  createAppHistory(UNSAFE_createBrowserHistory({ v5Compat: true }), prepare);

/** A history in memory at the last of `entries`: tests, which drive and read the address. */
export const createMemoryAppHistory = (entries: string[] = ['/'], prepare?: NavigationPreparation) =>
  createAppHistory(
    UNSAFE_createMemoryHistory({ initialEntries: entries, initialIndex: entries.length - 1, v5Compat: true }),
    prepare,
  );
