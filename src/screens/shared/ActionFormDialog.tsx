import { useState } from 'react';
import { SchemaForm, type FormData } from '../../forms/index.ts';
import type { ActionFormDescription } from '../../generated/types.ts';
import { toastSuccess } from '../../shell/index.ts';
import { Dialog } from './Dialog.tsx';
import { useFormSubmission } from './useFormSubmission.ts';

export interface ActionFormDialogProps {
  /** The dialog's title and its form's accessible name. */
  title: string;
  /** The manifest's form of the action (actionForm), its uiSchema as the screen may have extended it. */
  form: ActionFormDescription;
  initialData?: FormData;
  submitLabel: string;
  send: (data: FormData) => Promise<{ message?: string }>;
  /** Shown when the server's answer carries no message of its own. */
  doneMessage: string;
  /** `changed`: the action was carried out. */
  onClose: (changed: boolean) => void;
}

/** An action's form in a dialog: sent once however often it is submitted, then a success toast and closed. */
export function ActionFormDialog({
  title,
  form,
  initialData = {},
  submitLabel,
  send,
  doneMessage,
  onClose,
}: ActionFormDialogProps) {
  const [formData, setFormData] = useState<FormData>(initialData);
  const submission = useFormSubmission(send, (body) => {
    toastSuccess(body.message ?? doneMessage);
    onClose(true);
  });
  return (
    <Dialog title={title} onClose={() => onClose(false)}>
      <SchemaForm
        label={title}
        {...form}
        formData={formData}
        onChange={setFormData}
        {...submission}
        submitLabel={submitLabel}
        actions={
          <button type="button" className="button" onClick={() => onClose(false)}>
            Cancel
          </button>
        }
      />
    </Dialog>
  );
}
