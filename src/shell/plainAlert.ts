import { ERROR_TOAST_TITLE, TOAST_TIMEOUT_MS } from '../config/constants.ts';

let toastHostMounted = false;

/** Called by the toast container once it is on the page: from then on every toast goes through it. */
export function markToastHostMounted(): void {
  toastHostMounted = true;
}

/**
 * Whether a toast raised now could not be shown: the container's code has not arrived and, offline, will not arrive
 * (a toast raised before it mounts while online is kept by the library and shown when it does).
 */
export function toastsUnreachable(): boolean {
  return !toastHostMounted && !navigator.onLine;
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
