import { useState } from 'react';
import { SchemaForm, type FormData } from '../../forms/index.ts';
import { http } from '../../http/index.ts';
import { toastSuccess } from '../../shell/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { actionForm } from '../shared/actionForm.ts';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useFormSubmission } from '../shared/useFormSubmission.ts';
import '../screens.css';

/** The signed-in user changes their password; the confirmation must match (compareTo). */
export default function ChangePasswordScreen({ resource }: ScreenProps) {
  const form = actionForm(resource, 'edit');
  const [formData, setFormData] = useState<FormData>({});
  const [formKey, setFormKey] = useState(0);
  const submission = useFormSubmission(
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
          {...form}
          formData={formData}
          onChange={setFormData}
          {...submission}
          submitLabel="Change password"
        />
      </div>
    </section>
  );
}
