import { Link } from 'react-router-dom';
import { Dropdown } from '../../../header/Dropdown.tsx';
import type { ResourceDescription } from '../../../generated/types.ts';
import type { ResourceAccess } from '../../shared/useResourceAccess.ts';
import { BusyButton } from '../../shared/BusyButton.tsx';

export interface ListHeadingActionsProps {
  resource: ResourceDescription;
  access: ResourceAccess;
  /** The trash's path, where deleted records go; offered only to who may delete (restoring needs it too). */
  trash: string | null;
  exporting: boolean;
  onExport: () => void;
  refreshing: boolean;
  onRefresh: () => void;
}

/** Beside a list's title: its main action, Refresh, and the rarer ones (import, CSV, trash) in a "More" menu. */
export function ListHeadingActions({
  resource,
  access,
  trash: trashPath,
  exporting,
  onExport,
  refreshing,
  onRefresh,
}: ListHeadingActionsProps) {
  const importPath = access.import ? resource.routes.import : undefined;
  const trash = access.delete ? trashPath : null;
  const more = importPath || access.download || trash;
  return (
    <>
      {access.add && resource.routes.add && (
        <Link className="button button--primary" to={resource.routes.add}>
          Add {resource.singular}
        </Link>
      )}
      <BusyButton
        className="button button--icon"
        aria-label="Refresh"
        title="Refresh"
        onClick={onRefresh}
        busy={refreshing}
      >
        <svg
          aria-hidden="true"
          width="18"
          height="18"
          viewBox="0 0 18 18"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.7"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M15 9a6 6 0 1 1-1.76-4.24M15 3v3.5h-3.5" />
        </svg>
      </BusyButton>
      {more && (
        <Dropdown label="More actions" className="list-more" trigger={<span>More</span>}>
          {(close) => (
            <ul className="menu-list">
              {importPath && (
                <li>
                  <Link className="menu-item" to={importPath} onClick={close}>
                    Import
                  </Link>
                </li>
              )}
              {access.download && (
                <li>
                  <BusyButton
                    className="menu-item"
                    busy={exporting}
                    busyLabel="Downloading…"
                    onClick={() => {
                      onExport();
                      close();
                    }}
                  >
                    Download CSV
                  </BusyButton>
                </li>
              )}
              {trash && (
                <li>
                  <Link className="menu-item" to={trash} onClick={close}>
                    Trash
                  </Link>
                </li>
              )}
            </ul>
          )}
        </Dropdown>
      )}
    </>
  );
}
