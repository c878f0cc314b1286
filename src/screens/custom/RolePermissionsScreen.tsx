import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { SchemaForm, formUiSchema, type FormData } from '../../forms/index.ts';
import type { EntityDescription, ResourceDescription } from '../../generated/types.ts';
import { http } from '../../http/index.ts';
import { permissionStore } from '../../permissions/index.ts';
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
import { CopyFromRole } from './roles/CopyFromRole.tsx';
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
    queryFn: ({ signal }) =>
      http.get<{ data: PermissionSet }>(`${resource.api}/${editing}/permissions`, { signal }).then((body) => body.data),
    enabled: editing !== undefined,
  });
  const entity = resource.entity;
  if (!entity) return null;
  if (!editing) return <RoleEditor resource={resource} entity={entity} opened={{ record: {}, permissions: {} }} />;
  const reload = async (): Promise<OpenedRole> => {
    const [latestRecord, latestPermissions] = await Promise.all([
      record.refetch({ throwOnError: true }),
      permissions.refetch({ throwOnError: true }),
    ]);
    return { record: latestRecord.data!, permissions: latestPermissions.data! };
  };
  return (
    <QueryState query={[record, permissions]} what="the role">
      {record.data && permissions.data && (
        <RoleEditor
          key={editing}
          resource={resource}
          entity={entity}
          id={editing}
          opened={{ record: record.data, permissions: permissions.data }}
          reload={reload}
        />
      )}
    </QueryState>
  );
}

/** A role as read: its record (whose version its permission set shares) and its permission set. */
interface OpenedRole {
  record: Row;
  permissions: PermissionSet;
}

interface RoleEditorProps {
  resource: ResourceDescription;
  entity: EntityDescription;
  id?: string;
  /** The role as first loaded; later reads change the editor only through Reload. */
  opened: OpenedRole;
  reload?: () => Promise<OpenedRole>;
}

type Saved = { data: { id: number | string; version: number }; message?: string };

function RoleEditor({ resource, entity, id, opened, reload }: RoleEditorProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const areas = useMemo(matrixAreas, []);
  const roleOf = (record: Row) => (id ? recordFormData(record, entity.updateSchema, entity) : {});
  const [initialRole, setInitialRole] = useState<FormData>(() => roleOf(opened.record));
  const [initialPermissions, setInitialPermissions] = useState<PermissionSet>(opened.permissions);
  const [role, setRole] = useState<FormData>(initialRole);
  const [permissions, setPermissions] = useState<PermissionSet>(initialPermissions);
  const stale = useStaleRecord(Number(opened.record.version));
  const dirty =
    JSON.stringify(role) !== JSON.stringify(initialRole) ||
    JSON.stringify(permissions) !== JSON.stringify(initialPermissions);
  const { allowLeaving, prompt } = useUnsavedChangesPrompt(dirty);
  const uiSchema = useMemo(() => formUiSchema(entity.fields, resource.uiSchema), [entity, resource.uiSchema]);

  const submission = useFormSubmission(
    async (data) => {
      stale.saving();
      const saved = id
        ? await http.putRecord<Saved>(`${resource.api}/${id}`, data, { ifMatch: stale.version })
        : await http.post<Saved>(resource.api, data);
      await http.putRecord(
        `${resource.api}/${saved.data.id}/permissions`,
        { permissions },
        { ifMatch: saved.data.version },
      );
      return saved;
    },
    (saved) => {
      toastSuccess(saved.message ?? `Role ${id ? 'updated' : 'created'}.`);
      // If this is the signed-in user's own role, the sidebar and guards follow at once, with no flicker.
      permissionStore.refresh();
      void queryClient.invalidateQueries({ queryKey: ['resource', resource.api] });
      allowLeaving();
      if (resource.routes.view) navigate(resource.routes.view);
    },
    stale.saveFailed,
  );

  /** The latest role and permission set with the user's changes on top, saying which parts the other change touched. */
  const reloadRole = () =>
    stale.reload(async () => {
      if (!reload) return undefined;
      const latest = await reload();
      const nextRole = roleOf(latest.record);
      const rebased = rebaseFormData(entity, initialRole, role, nextRole);
      const same = (a: PermissionSet, b: PermissionSet) =>
        JSON.stringify(sortedSet(a)) === JSON.stringify(sortedSet(b));
      if (!same(initialPermissions, latest.permissions)) {
        rebased.changed.push('Permissions');
        if (same(permissions, initialPermissions)) setPermissions(latest.permissions);
        else if (!same(permissions, latest.permissions)) rebased.keptTyped.push('Permissions');
      }
      setInitialRole(nextRole);
      setInitialPermissions(latest.permissions);
      setRole(rebased.data);
      return { version: Number(latest.record.version), changed: rebased.changed, keptTyped: rebased.keptTyped };
    });

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
        {...submission}
        submitLabel={id ? 'Save role' : 'Create role'}
        notice={
          stale.notice && (
            <StaleRecordNotice
              what="role"
              state={stale.notice}
              reloading={stale.reloading}
              onReload={() => void reloadRole()}
            />
          )
        }
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
          <PermissionMatrix
            areas={areas}
            value={permissions}
            onChange={setPermissions}
            disabled={submission.saving}
            tools={(apply) => (
              <CopyFromRole api={resource.api} editing={id} disabled={submission.saving} onCopy={apply} />
            )}
          />
        </fieldset>
      </SchemaForm>
      {prompt}
    </section>
  );
}

/** A permission set in one order, so that two reads of the same set compare equal. */
function sortedSet(set: PermissionSet): Array<[string, string[]]> {
  return Object.entries(set)
    .map(([module, actions]): [string, string[]] => [module, [...actions].sort()])
    .filter(([, actions]) => actions.length > 0)
    .sort(([a], [b]) => a.localeCompare(b));
}
