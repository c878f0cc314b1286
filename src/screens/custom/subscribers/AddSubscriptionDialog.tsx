import type { ResourceDescription } from '../../../generated/types.ts';
import { http } from '../../../http/index.ts';
import { ActionFormDialog } from '../../shared/ActionFormDialog.tsx';
import { actionForm } from '../../shared/actionForm.ts';

export interface AddSubscriptionDialogProps {
  resource: ResourceDescription;
  subscriberId: string;
  /** `changed`: a subscription was added. */
  onClose: (changed: boolean) => void;
}

/** ADD_SUBSCRIPTION: a plan (from the plans' options) and its start date, today unless changed. */
export function AddSubscriptionDialog({ resource, subscriberId, onClose }: AddSubscriptionDialogProps) {
  const form = actionForm(resource, 'ADD_SUBSCRIPTION');
  const plansApi = resource.entity?.fields.find((field) => field.name === 'plan_id')?.relation?.api ?? 'plans';
  return (
    <ActionFormDialog
      title="Add subscription"
      form={{ ...form, uiSchema: { ...form.uiSchema, plan_id: { 'ui:widget': 'relation', 'ui:options': { api: plansApi } } } }}
      initialData={{ starts_on: new Date().toISOString().slice(0, 10) }}
      submitLabel="Add subscription"
      send={(data) => http.post<{ message?: string }>(`${resource.api}/${subscriberId}/subscriptions`, data)}
      doneMessage="Subscription added."
      onClose={onClose}
    />
  );
}
