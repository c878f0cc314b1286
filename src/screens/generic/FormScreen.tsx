import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { SchemaForm, formUiSchema, type FormData } from '../../forms/index.ts';
import type { EntityDescription, ResourceDescription } from '../../generated/types.ts';
import { http } from '../../http/index.ts';
import { toastSuccess } from '../../shell/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import type { Row } from '../shared/formatValue.ts';
import { QueryState } from '../shared/QueryState.tsx';
import { rebaseFormData, recordFormData } from '../shared/recordFormData.ts';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { StaleRecordNotice } from '../shared/StaleRecordNotice.tsx';
import { useFormSubmission } from '../shared/useFormSubmission.ts';
import { useRecord } from '../shared/useRecord.ts';
import { useStaleRecord } from '../shared/useStaleRecord.ts';
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
  if (!editing) return <ResourceForm resource={resource} entity={entity} />;
  const reload = async () => (await record.refetch({ throwOnError: true })).data;
  return (
    <QueryState query={record} what={resource.singular.toLowerCase()}>
      {record.data && (
        <ResourceForm key={id} resource={resource} entity={entity} editing={{ id: id!, record: record.data, reload }} />
      )}
    </QueryState>
  );
}

interface EditedRecord {
  id: string;
  /** The record as first loaded; later reads change the form only through Reload. */
  record: Row;
  /** Reads the record again. */
  reload: () => Promise<Row | undefined>;
}

interface ResourceFormProps {
  resource: ResourceDescription;
  entity: EntityDescription;
  /** Absent when adding. */
  editing?: EditedRecord;
}

function ResourceForm({ resource, entity, editing }: ResourceFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = editing?.id;
  const formDataOf = (record: Row) => recordFormData(record, entity.updateSchema, entity);
  // The fields as opened (or as the last Reload read them): what counts as unsaved, and what another change touched.
  const [initial, setInitial] = useState<FormData>(() => (editing ? formDataOf(editing.record) : {}));
  const [formData, setFormData] = useState<FormData>(initial);
  const stale = useStaleRecord(Number(editing?.record.version));
  const dirty = useMemo(() => JSON.stringify(formData) !== JSON.stringify(initial), [formData, initial]);
  const { allowLeaving, prompt } = useUnsavedChangesPrompt(dirty);
  const listPath = resource.routes.view;
  const schema = id ? entity.updateSchema : entity.createSchema;
  const validate = id ? entity.validateUpdate : entity.validateCreate;
  const uiSchema = useMemo(() => formUiSchema(entity.fields, resource.uiSchema), [entity, resource.uiSchema]);

  const submission = useFormSubmission(
    (data) => {
      stale.saving();
      return id
        ? http.putRecord<{ message?: string }>(`${resource.api}/${id}`, data, { ifMatch: stale.version })
        : http.post<{ message?: string }>(resource.api, data);
    },
    (body) => {
      toastSuccess(body.message ?? `${resource.singular} ${id ? 'updated' : 'created'}.`);
      void queryClient.invalidateQueries({ queryKey: ['resource', resource.api] });
      allowLeaving();
      if (listPath) navigate(listPath);
    },
    stale.saveFailed,
  );

  /** The latest version with what the user typed on top, saying which fields the other change touched. */
  const reload = () =>
    stale.reload(async () => {
      const latest = await editing?.reload();
      if (!latest) return undefined;
      const next = formDataOf(latest);
      const rebased = rebaseFormData(entity, initial, formData, next);
      setInitial(next);
      setFormData(rebased.data);
      return { version: Number(latest.version), changed: rebased.changed, keptTyped: rebased.keptTyped };
    });

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
        {...submission}
        submitLabel={id ? 'Save changes' : `Create ${resource.singular.toLowerCase()}`}
        notice={
          stale.notice && (
            <StaleRecordNotice
              what={resource.singular.toLowerCase()}
              state={stale.notice}
              reloading={stale.reloading}
              onReload={() => void reload()}
            />
          )
        }
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
