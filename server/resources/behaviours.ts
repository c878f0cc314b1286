import type { FastifyInstance } from 'fastify';
import { createEmailLink, sendMail } from '../auth/emailLinks.ts';
import { publicOrigin } from '../auth/routes.ts';
import type { SessionUser } from '../auth/session.ts';
import { revokeAllSessions } from '../auth/sessions.ts';
import type { Queryable } from '../db/database.ts';
import { MODULE, quoted, type EntityResource } from '../registry.ts';
import { executiveAssignment, subscriberScope } from '../subscribers/scope.ts';
import type { Scope } from './sql.ts';

export interface WriteContext {
  app: FastifyInstance;
  tx: Queryable;
  user: SessionUser;
}

/** What a resource does beyond plain storage. Only the modules docs/api.md names have one. */
export interface ResourceBehaviour {
  /** Limits the records the caller may see and change. */
  scope?(user: SessionUser): Scope | null;
  /** Adjusts the column values of a validated create or update body (passwords, defaults). */
  prepare?(values: Record<string, unknown>, body: Record<string, unknown>, context: WriteContext & { id: number | null }): Promise<void>;
  afterCreate?(id: number, body: Record<string, unknown>, context: WriteContext): Promise<void>;
  afterUpdate?(id: number, body: Record<string, unknown>, context: WriteContext): Promise<void>;
  afterDelete?(ids: readonly number[], context: WriteContext): Promise<void>;
  /** Generic routes this resource replaces with its own (the upload flow creates uploads). */
  replaces?: ReadonlyArray<'create'>;
}

const users: ResourceBehaviour = {
  async prepare(values, body, { app }) {
    if (typeof values.email === 'string') values.email = values.email.toLowerCase();
    if (typeof body.password === 'string') values.password_hash = await app.passwords.hash(body.password);
  },
  async afterCreate(id, body, { app, tx }) {
    const token = await createEmailLink(tx, id, 'verify_email', 7 * 24 * 3600);
    await sendMail(tx, String(body.email), 'Verify your email address', `Open this link to verify your address: ${publicOrigin(app)}/auth/email-verify?token=${token}`);
  },
  async afterUpdate(id, body, { tx, user }) {
    // A new password ends the user's other sessions; the admin's own session stays when they change their own.
    if (typeof body.password === 'string') await revokeAllSessions(tx, id, id === user.id ? user.sessionId : undefined);
  },
};

const subscribers: ResourceBehaviour = {
  scope: subscriberScope,
  async prepare(values, _body, { tx, user, id }) {
    const assignment = executiveAssignment();
    if (id !== null || !assignment || !user.grants.can(MODULE.subscribers, 'executive_access') || values[assignment.field] !== undefined) return;
    // An executive's new subscriber is assigned to that executive.
    if (!assignment.via) {
      values[assignment.field] = user.id;
      return;
    }
    const [own] = await tx.query<{ id: number }>(
      `SELECT id FROM ${quoted(assignment.via.table)} WHERE ${quoted(assignment.via.userField)} = $1 ORDER BY id LIMIT 1`,
      [user.id],
    );
    if (own) values[assignment.field] = own.id;
  },
};

const dataUploads: ResourceBehaviour = {
  replaces: ['create'],
  async afterDelete(ids, { app, tx }) {
    const files = await tx.query<{ storage_key: string | null }>('DELETE FROM upload_files WHERE upload_id = ANY($1::bigint[]) RETURNING storage_key', [ids]);
    await tx.query('DELETE FROM upload_rejections WHERE upload_id = ANY($1::bigint[])', [ids]);
    await tx.query('DELETE FROM trade_records WHERE upload_id = ANY($1::bigint[])', [ids]);
    for (const file of files) if (file.storage_key) await app.storage.remove(file.storage_key);
  },
};

const BEHAVIOURS: Record<string, ResourceBehaviour> = {
  [MODULE.users]: users,
  [MODULE.subscribers]: subscribers,
  [MODULE.dataUploadLogs]: dataUploads,
};

export function behaviourOf(resource: EntityResource): ResourceBehaviour {
  return BEHAVIOURS[resource.key] ?? {};
}
