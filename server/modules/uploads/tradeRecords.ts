// The SQL of the trade_records table: a report's page and its export, an upload's import and its removal.
import type { Queryable, Row } from '../../db/database.ts';
import { SqlParams } from '../../db/sqlParams.ts';
import { STANDARD_COLUMNS, TRADE_RECORD_COLUMNS, type ColumnType } from './tradeColumns.ts';

/** The same expression the search index of trade_records covers, so the index applies. */
const TRADE_SEARCH = `lower(coalesce(product_description, '') || ' ' || coalesce(hs_code, '') || ' ' || coalesce(importer, '') || ' ' || coalesce(exporter, ''))`;
const SELECTED = TRADE_RECORD_COLUMNS.join(', ');
const CAST: Record<ColumnType, string> = { string: '', number: '::float8', date: '::date' };

export interface TradeFilter {
  country_id?: number;
  trade_direction?: 'import' | 'export';
  period?: string;
  q?: string;
}

/** The upload a file's records belong to. */
export interface TradeUpload {
  uploadId: number;
  countryId: number | null;
  tradeDirection: string;
  period: string | null;
}

/** A page of trade records, newest shipment first, and how many match in all. */
export async function tradeRecordPage(db: Queryable, filter: TradeFilter, page: number, pageSize: number): Promise<{ rows: Row[]; total: number }> {
  const params = new SqlParams();
  const where = tradeWhere(params, filter);
  const count = new SqlParams();
  const [rows, counted] = await Promise.all([
    db.query(`SELECT ${SELECTED} FROM trade_records ${where} ORDER BY shipment_date DESC, id DESC LIMIT ${params.add(pageSize)} OFFSET ${params.add((page - 1) * pageSize)}`, params.values),
    db.query<{ total: number }>(`SELECT count(*) AS total FROM trade_records ${tradeWhere(count, filter)}`, count.values),
  ]);
  return { rows, total: counted[0]?.total ?? 0 };
}

/** Every matching trade record in batches, keyset by id, so a large export never re-reads what it has sent. */
export async function* tradeRecordBatches(db: Queryable, filter: TradeFilter): AsyncGenerator<Row[]> {
  let after = Number.MAX_SAFE_INTEGER;
  for (let batch = 0; batch < 4000; batch += 1) {
    const params = new SqlParams();
    const where = tradeWhere(params, filter);
    const rows = await db.query<Row & { id: number }>(
      `SELECT ${SELECTED} FROM trade_records ${where ? `${where} AND` : 'WHERE'} id < ${params.add(after)} ORDER BY id DESC LIMIT 500`,
      params.values,
    );
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
  }
}

/** Records of one upload, each with its standard columns as text and the rest of its file's columns in `extra`. */
export async function insertTradeRecords(tx: Queryable, upload: TradeUpload, records: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const column = (name: string) => records.map((record) => record[name] ?? null);
  const values = STANDARD_COLUMNS.map((standard, index) => `c${index}${CAST[standard.type]}`);
  const arrays = STANDARD_COLUMNS.map((_standard, index) => `$${index + 5}::text[]`);
  const extra = `$${STANDARD_COLUMNS.length + 5}::text[]`;
  await tx.query(
    `INSERT INTO trade_records (upload_id, country_id, trade_direction, period, ${STANDARD_COLUMNS.map((standard) => standard.name).join(', ')}, extra)
     SELECT $1, $2, $3, $4, ${values.join(', ')}, x::jsonb
       FROM unnest(${arrays.join(', ')}, ${extra}) AS r(${STANDARD_COLUMNS.map((_standard, index) => `c${index}`).join(', ')}, x)`,
    [upload.uploadId, upload.countryId, upload.tradeDirection, upload.period, ...STANDARD_COLUMNS.map((standard) => column(standard.name)), column('extra')],
  );
}

export async function deleteTradeRecordsOf(tx: Queryable, uploadIds: readonly number[]): Promise<void> {
  await tx.query('DELETE FROM trade_records WHERE upload_id = ANY($1::bigint[])', [uploadIds]);
}

function tradeWhere(params: SqlParams, filter: TradeFilter): string {
  const conditions: string[] = [];
  if (filter.country_id !== undefined) conditions.push(`country_id = ${params.add(filter.country_id)}`);
  if (filter.trade_direction !== undefined) conditions.push(`trade_direction = ${params.add(filter.trade_direction)}`);
  if (filter.period !== undefined) conditions.push(`period = ${params.add(filter.period)}`);
  if (filter.q && filter.q.trim() !== '') {
    const needle = filter.q.trim().replace(/[\\%_]/g, (character) => `\\${character}`);
    conditions.push(`${TRADE_SEARCH} LIKE '%' || lower(${params.add(needle)}) || '%'`);
  }
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
}
