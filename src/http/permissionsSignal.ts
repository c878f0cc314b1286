/** What one API answer says about the caller's permissions. */
export interface PermissionsSignal {
  /** The `Permissions-Version` the answer named (null when it named none: a public route, no answer). */
  version: string | null;
  /** The answer was a 403: what the console believes the user may do may be out of date. */
  forbidden: boolean;
}

type Listener = (signal: PermissionsSignal) => void;

const listeners = new Set<Listener>();

/**
 * Where the HTTP client reports what answers say about permissions and the permission store hears it. A channel of
 * its own: the store loads permissions through the client, so the client cannot import the store.
 */
export const permissionsSignals = {
  report(signal: PermissionsSignal): void {
    listeners.forEach((listener) => listener(signal));
  },
  listen(listener: Listener): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
};
