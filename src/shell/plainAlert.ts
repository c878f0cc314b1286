import { ERROR_TOAST_TITLE, TOAST_TIMEOUT_MS } from '../config/constants.ts';

/** Where the toast container is: its code on the way, on the page, or not fetched (offline, or the server gone). */
let toastHost: 'loading' | 'mounted' | 'failed' = 'loading';
/** Errors raised while the container's code is on the way: kept by the library, and shown here if it never comes. */
let waiting: Array<{ message: string; title: string; dismiss: () => void }> = [];

/** Called by the toast container once it is on the page: from then on every toast goes through it. */
export function markToastHostMounted(): void {
  toastHost = 'mounted';
  waiting = [];
}

/** The container's code could not be fetched: the errors raised meanwhile are shown without it, and the next ones too. */
export function markToastHostFailed(): void {
  if (toastHost === 'mounted') return;
  toastHost = 'failed';
  for (const { message, title, dismiss } of waiting) {
    dismiss();
    showPlainAlert(message, title);
  }
  waiting = [];
}

/** An error toast raised before the container is on the page; `dismiss` takes it out of the library's queue. */
export function rememberUntilToastHost(message: string, title: string, dismiss: () => void): void {
  if (toastHost === 'loading') waiting.push({ message, title, dismiss });
}

/**
 * Whether a toast raised now could not be shown: the container's code could not be fetched, or it has not arrived
 * and, offline, will not arrive (a toast raised before it mounts while online is kept by the library and shown when it
 * does, or here if its code then cannot be fetched).
 */
export function toastsUnreachable(): boolean {
  return toastHost === 'failed' || (toastHost === 'loading' && !navigator.onLine);
}

/**
 * An error shown without the toast library, for the moment when its code could not be loaded (offline before the
 * first screen went idle): the same title and message as the toast, in the same corner, for the same 5 seconds.
 */
export function showPlainAlert(message: string, title: string = ERROR_TOAST_TITLE): void {
  const alert = document.createElement('div');
  alert.setAttribute('role', 'alert');
  alert.className = 'toast-body plain-alert';
  alert.style.cssText =
    'position:fixed;top:1rem;right:1rem;z-index:10000;max-width:22rem;padding:0.75rem 1rem;border-radius:4px;' +
    'background:#b3261e;color:#fff;box-shadow:0 2px 8px rgba(0,0,0,.3);font:inherit';
  const heading = document.createElement('strong');
  heading.className = 'toast-title';
  heading.style.display = 'block';
  heading.textContent = title;
  const text = document.createElement('div');
  text.className = 'toast-message';
  text.textContent = message;
  alert.append(heading, text);
  document.body.append(alert);
  setTimeout(() => alert.remove(), TOAST_TIMEOUT_MS);
}
