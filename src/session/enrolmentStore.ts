import { sessionStore } from './sessionStore.ts';

let required = false;
const listeners = new Set<() => void>();

function set(next: boolean): void {
  if (required === next) return;
  required = next;
  listeners.forEach((listener) => listener());
}

/**
 * Whether the API refused the stored session with 403 `two_factor_enrolment_required` (docs/api.md, "Two-factor
 * sign-in"): the user's role requires a second factor they have not enrolled, since their role started requiring it
 * or an administrator reset theirs. Until they enrol one, the console counts them as not signed in to its screens and
 * shows the enrolment of the sign-in screen instead; the session itself is kept, as the enrolment routes accept it.
 */
export const enrolmentStore = {
  get: (): boolean => required,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
};

/** Heard from the HTTP client: the session must enrol a second factor before anything else answers it. */
export function requireEnrolment(): void {
  set(true);
}

/** A second factor was enrolled: the session is a full one again. */
export function enrolmentDone(): void {
  set(false);
}

sessionStore.onEnd(enrolmentDone);
