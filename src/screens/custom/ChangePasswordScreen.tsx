import { useState } from 'react';
import { SchemaForm, type FormData } from '../../forms/index.ts';
import type { JsonSchema } from '../../generated/types.ts';
import { http } from '../../http/index.ts';
import { toastSuccess } from '../../shell/index.ts';
import type { ScreenProps } from '../index.ts';
import { ruleValidator } from '../shared/ruleValidator.ts';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useFormSubmission } from '../shared/useFormSubmission.ts';
import '../screens.css';

const CHANGE_PASSWORD_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['current_password', 'password', 'confirm_password'],
  properties: {
    current_password: { title: 'Current password', type: 'string', maxLength: 128 },
    password: { title: 'New password', type: 'string', format: 'password', maxLength: 128, description: 'At least 8 characters with a letter, a digit and a special character.' },
    confirm_password: { title: 'Confirm new password', type: 'string', maxLength: 128, compareTo: 'password' },
  },
};
const validatePasswords = ruleValidator(CHANGE_PASSWORD_SCHEMA);
const UI_SCHEMA = {
  current_password: { 'ui:widget': 'password', 'ui:autocomplete': 'current-password' },
  password: { 'ui:widget': 'password', 'ui:autocomplete': 'new-password' },
  confirm_password: { 'ui:widget': 'password', 'ui:autocomplete': 'new-password' },
};

/** The signed-in user changes their password; the confirmation must match (compareTo). */
export default function ChangePasswordScreen(_props: ScreenProps) {
  const [formData, setFormData] = useState<FormData>({});
  const [formKey, setFormKey] = useState(0);
  const { submit, saving, serverErrors } = useFormSubmission(
    (data) => http.post<{ message?: string }>('user/change-password', data),
    (body) => {
      toastSuccess(body.message ?? 'Password changed.');
      setFormData({});
      setFormKey((key) => key + 1);
    },
  );
  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading>Change password</ScreenHeading>
      <div className="panel">
        <SchemaForm
          key={formKey}
          label="Change password"
          schema={CHANGE_PASSWORD_SCHEMA}
          validate={validatePasswords}
          uiSchema={UI_SCHEMA}
          formData={formData}
          onChange={setFormData}
          onSubmit={submit}
          serverErrors={serverErrors}
          saving={saving}
          submitLabel="Change password"
        />
      </div>
    </section>
  );
}
