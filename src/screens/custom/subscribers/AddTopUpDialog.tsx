import { useState } from 'react';
import type { ResourceDescription } from '../../../generated/types.ts';
import { http } from '../../../http/index.ts';
import { ActionFormDialog } from '../../shared/ActionFormDialog.tsx';
import { actionForm } from '../../shared/actionForm.ts';

export interface AddTopUpDialogProps {
  resource: ResourceDescription;
  subscriberId: string;
  /** `changed`: points were credited. */
  onClose: (changed: boolean) => void;
}

/**
 * ADD_TOP_UP: points bought outside a plan. One idempotency key per dialog, so a double click or a
 * retry after a lost answer credits the points once.
 */
export function AddTopUpDialog({ resource, subscriberId, onClose }: AddTopUpDialogProps) {
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  return (
    <ActionFormDialog
      title="Add top-up"
      form={actionForm(resource, 'ADD_TOP_UP')}
      submitLabel="Credit points"
      send={(data) =>
        http.post<{ message?: string }>(`${resource.api}/${subscriberId}/top-ups`, {
          ...data,
          idempotency_key: idempotencyKey,
        })
      }
      doneMessage="Top-up credited."
      onClose={onClose}
    />
  );
}
