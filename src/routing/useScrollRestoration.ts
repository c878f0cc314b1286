import { useLayoutEffect, useRef } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router-dom';
import { useAppHistory } from './appHistoryContext.ts';

const STORAGE_KEY = 'console-scroll-positions';

/** Where each visited entry of the session's history was scrolled to, by its location key; kept over a reload. */
const positions = new Map<string, number>(readStoredPositions());

function readStoredPositions(): [string, number][] {
  try {
    return Object.entries(JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>);
  } catch {
    return [];
  }
}

/**
 * ROUTE-07: a new page starts at the top (or at the element its #hash names); back and forward return to where the
 * page was scrolled. The browser's own restoration is off while the console runs: it would act before the page is
 * rendered.
 */
export function useScrollRestoration(): void {
  const history = useAppHistory();
  const location = useLocation();
  const navigationType = useNavigationType();
  const shownKey = useRef(location.key);

  useLayoutEffect(() => {
    // Noted when the address changes, while the page being left is still the one on screen.
    const remember = () => positions.set(shownKey.current, window.scrollY);
    const store = () => {
      remember();
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(positions)));
    };
    const stopListening = history.listen(remember);
    window.history.scrollRestoration = 'manual';
    window.addEventListener('pagehide', store);
    return () => {
      stopListening();
      window.removeEventListener('pagehide', store);
      window.history.scrollRestoration = 'auto';
    };
  }, [history]);

  useLayoutEffect(() => {
    shownKey.current = location.key;
    const saved = navigationType === NavigationType.Pop ? positions.get(location.key) : undefined;
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (saved !== undefined) {
      window.scrollTo(0, saved);
      return holdPosition(saved);
    }
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location, navigationType]);
}

/** How long a restored position is held while the page's later parts arrive. */
const SETTLE_MILLISECONDS = 2_000;

/**
 * Keeps a restored position while the page settles: a part above it that arrives after the restore (a toolbar whose
 * data comes later) would otherwise push what the user saw down, and the browser's scroll anchoring would keep the
 * wrong rows in view. The user's own scrolling, or the settle time, ends the hold.
 */
function holdPosition(saved: number): () => void {
  if (typeof ResizeObserver !== 'function') return () => undefined;
  const restore = () => {
    if (Math.round(window.scrollY) !== saved) window.scrollTo(0, saved);
  };
  const observer = new ResizeObserver(restore);
  const release = () => {
    observer.disconnect();
    window.clearTimeout(timer);
    for (const event of USER_SCROLLS) window.removeEventListener(event, release);
  };
  const timer = window.setTimeout(release, SETTLE_MILLISECONDS);
  observer.observe(document.documentElement);
  for (const event of USER_SCROLLS) window.addEventListener(event, release, { passive: true });
  return release;
}

const USER_SCROLLS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
