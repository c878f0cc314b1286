import type { FastifyInstance } from 'fastify';
import type { AuditActor } from '../audit/record.ts';
import type { SessionUser } from '../auth/session.ts';
import type { Queryable } from '../../db/database.ts';
import type { Scope } from '../../db/sqlParams.ts';

/**
 * What every record operation runs in (server/modules/resources/recordOperations.ts): the transaction, who asks (null for
 * a job of the server's own, which no scope limits) and who the audit entries name.
 */
export interface WriteContext {
  app: FastifyInstance;
  tx: Queryable;
  user: SessionUser | null;
  actor: AuditActor;
}

/**
 * A change as a guard and a preparation see it before the write. A status change, a field set on all matching
 * records, a restored version and an imported row are updates too: `body` holds the fields they give.
 */
export type RecordChange =
  | { kind: 'create'; body: Record<string, unknown> }
  | { kind: 'update'; ids: readonly number[]; body: Record<string, unknown> }
  | { kind: 'delete'; ids: readonly number[] }
  | { kind: 'restore'; ids: readonly number[] };

export type WritingChange = Extract<RecordChange, { kind: 'create' | 'update' }>;

/**
 * What a resource does beyond plain storage. Only the modules docs/api.md names have one; each module keeps its own.
 * Every write path runs these hooks the same way: the record operations call them, and nothing else does.
 */
export interface ResourceBehaviour {
  /** Limits the records the caller may see and change. */
  scope?(user: SessionUser): Scope | null;
  /** Adjusts the column values of a validated create or update (passwords, defaults). */
  prepare?(values: Record<string, unknown>, change: WritingChange, context: WriteContext): Promise<void>;
  afterCreate?(id: number, body: Record<string, unknown>, context: WriteContext): Promise<void>;
  afterUpdate?(ids: readonly number[], body: Record<string, unknown>, context: WriteContext): Promise<void>;
  afterDelete?(ids: readonly number[], context: WriteContext): Promise<void>;
  /** Runs `write` inside the changes' transaction, refusing them before or after it (no lockout). */
  guard?<T>(changes: readonly RecordChange[], context: WriteContext, write: () => Promise<T>): Promise<T>;
  /** Generic routes this resource replaces with its own (the upload flow creates uploads; a reviewer verifies one by publishing or rejecting it). */
  replaces?: ReadonlyArray<'create' | 'verify'>;
}

/** The behaviours of the resources that have one, by module key (server/modules/behaviours.ts). */
export type ResourceBehaviours = Readonly<Record<string, ResourceBehaviour>>;
