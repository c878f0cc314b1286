// What the review screen shows beside the comparison: the months of the country and direction for its chart, and up
// to 20 rows behind each flagged check, read from the upload's own table (attached or not).
import type { ReviewCheckKey, ReviewMonth, ReviewSample, UploadReview } from '../../../contract/uploadReview.ts';
import { tableExists } from '../../db/catalog.ts';
import type { Queryable, Row } from '../../db/database.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { TRADE_RECORD_COLUMNS } from './tradeColumns.ts';
import { uploadTable } from './tradePartitions.ts';
import { ROW_COLUMNS, uploadRecords } from './uploadProfile.ts';
import { rejectedRows } from './uploadRejections.ts';

export const SAMPLE_ROWS = 20;
const CHART_MONTHS = 12;
const SELECTED = TRADE_RECORD_COLUMNS.join(', ');
/** A row's hash as uploadProfile counts repeated rows by. */
const HASHED = `hash_record_extended((${ROW_COLUMNS}), 0)`;

interface Upload {
  id: number;
  country_id: number | null;
  trade_direction: string;
  period: string;
  rows_accepted: number | null;
}

/** The last 12 published months of the upload's country and direction, and the upload itself (`current`), oldest first. */
export async function reviewMonths(db: Queryable, upload: Upload, review: UploadReview | null): Promise<ReviewMonth[]> {
  const uploads = entityResource(MODULE.dataUploadLogs)!;
  const months = await db.query<{ period: string; rows: string | number; value: number | null }>(
    `SELECT d.period, coalesce(sum(d.rows_accepted), 0) AS rows,
            CASE WHEN bool_and(f.review->'profile' IS NOT NULL) THEN sum((f.review->'profile'->>'value')::float8) END AS value
       FROM ${quoted(uploads.entity.table)} d LEFT JOIN upload_files f ON f.upload_id = d.id
      WHERE d.id <> $1 AND d.country_id IS NOT DISTINCT FROM $2 AND d.trade_direction = $3 AND d.status = 'published'
      GROUP BY d.period ORDER BY d.period DESC LIMIT ${CHART_MONTHS}`,
    [upload.id, upload.country_id, upload.trade_direction],
  );
  const chart: ReviewMonth[] = months.map((month) => ({
    period: month.period,
    rows: Number(month.rows),
    value: month.value === null ? null : Number(month.value),
    current: false,
  }));
  chart.push({
    period: upload.period,
    rows: Number(upload.rows_accepted ?? 0),
    value: review ? review.profile.value : null,
    current: true,
  });
  return chart.sort((a, b) => a.period.localeCompare(b.period) || Number(a.current) - Number(b.current));
}

/** Up to SAMPLE_ROWS rows behind each flagged check of the review. */
export async function reviewSamples(db: Queryable, upload: Upload, review: UploadReview): Promise<ReviewSample[]> {
  if (review.flagged.length === 0) return [];
  const hasRecords = await tableExists(db, uploadTable(upload.id));
  const source =
    hasRecords || review.outcome === 'published' ? await uploadRecords(db, upload.id, upload.period) : null;
  const samples: ReviewSample[] = [];
  for (const key of review.flagged) samples.push({ key, rows: await sampleOf(db, key, upload, review, source) });
  return samples;
}

async function sampleOf(
  db: Queryable,
  key: ReviewCheckKey,
  upload: Upload,
  review: UploadReview,
  source: string | null,
): Promise<Row[]> {
  if (key === 'rejected_share') {
    const rejected = await rejectedRows(db, upload.id, 0, SAMPLE_ROWS);
    return rejected.map(({ row_text: row, ...rejection }) => ({ ...rejection, row }));
  }
  // A rejected upload's records are gone: only its rejected lines remain to show.
  if (!source) return [];
  const rows = (where: string, order: string, params: unknown[] = []) =>
    db.query(`SELECT ${SELECTED} FROM ${source} WHERE ${where} ORDER BY ${order} LIMIT ${SAMPLE_ROWS}`, params);
  const start = `DATE '${upload.period}-01'`;
  switch (key) {
    case 'row_count_change':
      return rows('true', 'shipment_date DESC, id DESC');
    case 'value_change':
      return rows('true', `value ${changeOf(review, key) < 0 ? 'ASC' : 'DESC'}, id`);
    case 'quantity_change':
      return rows('true', `quantity ${changeOf(review, key) < 0 ? 'ASC' : 'DESC'}, id`);
    case 'outside_period_share':
      return rows(`shipment_date < ${start} OR shipment_date >= ${start} + interval '1 month'`, 'shipment_date, id');
    case 'duplicate_share':
      return rows(
        `${HASHED} IN (SELECT ${HASHED} FROM ${source.replace(/ AS r$/, ' AS d')} GROUP BY 1 HAVING count(*) > 1 LIMIT ${SAMPLE_ROWS})`,
        `${HASHED}, id`,
      );
    case 'hs_chapters_changed':
      return rows('left(hs_code, 2) = ANY($1::text[])', 'hs_code, id', [review.hs_chapters.new]);
    case 'empty_importer_change':
      return rows("nullif(btrim(importer), '') IS NULL", 'id');
    case 'empty_exporter_change':
      return rows("nullif(btrim(exporter), '') IS NULL", 'id');
    case 'unit_value_change': {
      const top = review.unit_values[0];
      if (!top) return [];
      return rows(
        'left(hs_code, 2) = $1 AND quantity > 0',
        `value / quantity ${top.factor >= 1 ? 'DESC' : 'ASC'}, id`,
        [top.chapter],
      );
    }
  }
}

function changeOf(review: UploadReview, key: ReviewCheckKey): number {
  return review.checks.find((check) => check.key === key)?.measured ?? 0;
}
