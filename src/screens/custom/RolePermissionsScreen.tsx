import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { SchemaForm, formUiSchema, type FormData } from '../../forms/index.ts';
import type { EntityDescription, ResourceDescription } from '../../generated/types.ts';
import { http } from '../../http/index.ts';
import { requestPermissionsReload } from '../../permissions/index.ts';
import { toastSuccess } from '../../shell/index.ts';
import type { ScreenProps } from '../index.ts';
import { QueryState } from '../shared/QueryState.tsx';
import { recordFormData } from '../shared/recordFormData.ts';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useFormSubmission } from '../shared/useFormSubmission.ts';
import { useRecord } from '../shared/useRecord.ts';
import { useUnsavedChangesPrompt } from '../shared/useUnsavedChangesPrompt.tsx';
import { PermissionMatrix } from './roles/PermissionMatrix.tsx';
import { matrixAreas, type PermissionSet } from './roles/permissionMatrix.ts';
import '../screens.css';
import './custom.css';

/** Add and edit of a role: its name and description, and its permission set as a module × action matrix. */
export default function RolePermissionsScreen({ resource, route }: ScreenProps) {
  const { id } = useParams();
  const editing = route.action === 'edit' ? id : undefined;
  const record = useRecord(resource.api, editing);
  const permissions = useQuery({
    queryKey: ['resource', resource.api, 'permissions', editing],
    queryFn: ({ signal }) => http.get<{ data: PermissionSet }>(`${resource.api}/${editing}/permissions`, { signal }).then((body) => body.data),
    enabled: editing !== undefined,
  });
  const entity = resource.entity;
  if (!entity) return null;
  if (!editing) return <RoleEditor resource={resource} entity={entity} initialRole={{}} initialPermissions={{}} />;
  return (
    <QueryState
      isPending={record.isPending || permissions.isPending}
      isError={record.isError || permissions.isError}
      what="the role"
      onRetry={() => void Promise.all([record.refetch(), permissions.refetch()])}
    >
      {record.data && permissions.data && (
        <RoleEditor key={editing} resource={resource} entity={entity} id={editing} initialRole={recordFormData(record.data, entity.updateSchema, entity)} initialPermissions={permissions.data} />
      )}
    </QueryState>
  );
}

interface RoleEditorProps {
  resource: ResourceDescription;
  entity: EntityDescription;
  id?: string;
  initialRole: FormData;
  initialPermissions: PermissionSet;
}

function RoleEditor({ resource, entity, id, initialRole, initialPermissions }: RoleEditorProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const areas = useMemo(matrixAreas, []);
  const [role, setRole] = useState<FormData>(initialRole);
  const [permissions, setPermissions] = useState<PermissionSet>(initialPermissions);
  const dirty = JSON.stringify(role) !== JSON.stringify(initialRole) || JSON.stringify(permissions) !== JSON.stringify(initialPermissions);
  const { allowLeaving, prompt } = useUnsavedChangesPrompt(dirty);
  const uiSchema = useMemo(() => formUiSchema(entity.fields, resource.uiSchema), [entity, resource.uiSchema]);

  const { submit, saving, serverErrors } = useFormSubmission(
    async (data) => {
      const saved = id ? await http.put<{ data: { id: number | string }; message?: string }>(`${resource.api}/${id}`, data) : await http.post<{ data: { id: number | string }; message?: string }>(resource.api, data);
      await http.put(`${resource.api}/${id ?? saved.data.id}/permissions`, { permissions });
      return saved;
    },
    (saved) => {
      toastSuccess(saved.message ?? `Role ${id ? 'updated' : 'created'}.`);
      // If this is the signed-in user's own role, the sidebar and guards must follow at once (PERM-06).
      void requestPermissionsReload();
      void queryClient.invalidateQueries({ queryKey: ['resource', resource.api] });
      allowLeaving();
      if (resource.routes.view) navigate(resource.routes.view);
    },
  );

  const title = id ? 'Edit role' : 'Add role';
  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading>{title}</ScreenHeading>
      <SchemaForm
        label={title}
        schema={id ? entity.updateSchema : entity.createSchema}
        validate={id ? entity.validateUpdate : entity.validateCreate}
        uiSchema={uiSchema}
        formData={role}
        onChange={setRole}
        onSubmit={submit}
        serverErrors={serverErrors}
        saving={saving}
        submitLabel={id ? 'Save role' : 'Create role'}
        actions={
          resource.routes.view && (
            <Link className="button" to={resource.routes.view}>
              Back to roles
            </Link>
          )
        }
      >
        <fieldset className="permission-fieldset">
          <legend>Permissions</legend>
          <PermissionMatrix areas={areas} value={permissions} onChange={setPermissions} disabled={saving} />
        </fieldset>
      </SchemaForm>
      {prompt}
    </section>
  );
}
