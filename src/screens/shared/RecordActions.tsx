import { Link, generatePath } from 'react-router-dom';
import type { ResourceDescription } from '../../generated/types.ts';
import { useResourceAccess } from './useResourceAccess.ts';

export interface RecordActionsProps {
  resource: ResourceDescription;
  id: string;
}

/** The actions of one record's page: Edit (with the edit permission) and the way back to the list. */
export function RecordActions({ resource, id }: RecordActionsProps) {
  const access = useResourceAccess(resource);
  const editPath = access.edit && resource.routes.edit ? generatePath(resource.routes.edit, { id }) : null;
  return (
    <>
      {editPath && (
        <Link className="button button--primary" to={editPath}>
          Edit
        </Link>
      )}
      {resource.routes.view && (
        <Link className="button" to={resource.routes.view}>
          Back to {resource.label.toLowerCase()}
        </Link>
      )}
    </>
  );
}
