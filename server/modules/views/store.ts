import type { Queryable } from '../../db/database.ts';
import type { ExpectedVersion } from '../../http/recordVersion.ts';
import type { ViewQuery } from './viewQuery.ts';

export type StoredView = {
  id: number;
  name: string;
  owner_id: number;
  owner_name: string;
  shared_role_id: number | null;
  shared_role_name: string | null;
  query: ViewQuery;
  version: number;
  updated_at: string;
};

export type StoredPreferences = {
  columns: string[] | null;
  default_view_id: number | null;
};

const NO_PREFERENCES: StoredPreferences = { columns: null, default_view_id: null };

export type ShareRole = { id: number; name: string };

export interface ListOpening {
  /** A page of them, by name. */
  views: StoredView[];
  /** Every view the viewer may open. */
  total: number;
  preferences: StoredPreferences;
  shareRoles: ShareRole[];
}

/** Who asks: a view is theirs, or shared with their role. */
export interface Viewer {
  id: number;
  roleId: number | null;
}

/** Where a view counts against a limit (contract/savedViews.ts): its owner's private views, or a role's shared ones. */
export type ViewPlace = { private: number } | { sharedWith: number };

export interface ViewPage {
  page: number;
  pageSize: number;
}

export interface ViewWrite {
  name: string;
  query: ViewQuery;
  shared_role_id: number | null;
}

const VIEW_FIELDS = `v.id, v.name, v.owner_id, trim(concat_ws(' ', u.first_name, u.last_name)) AS owner_name, v.shared_role_id,
  r.name AS shared_role_name, v.query, v.version`;
const VIEW_COLUMNS = `${VIEW_FIELDS}, v.updated_at`;
/** The same columns for a JSON answer built in SQL, `updated_at` written as the driver writes timestamps (TYPE_PARSERS). */
const VIEW_JSON_COLUMNS = `${VIEW_FIELDS}, to_char(v.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;
const VIEW_FROM = 'saved_views v JOIN users u ON u.id = v.owner_id LEFT JOIN roles r ON r.id = v.shared_role_id';
const VISIBLE = '(v.owner_id = $2 OR (v.shared_role_id IS NOT NULL AND v.shared_role_id = $3))';

/** The saved views of one list and a user's settings of it (migration 013), by SQL alone. */
export class ViewStore {
  constructor(private readonly listKey: string) {}

  /**
   * What the list asks for when it opens, in one statement: a page of the views the viewer may open (their own and
   * those shared with their role, by name) and how many there are, their settings of the list (a default view they may
   * no longer open forgotten), and the roles they may share a view with (every active role for `anyRole`, else their
   * own).
   */
  async opening(db: Queryable, viewer: Viewer, anyRole: boolean, { page, pageSize }: ViewPage): Promise<ListOpening> {
    const [row] = await db.query<{
      views: StoredView[];
      total: number;
      preferences: StoredPreferences | null;
      share_roles: ShareRole[];
    }>(
      `SELECT
         (SELECT coalesce(json_agg(x ORDER BY lower(x.name), x.id), '[]') FROM (
            SELECT ${VIEW_JSON_COLUMNS} FROM ${VIEW_FROM} WHERE v.list_key = $1 AND ${VISIBLE}
             ORDER BY lower(v.name), v.id LIMIT $5 OFFSET $6) x) AS views,
         (SELECT count(*) FROM saved_views v WHERE v.list_key = $1 AND ${VISIBLE}) AS total,
         (SELECT row_to_json(p) FROM (
            SELECT columns, CASE WHEN EXISTS (SELECT 1 FROM saved_views v WHERE v.id = l.default_view_id AND v.list_key = $1 AND ${VISIBLE})
                                 THEN default_view_id END AS default_view_id
              FROM list_preferences l WHERE user_id = $2 AND list_key = $1) p) AS preferences,
         (SELECT coalesce(json_agg(r ORDER BY lower(r.name), r.id), '[]') FROM (
            SELECT id, name FROM roles WHERE CASE WHEN $4 THEN is_active ELSE id = $3 END) r) AS share_roles`,
      [this.listKey, viewer.id, viewer.roleId, anyRole, pageSize, (page - 1) * pageSize],
    );
    return {
      views: row!.views,
      total: row!.total,
      preferences: row!.preferences ?? NO_PREFERENCES,
      shareRoles: row!.share_roles,
    };
  }

  /**
   * How many views `place` holds besides `except`, counted under a lock on that place that the write's transaction
   * keeps, so that two saves at once cannot both take its last room.
   */
  async countIn(tx: Queryable, place: ViewPlace, except: number | null): Promise<number> {
    const [kind, id] =
      'private' in place ? (['private', place.private] as const) : (['shared', place.sharedWith] as const);
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`saved_views ${this.listKey} ${kind} ${id}`]);
    const [row] = await tx.query<{ count: number }>(
      `SELECT count(*) AS count FROM saved_views
        WHERE list_key = $1 AND ${kind === 'private' ? 'owner_id = $2 AND shared_role_id IS NULL' : 'shared_role_id = $2'} AND id <> $3`,
      [this.listKey, id, except ?? 0],
    );
    return row!.count;
  }

  async visibleOne(db: Queryable, viewer: Viewer, id: number): Promise<StoredView | undefined> {
    const [row] = await db.query<StoredView>(
      `SELECT ${VIEW_COLUMNS} FROM ${VIEW_FROM} WHERE v.list_key = $1 AND ${VISIBLE} AND v.id = $4`,
      [this.listKey, viewer.id, viewer.roleId, id],
    );
    return row;
  }

  async insert(tx: Queryable, ownerId: number, view: ViewWrite): Promise<number> {
    const [row] = await tx.query<{ id: number }>(
      'INSERT INTO saved_views (list_key, owner_id, name, query, shared_role_id) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [this.listKey, ownerId, view.name, JSON.stringify(view.query), view.shared_role_id],
    );
    return row!.id;
  }

  /** Changes the owner's view if it is at a version the caller read; false when it is not theirs or moved on. */
  async update(
    tx: Queryable,
    ownerId: number,
    id: number,
    view: ViewWrite,
    expected: ExpectedVersion,
  ): Promise<boolean> {
    const rows = await tx.query(
      `UPDATE saved_views SET name = $4, query = $5, shared_role_id = $6, version = version + 1, updated_at = now()
        WHERE list_key = $1 AND owner_id = $2 AND id = $3 ${expected === 'any' ? '' : 'AND version = ANY($7::int[])'} RETURNING id`,
      [
        this.listKey,
        ownerId,
        id,
        view.name,
        JSON.stringify(view.query),
        view.shared_role_id,
        ...(expected === 'any' ? [] : [expected.versions]),
      ],
    );
    return rows.length === 1;
  }

  async remove(
    tx: Queryable,
    ownerId: number,
    id: number,
    expected: ExpectedVersion,
  ): Promise<{ name: string } | undefined> {
    const [row] = await tx.query<{ name: string }>(
      `DELETE FROM saved_views WHERE list_key = $1 AND owner_id = $2 AND id = $3 ${expected === 'any' ? '' : 'AND version = ANY($4::int[])'} RETURNING name`,
      [this.listKey, ownerId, id, ...(expected === 'any' ? [] : [expected.versions])],
    );
    return row;
  }

  /** The owner's view of this id in this list (whatever its version): with whom it is shared; undefined when none. */
  async owned(tx: Queryable, ownerId: number, id: number): Promise<{ shared_role_id: number | null } | undefined> {
    const [row] = await tx.query<{ shared_role_id: number | null }>(
      'SELECT shared_role_id FROM saved_views WHERE list_key = $1 AND owner_id = $2 AND id = $3',
      [this.listKey, ownerId, id],
    );
    return row;
  }

  async preferences(db: Queryable, userId: number): Promise<StoredPreferences> {
    const [row] = await db.query<StoredPreferences>(
      'SELECT columns, default_view_id FROM list_preferences WHERE user_id = $1 AND list_key = $2',
      [userId, this.listKey],
    );
    return row ?? NO_PREFERENCES;
  }

  /** Sets what `change` names and keeps the rest. */
  async savePreferences(tx: Queryable, userId: number, change: Partial<StoredPreferences>): Promise<void> {
    await tx.query(
      `INSERT INTO list_preferences (user_id, list_key, columns, default_view_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, list_key) DO UPDATE SET
         columns = CASE WHEN $5 THEN excluded.columns ELSE list_preferences.columns END,
         default_view_id = CASE WHEN $6 THEN excluded.default_view_id ELSE list_preferences.default_view_id END,
         updated_at = now()`,
      [
        userId,
        this.listKey,
        change.columns ?? null,
        change.default_view_id ?? null,
        change.columns !== undefined,
        change.default_view_id !== undefined,
      ],
    );
  }
}
