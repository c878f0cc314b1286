import { useMemo } from 'react';
import type { ActionName } from '../../generated/permissions.ts';
import type { ResourceDescription } from '../../generated/types.ts';
import { canAccess, usePermissions } from '../../permissions/index.ts';

export interface ResourceAccess {
  add: boolean;
  edit: boolean;
  delete: boolean;
  ACTIVE_INACTIVE: boolean;
  download: boolean;
  view_detail: boolean;
  verify: boolean;
  SUBSCRIBER_DETAIL: boolean;
  import: boolean;
}

/** What the user may do with a resource: the manifest offers the action and the permissions grant it. */
export function useResourceAccess(resource: ResourceDescription): ResourceAccess {
  const { permissions } = usePermissions();
  // One object while the permissions stay the same: lists pass it to rows that render again only when it changes.
  return useMemo(() => {
    const may = (action: ActionName) =>
      resource.actions.includes(action) && canAccess(permissions, resource.module, action);
    return {
      add: may('add'),
      edit: may('edit'),
      delete: may('delete'),
      ACTIVE_INACTIVE: may('ACTIVE_INACTIVE'),
      download: may('download'),
      view_detail: may('view_detail'),
      verify: may('verify'),
      SUBSCRIBER_DETAIL: may('SUBSCRIBER_DETAIL'),
      import: may('import'),
    };
  }, [permissions, resource]);
}
