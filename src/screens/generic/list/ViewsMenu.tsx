import { useId, useState, type FormEvent } from 'react';
import { SAVED_VIEW_LIMITS } from '../../../../contract/savedViews.ts';
import { Dropdown } from '../../../header/Dropdown.tsx';
import { refusalOf, type ListViews, type SavedView, type UseListViewsResult } from './useListViews.ts';
import { BusyButton } from '../../shared/BusyButton.tsx';

export interface ViewsMenuProps {
  data: ListViews;
  actions: UseListViewsResult;
  /** The view the list shows now, wherever it is among the pages of views. */
  current: SavedView | null;
  /** The list's query now: what "Save current as…" keeps. */
  currentQuery: Record<string, string>;
  onOpen: (view: SavedView) => void;
}

/**
 * The list's saved views: open one, save the current list as one, mark the default, rename, share, delete own ones.
 * The views come a page at a time, by name; a user who may open more than a page holds (views shared before the limits
 * of docs/api.md) gets "Show more" at the end of the list.
 */
export function ViewsMenu({ data, actions, current, currentQuery, onOpen }: ViewsMenuProps) {
  const defaultId = data.preferences.default_view_id;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = actions.views;
  return (
    <Dropdown
      label={current ? `View: ${current.name}` : 'Views'}
      className="list-menu"
      trigger={<span>{current ? `View: ${current.name}` : 'Views'}</span>}
    >
      {(close) => (
        <div className="list-menu-panel">
          {data.views.length === 0 ? (
            <p className="list-menu-note">No saved views yet.</p>
          ) : (
            <ul className="views-list" aria-label="Saved views">
              {data.views.map((view) => (
                <ViewRow
                  key={view.id}
                  view={view}
                  data={data}
                  actions={actions}
                  isDefault={view.id === defaultId}
                  isCurrent={view.id === current?.id}
                  onOpen={() => {
                    onOpen(view);
                    close();
                  }}
                />
              ))}
            </ul>
          )}
          {hasNextPage && (
            <BusyButton className="link-button" busy={isFetchingNextPage} onClick={() => void fetchNextPage()}>
              Show more ({data.total - data.views.length} more)
            </BusyButton>
          )}
          {current?.mine && (
            <button
              type="button"
              className="button"
              onClick={() => actions.update.mutate({ view: current, change: { query: currentQuery } })}
            >
              Update “{current.name}” to this list
            </button>
          )}
          <SaveViewForm
            data={data}
            onSave={(view) =>
              actions.save.mutateAsync({ ...view, query: currentQuery }).then((saved) => onOpen(saved.data))
            }
          />
        </div>
      )}
    </Dropdown>
  );
}

function ViewRow({
  view,
  data,
  actions,
  isDefault,
  isCurrent,
  onOpen,
}: {
  view: SavedView;
  data: ListViews;
  actions: UseListViewsResult;
  isDefault: boolean;
  isCurrent: boolean;
  onOpen: () => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const nameId = useId();
  const rename = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    if (name) actions.update.mutate({ view, change: { name } }, { onSuccess: () => setRenaming(false) });
  };
  return (
    <li className="views-item">
      <button type="button" className="link-button" aria-current={isCurrent || undefined} onClick={onOpen}>
        {view.name}
      </button>
      {isDefault && <span className="badge">Default</span>}
      <span className="list-menu-note">
        {view.mine
          ? view.shared_role_name
            ? `Shared with ${view.shared_role_name}`
            : 'Private'
          : `By ${view.owner_name}`}
      </span>
      <span className="views-actions">
        <button
          type="button"
          className="link-button"
          onClick={() => actions.setPreferences.mutate({ default_view_id: isDefault ? null : view.id })}
        >
          {isDefault ? 'Unset default' : 'Make default'}
        </button>
        {view.mine && (
          <>
            <button
              type="button"
              className="link-button"
              onClick={() => setRenaming((open) => !open)}
              aria-expanded={renaming}
            >
              Rename
            </button>
            {data.share_roles.length > 0 && (
              <label className="views-share">
                <span>Share with</span>
                <select
                  value={view.shared_role_id ?? ''}
                  aria-label={`Share ${view.name} with`}
                  onChange={(event) =>
                    actions.update.mutate({
                      view,
                      change: { shared_role_id: sharedRoleOf(event.target.value) },
                    })
                  }
                >
                  {shareRoleOptions(data.share_roles)}
                </select>
              </label>
            )}
            {deleting ? (
              <span role="group" aria-label={`Delete ${view.name}?`}>
                <button
                  type="button"
                  className="link-button link-button--danger"
                  onClick={() => actions.remove.mutate(view)}
                >
                  Delete “{view.name}”
                </button>
                <button type="button" className="link-button" onClick={() => setDeleting(false)}>
                  Keep it
                </button>
              </span>
            ) : (
              <button type="button" className="link-button" onClick={() => setDeleting(true)}>
                Delete
              </button>
            )}
          </>
        )}
      </span>
      {renaming && (
        <form className="views-form" onSubmit={rename}>
          <label htmlFor={nameId}>New name</label>
          <input id={nameId} name="name" defaultValue={view.name} maxLength={SAVED_VIEW_LIMITS.nameLength} required />
          <button type="submit" className="button" disabled={actions.update.isPending}>
            Rename
          </button>
        </form>
      )}
    </li>
  );
}

function SaveViewForm({
  data,
  onSave,
}: {
  data: ListViews;
  onSave: (view: { name: string; shared_role_id: number | null }) => Promise<unknown>;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [role, setRole] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError('Give the view a name.');
    setError(null);
    // What was typed stays when the save fails, with why the server refused it (a limit reached) where it was typed.
    onSave({ name: name.trim(), shared_role_id: sharedRoleOf(role) }).then(
      () => setName(''),
      (failure: unknown) => setError(refusalOf(failure)),
    );
  };
  return (
    <form className="views-form" onSubmit={submit} noValidate>
      <label htmlFor={`${id}-name`}>Save current as…</label>
      <input
        id={`${id}-name`}
        value={name}
        maxLength={SAVED_VIEW_LIMITS.nameLength}
        onChange={(event) => setName(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <span id={`${id}-error`} className="views-error">
          {error}
        </span>
      )}
      {data.share_roles.length > 0 && (
        <>
          <label htmlFor={`${id}-role`}>Share with</label>
          <select id={`${id}-role`} value={role} onChange={(event) => setRole(event.target.value)}>
            {shareRoleOptions(data.share_roles)}
          </select>
        </>
      )}
      <button type="submit" className="button button--primary">
        Save view
      </button>
    </form>
  );
}

/** The choices of whom a view is shared with: nobody (the value '') or one role. */
function shareRoleOptions(roles: ListViews['share_roles']) {
  return (
    <>
      <option value="">Nobody (private)</option>
      {roles.map((role) => (
        <option key={role.id} value={role.id}>
          {role.name}
        </option>
      ))}
    </>
  );
}

/** A share choice as the API takes it: the role's id, or null for nobody. */
function sharedRoleOf(value: string): number | null {
  return value === '' ? null : Number(value);
}
