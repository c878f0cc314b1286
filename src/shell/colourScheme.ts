import { sessionStore } from '../session/sessionStore.ts';

/** The colour scheme a user chose: the system's setting (the default), or always light or dark. */
export type ColourScheme = 'system' | 'light' | 'dark';

const storageKey = (user: string) => `console-colour-scheme:${user}`;
const signedInUser = () => sessionStore.get().claims?.sub ?? null;

/** The scheme the signed-in user chose on this browser; the system's for anyone else. */
export function chosenScheme(): ColourScheme {
  const user = signedInUser();
  const stored = user ? localStorage.getItem(storageKey(user)) : null;
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

const listeners = new Set<() => void>();

/** base.css reads `data-scheme` on the root element; without it the page follows the system (`color-scheme`). */
function apply(scheme: ColourScheme): void {
  if (scheme === 'system') delete document.documentElement.dataset.scheme;
  else document.documentElement.dataset.scheme = scheme;
  listeners.forEach((listener) => listener());
}

/** Keeps the signed-in user's choice, on this browser, and shows it at once. */
export function chooseScheme(scheme: ColourScheme): void {
  const user = signedInUser();
  if (user) localStorage.setItem(storageKey(user), scheme);
  apply(scheme);
}

/** Shows each user's scheme from the first paint on, and follows sign-ins and sign-outs (in any tab). */
export function followColourScheme(): void {
  apply(chosenScheme());
  sessionStore.subscribe(() => apply(chosenScheme()));
}

/** Whether the page shows dark colours now (for what CSS does not colour: a chart's canvas). */
export function darkSchemeShown(): boolean {
  const chosen = document.documentElement.dataset.scheme;
  return (
    chosen === 'dark' || (chosen !== 'light' && window.matchMedia?.('(prefers-color-scheme: dark)').matches === true)
  );
}

/** Calls `listener` whenever the shown scheme may have changed: a choice, a sign-in or out, the system's setting. */
export function subscribeToScheme(listener: () => void): () => void {
  const system = window.matchMedia?.('(prefers-color-scheme: dark)');
  listeners.add(listener);
  system?.addEventListener?.('change', listener);
  return () => {
    listeners.delete(listener);
    system?.removeEventListener?.('change', listener);
  };
}
