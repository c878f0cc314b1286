import type { FastifyInstance } from 'fastify';
import type { SessionUser } from '../auth/session.ts';
import type { Queryable } from '../../db/database.ts';
import type { Scope } from '../../db/sqlParams.ts';

export interface WriteContext {
  app: FastifyInstance;
  tx: Queryable;
  user: SessionUser;
}

/** A change to existing records, as a guard sees it before the write. */
export type RecordChange =
  | { kind: 'update'; id: number; body: Record<string, unknown> }
  | { kind: 'status'; ids: readonly number[]; isActive: boolean }
  | { kind: 'delete'; ids: readonly number[] };

/** What a resource does beyond plain storage. Only the modules docs/api.md names have one; each module keeps its own. */
export interface ResourceBehaviour {
  /** Limits the records the caller may see and change. */
  scope?(user: SessionUser): Scope | null;
  /** Adjusts the column values of a validated create or update body (passwords, defaults). */
  prepare?(values: Record<string, unknown>, body: Record<string, unknown>, context: WriteContext & { id: number | null }): Promise<void>;
  afterCreate?(id: number, body: Record<string, unknown>, context: WriteContext): Promise<void>;
  afterUpdate?(id: number, body: Record<string, unknown>, context: WriteContext): Promise<void>;
  afterDelete?(ids: readonly number[], context: WriteContext): Promise<void>;
  /** Runs `write` inside the change's transaction, refusing the change before or after it (no lockout). */
  guard?<T>(change: RecordChange, context: WriteContext, write: () => Promise<T>): Promise<T>;
  /** Generic routes this resource replaces with its own (the upload flow creates uploads). */
  replaces?: ReadonlyArray<'create'>;
}

/** The behaviours of the resources that have one, by module key (server/modules/behaviours.ts). */
export type ResourceBehaviours = Readonly<Record<string, ResourceBehaviour>>;
