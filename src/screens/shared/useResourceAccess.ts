import { useMemo } from 'react';
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
  const add = may('add', useCanAccess(resource.module, 'add').allowed);
  const edit = may('edit', useCanAccess(resource.module, 'edit').allowed);
  const remove = may('delete', useCanAccess(resource.module, 'delete').allowed);
  const activeInactive = may('ACTIVE_INACTIVE', useCanAccess(resource.module, 'ACTIVE_INACTIVE').allowed);
  const download = may('download', useCanAccess(resource.module, 'download').allowed);
  const viewDetail = may('view_detail', useCanAccess(resource.module, 'view_detail').allowed);
  const verify = may('verify', useCanAccess(resource.module, 'verify').allowed);
  const subscriberDetail = may('SUBSCRIBER_DETAIL', useCanAccess(resource.module, 'SUBSCRIBER_DETAIL').allowed);
  const canImport = may('import', useCanAccess(resource.module, 'import').allowed);
  // One object while the answers stay the same: lists pass it to rows that render again only when it changes.
  return useMemo(
    () => ({
      add,
      edit,
      delete: remove,
      ACTIVE_INACTIVE: activeInactive,
      download,
      view_detail: viewDetail,
      verify,
      SUBSCRIBER_DETAIL: subscriberDetail,
      import: canImport,
    }),
    [add, edit, remove, activeInactive, download, viewDetail, verify, subscriberDetail, canImport],
  );
}
