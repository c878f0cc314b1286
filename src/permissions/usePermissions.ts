import { useEffect, useSyncExternalStore } from 'react';
import { useSession } from '../session/useSession.ts';
import { permissionStore, requestPermissionsReload } from './permissionStore.ts';
import type { Permissions } from './types.ts';

export interface UsePermissionsResult {
  permissions: Permissions | null;
  loaded: boolean;
  /** The last load failed (the error toast told the user); `reload` tries again. */
  failed: boolean;
  reload: () => Promise<Permissions | null>;
}

/** The current user's permissions, loaded on first use while logged in. */
export function usePermissions(): UsePermissionsResult {
  const { loggedIn } = useSession();
  const { permissions, loaded, failed } = useSyncExternalStore(permissionStore.subscribe, permissionStore.get);
  useEffect(() => {
    if (loggedIn && !loaded && !failed) void permissionStore.load();
  }, [loggedIn, loaded, failed]);
  return { permissions, loaded, failed, reload: requestPermissionsReload };
}
