import type { Queryable } from '../../db/database.ts';

/** Who verified a record, and when (the `verify` action); null when it never was. */
type Verification = { verified_by: number | null; verified_at: string | null };

/**
 * Records that `userId` verified the record now, and answers its verification before and after, in `verifications`.
 * The row is locked first, so of two verifications at once the second finds the first's as its "before".
 */
export async function markVerified(
  tx: Queryable,
  module: string,
  recordId: number,
  userId: number,
): Promise<{ before: Verification | null; after: Verification | null }> {
  const [before] = await tx.query<Verification>(
    'SELECT verified_by, verified_at FROM verifications WHERE module = $1 AND record_id = $2 FOR UPDATE',
    [module, recordId],
  );
  const [after] = await tx.query<Verification>(
    `INSERT INTO verifications (module, record_id, verified_by) VALUES ($1, $2, $3)
     ON CONFLICT (module, record_id) DO UPDATE SET verified_by = excluded.verified_by, verified_at = now()
     RETURNING verified_by, verified_at`,
    [module, recordId, userId],
  );
  return { before: before ?? null, after: after ?? null };
}

/** Who verified a record, and when; undefined when it never was. */
export async function verificationOf(
  db: Queryable,
  module: string,
  recordId: number,
): Promise<Verification | undefined> {
  const [verification] = await db.query<Verification>(
    'SELECT verified_by, verified_at FROM verifications WHERE module = $1 AND record_id = $2',
    [module, recordId],
  );
  return verification;
}
