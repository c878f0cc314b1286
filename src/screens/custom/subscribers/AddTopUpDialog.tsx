import { useState } from 'react';
import { SchemaForm, type FormData } from '../../../forms/index.ts';
import type { JsonSchema, ResourceDescription } from '../../../generated/types.ts';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { Dialog } from '../../shared/Dialog.tsx';
import { ruleValidator } from '../../shared/ruleValidator.ts';
import { useFormSubmission } from '../../shared/useFormSubmission.ts';

const SCHEMA: JsonSchema = {
  type: 'object',
  required: ['points', 'amount'],
  properties: {
    points: { title: 'Points', type: 'integer', minimum: 1 },
    amount: { title: 'Amount paid', type: 'number', minimum: 0 },
    note: { title: 'Note', type: 'string', maxLength: 200 },
  },
};
const validate = ruleValidator(SCHEMA);
const UI_SCHEMA = { amount: { 'ui:widget': 'money' }, note: { 'ui:widget': 'textarea' } };

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
  const [formData, setFormData] = useState<FormData>({});
  const { submit, saving, serverErrors } = useFormSubmission(
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
        schema={SCHEMA}
        validate={validate}
        uiSchema={UI_SCHEMA}
        formData={formData}
        onChange={setFormData}
        onSubmit={(data) => !saving && submit(data)}
        serverErrors={serverErrors}
        saving={saving}
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
