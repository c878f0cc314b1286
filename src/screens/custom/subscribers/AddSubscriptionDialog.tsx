import { useState } from 'react';
import { SchemaForm, type FormData } from '../../../forms/index.ts';
import type { ResourceDescription } from '../../../generated/types.ts';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { Dialog } from '../../shared/Dialog.tsx';
import { actionForm } from '../../shared/actionForm.ts';
import { useFormSubmission } from '../../shared/useFormSubmission.ts';


export interface AddSubscriptionDialogProps {
  resource: ResourceDescription;
  subscriberId: string;
  /** `changed`: a subscription was added. */
  onClose: (changed: boolean) => void;
}

/** ADD_SUBSCRIPTION: a plan (from the plans' options) and its start date. */
export function AddSubscriptionDialog({ resource, subscriberId, onClose }: AddSubscriptionDialogProps) {
  const form = actionForm(resource, 'ADD_SUBSCRIPTION');
  const plansApi = resource.entity?.fields.find((field) => field.name === 'plan_id')?.relation?.api ?? 'plans';
  const [formData, setFormData] = useState<FormData>({ starts_on: new Date().toISOString().slice(0, 10) });
  const submission = useFormSubmission(
    (data) => http.post<{ message?: string }>(`${resource.api}/${subscriberId}/subscriptions`, data),
    (body) => {
      toastSuccess(body.message ?? 'Subscription added.');
      onClose(true);
    },
  );
  return (
    <Dialog title="Add subscription" onClose={() => onClose(false)}>
      <SchemaForm
        label="Add subscription"
        {...form}
        uiSchema={{ ...form.uiSchema, plan_id: { 'ui:widget': 'relation', 'ui:options': { api: plansApi } } }}
        formData={formData}
        onChange={setFormData}
        {...submission}
        submitLabel="Add subscription"
        actions={
          <button type="button" className="button" onClick={() => onClose(false)}>
            Cancel
          </button>
        }
      />
    </Dialog>
  );
}
