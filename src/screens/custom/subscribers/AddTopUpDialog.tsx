import { useState } from 'react';
import { SchemaForm, type FormData } from '../../../forms/index.ts';
import type { ResourceDescription } from '../../../generated/types.ts';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { Dialog } from '../../shared/Dialog.tsx';
import { actionForm } from '../../shared/actionForm.ts';
import { useFormSubmission } from '../../shared/useFormSubmission.ts';


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
  const form = actionForm(resource, 'ADD_TOP_UP');
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [formData, setFormData] = useState<FormData>({});
  const submission = useFormSubmission(
    (data) => http.post<{ message?: string }>(`${resource.api}/${subscriberId}/top-ups`, { ...data, idempotency_key: idempotencyKey }),
    (body) => {
      toastSuccess(body.message ?? 'Top-up credited.');
      onClose(true);
    },
  );
  return (
    <Dialog title="Add top-up" onClose={() => onClose(false)}>
      <SchemaForm
        label="Add top-up"
        {...form}
        formData={formData}
        onChange={setFormData}
        {...submission}
        submitLabel="Credit points"
        actions={
          <button type="button" className="button" onClick={() => onClose(false)}>
            Cancel
          </button>
        }
      />
    </Dialog>
  );
}
