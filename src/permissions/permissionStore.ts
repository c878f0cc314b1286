import { PERMISSIONS_IN_FLIGHT_MS } from '../config/constants.ts';
import { http } from '../http/http.ts';
import { permissionsSignals } from '../http/permissionsSignal.ts';
import { enrolmentStore } from '../session/enrolmentStore.ts';
import { sessionStore } from '../session/sessionStore.ts';
import type { Permissions } from './types.ts';

interface PermissionState {
  permissions: Permissions | null;
  loaded: boolean;
  /** The last load failed; a later load may still succeed. */
  failed: boolean;
}

const EMPTY: PermissionState = { permissions: null, loaded: false, failed: false };

let state = EMPTY;
let inFlight: Promise<Permissions | null> | null = null;
/** Bumped by every clear, so an answer that arrives after a logout is dropped. */
let generation = 0;
/** Bumped by every request sent, so an answer overtaken by a later request's is dropped. */
let requests = 0;
/** The permissions version the API named last (docs/api.md, "Access"); null until an answer names one. */
let knownVersion: string | null = null;
const listeners = new Set<() => void>();

function set(next: PermissionState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

function clear(): void {
  generation += 1;
  inFlight = null;
  knownVersion = null;
  if (state !== EMPTY) set(EMPTY);
}

/**
 * The user's permissions (PERM-01). Concurrent loads share one request, forgotten 100 ms after it succeeds
 * (PERM-07); a failure clears them (PERM-08); the logout event clears them (PERM-05).
 */
export const permissionStore = {
  get: (): PermissionState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  load(): Promise<Permissions | null> {
    if (inFlight) return inFlight;
    const mine = generation;
    const request = ++requests;
    const answer = http.get<{ data: Permissions }>('user/permission').then(
      (body) => {
        if (mine !== generation || request !== requests) return null;
        const permissions = body.data ?? {};
        // The same set read again leaves the state as it was, so nothing re-renders for it.
        if (!state.loaded || JSON.stringify(permissions) !== JSON.stringify(state.permissions))
          set({ permissions, loaded: true, failed: false });
        setTimeout(() => {
          if (inFlight === answer) inFlight = null;
        }, PERMISSIONS_IN_FLIGHT_MS);
        return permissions;
      },
      () => {
        if (mine !== generation || request !== requests) return null;
        clear();
        set({ ...EMPTY, failed: true });
        return null;
      },
    );
    inFlight = answer;
    return answer;
  },
  /**
   * Reads the permissions again while the ones loaded stay in force, so that no screen flickers or remounts: when the
   * answer differs, the sidebar and the guards follow it (a screen that became forbidden goes to the 403 page).
   */
  refresh(): void {
    if (!state.loaded) return;
    inFlight = null;
    void permissionStore.load();
  },
  clear,
};

/** PERM-06: the forced-permissions-change event (e.g. after editing the current role): clear, then reload. */
export function requestPermissionsReload(): Promise<Permissions | null> {
  clear();
  return permissionStore.load();
}

// An answer naming another permissions version than the last one, or a refusal, means an administrator may have
// changed what this user may do while they are signed in.
permissionsSignals.listen(({ version, forbidden }) => {
  const moved = version !== null && knownVersion !== null && version !== knownVersion;
  if (version !== null) knownVersion = version;
  if (moved || forbidden) permissionStore.refresh();
});

sessionStore.onEnd(clear);
// A session sent to enrol a second factor was refused its permissions; once enrolled, they are read afresh.
enrolmentStore.subscribe(clear);
