/** The longest wait for an idle moment before deferred work runs anyway. */
const IDLE_TIMEOUT_MS = 2000;

/**
 * Runs `task` once the browser is idle after the current screen, or after two seconds at the latest: work the first
 * screen does not need (preloading, the toast library) waits for it to be usable. Returns what cancels it.
 */
export function whenIdle(task: () => void): () => void {
  if ('requestIdleCallback' in window) {
    const handle = window.requestIdleCallback(task, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = setTimeout(task, 200);
  return () => clearTimeout(handle);
}
