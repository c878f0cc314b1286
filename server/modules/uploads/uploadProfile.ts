// What an upload's accepted rows add up to (contract/uploadReview.ts, UploadProfile), in two statements over its rows:
// one pass grouped by HS chapter (totals, rows outside the month, empty parties, the median value per unit) and one
// that counts rows repeated within the file by a 64-bit hash of the whole row (each column hashed by its type, no
// text made of it: a third cheaper than hashing the row's text).
import type { ChapterFigures, UploadProfile } from '../../../contract/uploadReview.ts';
import { tableExists } from '../../db/catalog.ts';
import type { Queryable } from '../../db/database.ts';
import { monthTable, uploadTable } from './tradePartitions.ts';

/** Every column of a record that the file gave: two rows equal in all of them are the same shipment twice. */
export const ROW_COLUMNS =
  'shipment_date, hs_code, product_description, quantity, unit, value, importer, exporter, origin_country, destination_country, port_of_loading, port_of_discharge, extra';

export interface UploadCounts {
  uploadId: number;
  period: string;
  rowsTotal: number;
  rowsRejected: number;
}

/**
 * The upload's records as a subquery: its own table (attached or not: an upload waiting for review has one no reader
 * sees), or, for an upload imported before uploads had tables, its rows of trade_records.
 */
export async function uploadRecords(db: Queryable, uploadId: number, period: string): Promise<string> {
  const table = uploadTable(uploadId);
  if (await tableExists(db, table)) return `(SELECT * FROM ${table}) AS r`;
  if (!monthTable(period)) throw new Error(`Not a month: ${period}`);
  return `(SELECT * FROM trade_records WHERE period = '${period}' AND upload_id = ${uploadId}) AS r`;
}

export async function uploadProfile(db: Queryable, counts: UploadCounts): Promise<UploadProfile> {
  const source = await uploadRecords(db, counts.uploadId, counts.period);
  const start = `DATE '${counts.period}-01'`;
  const chapters = await db.query<{
    chapter: string;
    rows: string | number;
    value: number;
    quantity: number;
    outside_period: string | number;
    empty_importer: string | number;
    empty_exporter: string | number;
    unit_value_median: number | null;
  }>(
    `SELECT coalesce(left(hs_code, 2), '') AS chapter, count(*) AS rows, coalesce(sum(value), 0)::float8 AS value, coalesce(sum(quantity), 0)::float8 AS quantity,
            count(*) FILTER (WHERE shipment_date < ${start} OR shipment_date >= ${start} + interval '1 month') AS outside_period,
            count(*) FILTER (WHERE nullif(btrim(importer), '') IS NULL) AS empty_importer,
            count(*) FILTER (WHERE nullif(btrim(exporter), '') IS NULL) AS empty_exporter,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY value / quantity) FILTER (WHERE quantity > 0) AS unit_value_median
       FROM ${source} GROUP BY 1 ORDER BY 1`,
  );
  // Rows less distinct rows: the repeats. A sorted distinct of 64-bit hashes is 2.5x faster than grouping them, whose
  // hash table spills to disk at the default work_mem (1,000,000 rows: 1.0 s against 2.4-3.3 s on PostgreSQL).
  const [repeated] = await db.query<{ duplicates: string | number }>(
    `SELECT count(*) - count(DISTINCT hash_record_extended((${ROW_COLUMNS}), 0)) AS duplicates FROM ${source}`,
  );
  const sum = (pick: (row: (typeof chapters)[number]) => number | string) =>
    chapters.reduce((total, row) => total + Number(pick(row)), 0);
  return {
    period: counts.period,
    rows_total: counts.rowsTotal,
    rows_accepted: sum((row) => row.rows),
    rows_rejected: counts.rowsRejected,
    value: sum((row) => row.value),
    quantity: sum((row) => row.quantity),
    outside_period: sum((row) => row.outside_period),
    duplicates: Number(repeated?.duplicates ?? 0),
    empty_importer: sum((row) => row.empty_importer),
    empty_exporter: sum((row) => row.empty_exporter),
    chapters: Object.fromEntries(
      chapters.map((row): [string, ChapterFigures] => [
        row.chapter,
        {
          rows: Number(row.rows),
          value: Number(row.value),
          unit_value_median: row.unit_value_median === null ? null : Number(row.unit_value_median),
        },
      ]),
    ),
  };
}
