import type { Queryable, Row } from '../../db/database.ts';
import { MODULE, SUBSCRIBER_FIELDS, entityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';

export interface LedgerEntry {
  kind: 'subscription' | 'top_up' | 'consumption';
  points: number;
  amount: number;
  note: string | null;
  idempotencyKey: string | null;
  subscriptionId: number | null;
  userId: number | null;
}

/**
 * Adds one entry to a subscriber's points ledger. The subscriber's row is locked first, so concurrent entries
 * for one subscriber queue up and each sees the balance the previous one left; an idempotency key already
 * used for this subscriber returns the earlier entry instead of crediting again.
 */
export async function addLedgerEntry(
  tx: Queryable,
  subscriberId: number,
  entry: LedgerEntry,
): Promise<{ entry: Row; created: boolean }> {
  const subscribers = entityResource(MODULE.subscribers)!;
  await tx.query(`SELECT id FROM ${quoted(subscribers.entity.table)} WHERE id = $1 FOR UPDATE`, [subscriberId]);
  if (entry.idempotencyKey !== null) {
    const [earlier] = await tx.query('SELECT * FROM points_ledger WHERE subscriber_id = $1 AND idempotency_key = $2', [
      subscriberId,
      entry.idempotencyKey,
    ]);
    if (earlier) return { entry: earlier, created: false };
  }
  const balance = await pointsBalance(tx, subscriberId);
  const [created] = await tx.query(
    `INSERT INTO points_ledger (subscriber_id, kind, points, amount, balance_after, note, idempotency_key, subscription_id, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
    [
      subscriberId,
      entry.kind,
      entry.points,
      entry.amount,
      balance + entry.points,
      entry.note,
      entry.idempotencyKey,
      entry.subscriptionId,
      entry.userId,
    ],
  );
  await tx.query(
    `UPDATE ${quoted(subscribers.entity.table)} SET ${quoted(SUBSCRIBER_FIELDS.pointsBalance.field)} = $2, updated_at = now() WHERE id = $1`,
    [subscriberId, balance + entry.points],
  );
  return { entry: created!, created: true };
}

export async function pointsBalance(db: Queryable, subscriberId: number): Promise<number> {
  const [last] = await db.query<{ balance_after: number }>(
    'SELECT balance_after FROM points_ledger WHERE subscriber_id = $1 ORDER BY id DESC LIMIT 1',
    [subscriberId],
  );
  return last?.balance_after ?? 0;
}

/** The subscriber's points ledger, newest first: at most `limit` entries. */
export function pointsLedger(db: Queryable, subscriberId: number, limit = 500): Promise<Row[]> {
  return db.query(
    'SELECT id, kind, points, amount, balance_after, note, created_at FROM points_ledger WHERE subscriber_id = $1 ORDER BY id DESC LIMIT $2',
    [subscriberId, limit],
  );
}
