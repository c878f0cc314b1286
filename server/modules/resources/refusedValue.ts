import type { FastifyRequest } from 'fastify';
import { isDatabaseError, type Queryable } from '../../db/database.ts';
import { validationError } from '../../http/errors.ts';
import { quoted } from '../../../codegen/sqlNames.ts';

/**
 * A value the request's schema accepted but the database would not store (class 22, a data exception: a number past
 * the column's range, a date PostgreSQL cannot hold, or a column of another type than the manifest's) names no field.
 * Each value is tried as its column's type, once the failed transaction is over, to find the field: the answer is a
 * 400 on that field, and the log says what the database refused and why. Anything else is thrown as it came (the
 * error handler logs a refused value it cannot place).
 */
export async function refusedValue(
  db: Queryable,
  request: FastifyRequest,
  table: string,
  values: Record<string, unknown>,
  error: unknown,
): Promise<never> {
  if (!isDatabaseError(error) || !error.code.startsWith('22')) throw error;
  const columns = await db.query<{ field: string; type: string }>(
    `SELECT attname AS field, format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
    [quoted(table)],
  );
  const typeOf = new Map(columns.map((column) => [column.field, column.type]));
  for (const [field, value] of Object.entries(values)) {
    const type = typeOf.get(field);
    if (value === null || value === undefined || !type) continue;
    try {
      await db.query(`SELECT $1::text::${type}`, [typeof value === 'object' ? JSON.stringify(value) : String(value)]);
    } catch (refusal) {
      if (!isDatabaseError(refusal) || !refusal.code.startsWith('22')) throw refusal;
      request.log.warn(
        { table, field, columnType: type, reason: (refusal as unknown as Error).message },
        `the database refused the value of ${table}.${field} (${type})`,
      );
      throw validationError({ [field]: 'Invalid value.' });
    }
  }
  throw error;
}
