const calls = new Map<string, Promise<unknown>>();

/**
 * Runs `call` once per key for the page's lifetime. Single-use links (verify email) must not be spent twice by
 * a re-mounted effect (React's StrictMode runs effects twice in development).
 */
export function onceByKey<T>(key: string, call: () => Promise<T>): Promise<T> {
  let pending = calls.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = call();
    calls.set(key, pending);
  }
  return pending;
}
