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
  import: boolean;
}

/** What the user may do with a resource: the manifest offers the action and the permissions grant it. */
export function useResourceAccess(resource: ResourceDescription): ResourceAccess {
  const may = (action: ActionName, granted: boolean) => granted && resource.actions.includes(action);
  return {
    add: may('add', useCanAccess(resource.module, 'add').allowed),
    edit: may('edit', useCanAccess(resource.module, 'edit').allowed),
    delete: may('delete', useCanAccess(resource.module, 'delete').allowed),
    ACTIVE_INACTIVE: may('ACTIVE_INACTIVE', useCanAccess(resource.module, 'ACTIVE_INACTIVE').allowed),
    download: may('download', useCanAccess(resource.module, 'download').allowed),
    view_detail: may('view_detail', useCanAccess(resource.module, 'view_detail').allowed),
    verify: may('verify', useCanAccess(resource.module, 'verify').allowed),
    SUBSCRIBER_DETAIL: may('SUBSCRIBER_DETAIL', useCanAccess(resource.module, 'SUBSCRIBER_DETAIL').allowed),
    import: may('import', useCanAccess(resource.module, 'import').allowed),
  };
}
