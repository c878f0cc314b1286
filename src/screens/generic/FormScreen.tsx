import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { SchemaForm, formUiSchema, type FormData } from '../../forms/index.ts';
import type { EntityDescription, ResourceDescription } from '../../generated/types.ts';
import { http } from '../../http/index.ts';
import { toastSuccess } from '../../shell/index.ts';
import type { ScreenProps } from '../index.ts';
import { QueryState } from '../shared/QueryState.tsx';
import { recordFormData } from '../shared/recordFormData.ts';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useFormSubmission } from '../shared/useFormSubmission.ts';
import { useRecord } from '../shared/useRecord.ts';
import { useUnsavedChangesPrompt } from '../shared/useUnsavedChangesPrompt.tsx';
import '../screens.css';

/** Add and edit of any resource with an entity, as a schema form from the manifest. */
export default function FormScreen({ resource, route }: ScreenProps) {
  const { id } = useParams();
  const editing = route.action === 'edit';
  const record = useRecord(resource.api, editing ? id : undefined);
  const entity = resource.entity;
  if (!entity) {
    return (
      <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
        <ScreenHeading>{resource.label}</ScreenHeading>
        <p>This module has no form.</p>
      </section>
    );
  }
  if (!editing) return <ResourceForm resource={resource} entity={entity} initial={{}} />;
  return (
    <QueryState isPending={record.isPending} isError={record.isError} what={resource.singular.toLowerCase()} onRetry={() => record.refetch()}>
      {record.data && <ResourceForm key={id} resource={resource} entity={entity} id={id} initial={recordFormData(record.data, entity.updateSchema, entity)} />}
    </QueryState>
  );
}

interface ResourceFormProps {
  resource: ResourceDescription;
  entity: EntityDescription;
  /** The record being edited; absent when adding. */
  id?: string;
  initial: FormData;
}

function ResourceForm({ resource, entity, id, initial }: ResourceFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [formData, setFormData] = useState<FormData>(initial);
  const dirty = useMemo(() => JSON.stringify(formData) !== JSON.stringify(initial), [formData, initial]);
  const { allowLeaving, prompt } = useUnsavedChangesPrompt(dirty);
  const listPath = resource.routes.view;
  const schema = id ? entity.updateSchema : entity.createSchema;
  const validate = id ? entity.validateUpdate : entity.validateCreate;
  const uiSchema = useMemo(() => formUiSchema(entity.fields, resource.uiSchema), [entity, resource.uiSchema]);

  const { submit, saving, serverErrors } = useFormSubmission(
    (data) => (id ? http.put<{ message?: string }>(`${resource.api}/${id}`, data) : http.post<{ message?: string }>(resource.api, data)),
    (body) => {
      toastSuccess(body.message ?? `${resource.singular} ${id ? 'updated' : 'created'}.`);
      void queryClient.invalidateQueries({ queryKey: ['resource', resource.api] });
      allowLeaving();
      if (listPath) navigate(listPath);
    },
  );

  const title = id ? `Edit ${resource.singular.toLowerCase()}` : `Add ${resource.singular.toLowerCase()}`;
  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading>{title}</ScreenHeading>
      <SchemaForm
        label={title}
        schema={schema}
        validate={validate}
        uiSchema={uiSchema}
        formData={formData}
        onChange={setFormData}
        onSubmit={submit}
        serverErrors={serverErrors}
        saving={saving}
        submitLabel={id ? 'Save changes' : `Create ${resource.singular.toLowerCase()}`}
        actions={
          listPath && (
            <Link className="button" to={listPath}>
              Back to {resource.label.toLowerCase()}
            </Link>
          )
        }
      />
      {prompt}
    </section>
  );
}
