import type { ApiTokenAnswer, TokenPermissions } from '../../../contract/apiTokens.ts';
import type { Queryable } from '../../db/database.ts';

type TokenRow = ApiTokenAnswer & Record<string, unknown>;

/** A token's columns as lists answer them, with its status now. */
const ANSWER_COLUMNS = `t.id::int AS id, t.name, t.prefix, t.permissions, t.created_by::int AS created_by, u.email AS created_by_email,
  t.created_at, t.expires_at, t.last_used_at, t.revoked_at,
  CASE WHEN t.revoked_at IS NOT NULL THEN 'revoked' WHEN t.expires_at <= now() THEN 'expired' ELSE 'active' END AS status`;

export interface NewToken {
  name: string;
  permissions: TokenPermissions;
  expiresAt: string;
  createdBy: number;
  hash: string;
  prefix: string;
}

/** The SQL of the api_tokens table (server migration 026); a request's token is read with its caller (auth/session.ts). */
export const tokenStore = {
  async insert(tx: Queryable, token: NewToken): Promise<number> {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO api_tokens (name, token_hash, prefix, permissions, created_by, expires_at)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6) RETURNING id::int AS id`,
      [token.name, token.hash, token.prefix, JSON.stringify(token.permissions), token.createdBy, token.expiresAt],
    );
    return row!.id;
  },

  async one(db: Queryable, id: number): Promise<ApiTokenAnswer | null> {
    const [row] = await db.query<TokenRow>(
      `SELECT ${ANSWER_COLUMNS} FROM api_tokens t JOIN users u ON u.id = t.created_by WHERE t.id = $1`,
      [id],
    );
    return row ?? null;
  },

  /** A page of tokens, live ones first, newest first within each. */
  async page(db: Queryable, page: number, pageSize: number): Promise<{ tokens: ApiTokenAnswer[]; total: number }> {
    const tokens = await db.query<TokenRow>(
      `SELECT ${ANSWER_COLUMNS} FROM api_tokens t JOIN users u ON u.id = t.created_by
        ORDER BY (t.revoked_at IS NULL AND t.expires_at > now()) DESC, t.created_at DESC, t.id DESC
        LIMIT $1 OFFSET $2`,
      [pageSize, (page - 1) * pageSize],
    );
    const [counted] = await db.query<{ total: number }>('SELECT count(*)::int AS total FROM api_tokens');
    return { tokens, total: counted?.total ?? 0 };
  },

  async liveCount(tx: Queryable): Promise<number> {
    const [row] = await tx.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM api_tokens WHERE revoked_at IS NULL AND expires_at > now()',
    );
    return row?.count ?? 0;
  },

  /** Revokes a token not revoked yet; whether it did. */
  async revoke(tx: Queryable, id: number, by: number): Promise<boolean> {
    const revoked = await tx.query(
      'UPDATE api_tokens SET revoked_at = now(), revoked_by = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id',
      [id, by],
    );
    return revoked.length > 0;
  },
};
