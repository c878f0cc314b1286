import type { ResourceDescription } from '../../../generated/types.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import type { UseListConfirmationsResult } from './useListConfirmations.ts';

export interface ListConfirmDialogsProps {
  resource: ResourceDescription;
  /** Deleted records go to the trash (they can be restored), else they are deleted for good. */
  toTrash: boolean;
  selectedCount: number;
  confirmations: UseListConfirmationsResult;
}

/** The list's confirmation dialogs (delete a row, delete the selected rows, deactivate), shown while one is asked. */
export function ListConfirmDialogs({ resource, toTrash, selectedCount, confirmations }: ListConfirmDialogsProps) {
  const { pendingDelete, pendingBulkDelete, pendingDeactivation } = confirmations;
  const label = resource.label.toLowerCase();
  const afterDelete = toTrash ? 'You can restore it from the trash.' : 'This cannot be undone.';
  return (
    <>
      {pendingDelete && (
        <ConfirmDialog
          title={`Delete ${resource.singular.toLowerCase()}?`}
          confirmLabel="Delete"
          destructive
          busy={confirmations.deleting}
          onConfirm={confirmations.confirmDelete}
          onCancel={confirmations.cancelDelete}
        >
          <p>
            {confirmations.labelOf(pendingDelete)} will be {toTrash ? 'moved to the trash' : 'deleted'}. {afterDelete}
          </p>
        </ConfirmDialog>
      )}
      {pendingBulkDelete && (
        <ConfirmDialog
          title={`Delete ${selectedCount} ${label}?`}
          confirmLabel="Delete"
          destructive
          busy={confirmations.bulkDeleting}
          onConfirm={confirmations.confirmBulkDelete}
          onCancel={confirmations.cancelBulkDelete}
        >
          <p>
            The selected {label} will be {toTrash ? 'moved to the trash' : 'deleted'}.{' '}
            {toTrash ? 'You can restore them from the trash.' : 'This cannot be undone.'}
          </p>
        </ConfirmDialog>
      )}
      {pendingDeactivation && (
        <ConfirmDialog
          title={
            pendingDeactivation.name === null
              ? `Deactivate ${pendingDeactivation.ids.length} ${label}?`
              : `Deactivate ${resource.singular.toLowerCase()}?`
          }
          confirmLabel="Deactivate"
          destructive
          busy={confirmations.deactivating}
          onConfirm={confirmations.confirmDeactivation}
          onCancel={confirmations.cancelDeactivation}
        >
          <p>
            {pendingDeactivation.name === null
              ? `The ${pendingDeactivation.ids.length} selected ${label} will be deactivated.`
              : `${pendingDeactivation.name} will be deactivated.`}{' '}
            You can activate {pendingDeactivation.name === null ? 'them' : 'it'} again later.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
