import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { http } from '../../../http/index.ts';
import type { PermissionSet } from './permissionMatrix.ts';

export interface CopyFromRoleProps {
  /** The roles' API: the list of roles and each role's permission set, read with the editor's own access. */
  api: string;
  /** The role being edited, left out of the choice. */
  editing?: string;
  disabled: boolean;
  onCopy: (value: PermissionSet, note: string) => void;
}

interface RoleChoice {
  id: number | string;
  name: string;
}

/** The most roles offered: the API's page size limit. */
const ROLES_OFFERED = 100;

/** "Copy from role…": another role's grants replace the ticked boxes; nothing is saved until the role is. */
export function CopyFromRole({ api, editing, disabled, onCopy }: CopyFromRoleProps) {
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState('');
  const [copying, setCopying] = useState(false);
  const selectId = useId();
  const roles = useQuery({
    queryKey: ['resource', api, 'copy-choices'],
    queryFn: ({ signal }) =>
      http
        .get<{ data: RoleChoice[] }>(api, {
          params: { _page_size: ROLES_OFFERED, _sort: 'name', _order: 'asc' },
          signal,
        })
        .then((body) => body.data),
    enabled: open,
  });
  const choices = (roles.data ?? []).filter((role) => String(role.id) !== editing);

  const copy = async () => {
    const role = choices.find((candidate) => String(candidate.id) === chosen);
    if (!role) return;
    setCopying(true);
    try {
      const body = await http.get<{ data: PermissionSet }>(`${api}/${role.id}/permissions`);
      onCopy(body.data, `Copied the permissions of ${role.name}. Nothing is saved until you save the role.`);
      setOpen(false);
      setChosen('');
    } catch {
      // The HTTP layer has already told the user why the role could not be read; the boxes stay as they were.
    } finally {
      setCopying(false);
    }
  };

  if (!open) {
    return (
      <button type="button" className="button" disabled={disabled} onClick={() => setOpen(true)}>
        Copy from role…
      </button>
    );
  }
  return (
    <div className="permission-copy" role="group" aria-label="Copy from role">
      <label htmlFor={selectId}>Role to copy</label>
      <select
        id={selectId}
        value={chosen}
        disabled={disabled || roles.isPending}
        onChange={(event) => setChosen(event.target.value)}
      >
        <option value="">
          {roles.isPending ? 'Loading roles…' : roles.isError ? 'The roles could not be read' : 'Choose a role'}
        </option>
        {choices.map((role) => (
          <option key={role.id} value={String(role.id)}>
            {role.name}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button button--primary"
        disabled={disabled || copying || chosen === ''}
        onClick={() => void copy()}
      >
        {copying ? 'Copying…' : 'Copy'}
      </button>
      <button type="button" className="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </div>
  );
}
