import type { ActionName } from '../../generated/permissions.ts';
import type { ResourceDescription } from '../../generated/types.ts';
import { useCanAccess } from '../../permissions/index.ts';

export interface ResourceAccess {
  add: boolean;
  edit: boolean;
  delete: boolean;
  ACTIVE_INACTIVE: boolean;
  download: boolean;
  view_detail: boolean;
  verify: boolean;
  SUBSCRIBER_DETAIL: boolean;
}

/** What the user may do with a resource: the manifest offers the action and the permissions grant it. */
export function useResourceAccess(resource: ResourceDescription): ResourceAccess {
  const may = (action: ActionName, granted: boolean) => granted && resource.actions.includes(action);
  return {
    add: may('add', useCanAccess(resource.module, 'add')),
    edit: may('edit', useCanAccess(resource.module, 'edit')),
    delete: may('delete', useCanAccess(resource.module, 'delete')),
    ACTIVE_INACTIVE: may('ACTIVE_INACTIVE', useCanAccess(resource.module, 'ACTIVE_INACTIVE')),
    download: may('download', useCanAccess(resource.module, 'download')),
    view_detail: may('view_detail', useCanAccess(resource.module, 'view_detail')),
    verify: may('verify', useCanAccess(resource.module, 'verify')),
    SUBSCRIBER_DETAIL: may('SUBSCRIBER_DETAIL', useCanAccess(resource.module, 'SUBSCRIBER_DETAIL')),
  };
}
