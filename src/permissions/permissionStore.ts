import { PERMISSIONS_IN_FLIGHT_MS } from '../config/constants.ts';
import { http } from '../http/http.ts';
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
const listeners = new Set<() => void>();

function set(next: PermissionState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

function clear(): void {
  generation += 1;
  inFlight = null;
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
    const request = http.get<{ data: Permissions }>('user/permission').then(
      (answer) => {
        if (mine !== generation) return null;
        set({ permissions: answer.data ?? {}, loaded: true, failed: false });
        setTimeout(() => {
          if (inFlight === request) inFlight = null;
        }, PERMISSIONS_IN_FLIGHT_MS);
        return answer.data;
      },
      () => {
        if (mine !== generation) return null;
        clear();
        set({ ...EMPTY, failed: true });
        return null;
      },
    );
    inFlight = request;
    return request;
  },
  clear,
};

/** PERM-06: the forced-permissions-change event (e.g. after editing the current role): clear, then reload. */
export function requestPermissionsReload(): Promise<Permissions | null> {
  clear();
  return permissionStore.load();
}

sessionStore.onEnd(clear);
