// The partitions of trade_records (server/migrations/017_trade_partitions.sql): a month is a partition of
// trade_records, an upload's records a table attached to its month when the upload is published.
import { tableExists } from '../../db/catalog.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { quoteIdentifier } from '../../db/postgres.ts';
import { STANDARD_COLUMNS } from './tradeColumns.ts';

/** Any constant, the same for every instance: months are made one at a time, whoever makes them. */
export const MONTH_LOCK = 7_270_017;
/** The same expression the report's search runs (server/modules/reports/tradeReport.ts), so the index applies. */
export const TRADE_SEARCH = `lower(coalesce(product_description, '') || ' ' || coalesce(hs_code, '') || ' ' || coalesce(importer, '') || ' ' || coalesce(exporter, ''))`;
const PERIOD = /^(\d{4})-(\d{2})$/;

/** The month partition of a period, or null for a period that is no month (its records go to the default partition). */
export function monthTable(period: string | null): string | null {
  const match = period ? PERIOD.exec(period) : null;
  return match ? `trade_records_${match[1]}_${match[2]}` : null;
}

/** The table of one upload's records. */
export function uploadTable(uploadId: number): string {
  if (!Number.isSafeInteger(uploadId) || uploadId <= 0) throw new Error(`Not an upload id: ${uploadId}`);
  return `trade_records_upload_${uploadId}`;
}

/**
 * Makes the period's month partition when it has none, in a short transaction of its own under a lock every instance
 * takes, so that the import's long transaction never holds the lock that adding a partition takes on trade_records.
 * Made as a table and then attached, which locks trade_records less than creating it as a partition would.
 */
export async function ensureMonth(db: Database, period: string, leaseSeconds?: number): Promise<string> {
  const month = monthTable(period);
  if (!month) throw new Error(`Not a month: ${period}`);
  if (await tableExists(db, month)) return month;
  await db.transaction(
    async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MONTH_LOCK]);
      if (await tableExists(tx, month)) return;
      const name = quoteIdentifier(month);
      await tx.exec(`CREATE TABLE ${name} (LIKE trade_records INCLUDING DEFAULTS) PARTITION BY LIST (upload_id);
      CREATE TABLE ${quoteIdentifier(`${month}_other_uploads`)} PARTITION OF ${name} DEFAULT;
      CREATE INDEX ${quoteIdentifier(`${month}_other_uploads_search`)} ON ${quoteIdentifier(`${month}_other_uploads`)} USING gin ((${TRADE_SEARCH}) gin_trgm_ops);
      ALTER TABLE trade_records ATTACH PARTITION ${name} FOR VALUES IN ('${period}')`);
    },
    { leaseSeconds },
  );
  return month;
}

/** The columns an import writes, in the order of its COPY lines: the file's standard columns, then the others as JSON. */
export function loadedColumns(withExtra: boolean): string {
  return [...STANDARD_COLUMNS.map((column) => column.name), ...(withExtra ? ['extra'] : [])].join(', ');
}

/**
 * Creates the table of an upload's records, unattached (no one reads it), with what it takes from its upload as
 * defaults so that the COPY lines carry only the file's columns. One left by an import that stopped is replaced.
 */
export async function createUploadTable(
  db: Queryable,
  upload: { uploadId: number; countryId: number | null; tradeDirection: string; period: string },
): Promise<string> {
  const table = quoteIdentifier(uploadTable(upload.uploadId));
  await db.exec(`DROP TABLE IF EXISTS ${table}`);
  await db.exec(`CREATE TABLE ${table} (LIKE trade_records INCLUDING DEFAULTS)`);
  await db.exec(`ALTER TABLE ${table}
      ALTER COLUMN upload_id SET DEFAULT ${upload.uploadId},
      ALTER COLUMN country_id SET DEFAULT ${upload.countryId === null ? 'NULL' : Number(upload.countryId)},
      ALTER COLUMN trade_direction SET DEFAULT ${literal(upload.tradeDirection)},
      ALTER COLUMN period SET DEFAULT ${literal(upload.period)}`);
  return table;
}

/**
 * Indexes a loaded upload table as trade_records is indexed (so attaching it builds nothing) and gathers its
 * statistics. The trigram search index is built after publishing (buildSearchIndex): it takes longer than the load.
 */
export async function indexUploadTable(db: Queryable, uploadId: number): Promise<void> {
  const name = uploadTable(uploadId);
  const table = quoteIdentifier(name);
  await db.exec(`ALTER TABLE ${table} ALTER COLUMN upload_id DROP DEFAULT, ALTER COLUMN country_id DROP DEFAULT,
      ALTER COLUMN trade_direction DROP DEFAULT, ALTER COLUMN period DROP DEFAULT;
    ALTER TABLE ${table} ADD CHECK (upload_id = ${uploadId});
    ALTER TABLE ${table} ADD PRIMARY KEY (id, upload_id, period);
    CREATE INDEX ${quoteIdentifier(`${name}_newest`)} ON ${table} (shipment_date DESC, id DESC);
    CREATE INDEX ${quoteIdentifier(`${name}_country_newest`)} ON ${table} (country_id, trade_direction, shipment_date DESC, id DESC);
    ANALYZE ${table}`);
}

/**
 * Publishes a loaded upload: attaches its table to its month and takes out of the month what it replaces, in the
 * caller's transaction, so readers see the records it replaces until that commits and the new ones after, never both.
 */
export async function publishUploadTable(
  tx: Queryable,
  upload: { uploadId: number; period: string },
  replacing: readonly number[],
): Promise<void> {
  const month = quoteIdentifier(monthTable(upload.period)!);
  // Two publications into one month take turns; readers of the month are not held up by this lock. ONLY the month:
  // locking its upload tables too would wait for the search index being built on the one published before.
  await tx.exec(`LOCK TABLE ONLY ${month} IN SHARE UPDATE EXCLUSIVE MODE`);
  for (const replaced of replacing) await removeUploadRecords(tx, replaced);
  await tx.exec(
    `ALTER TABLE ${month} ATTACH PARTITION ${quoteIdentifier(uploadTable(upload.uploadId))} FOR VALUES IN (${upload.uploadId})`,
  );
}

/** Takes an upload's records out of trade_records: its own table is dropped; records without one are deleted. */
export async function removeUploadRecords(tx: Queryable, uploadId: number): Promise<void> {
  // A search index being built CONCURRENTLY on the table waits for this transaction, which would wait for it to drop
  // the table (a deadlock, ending one of them): the build is stopped first, since its table goes anyway.
  await tx.query('SELECT pg_cancel_backend(pid) FROM pg_stat_progress_create_index WHERE relid = to_regclass($1)', [
    uploadTable(uploadId),
  ]);
  await tx.exec(`DROP TABLE IF EXISTS ${quoteIdentifier(uploadTable(uploadId))}`);
  await tx.query('DELETE FROM trade_records WHERE upload_id = $1', [uploadId]);
}

/** Drops the table of an upload that was never published (its import failed or was cancelled). */
export async function dropUnpublishedTable(db: Queryable, uploadId: number): Promise<void> {
  const [row] = await db.query<{ attached: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_inherits WHERE inhrelid = to_regclass($1)) AS attached`,
    [uploadTable(uploadId)],
  );
  if (row && !row.attached) await db.exec(`DROP TABLE IF EXISTS ${quoteIdentifier(uploadTable(uploadId))}`);
}

/**
 * Builds the trigram search index of published upload tables that have none (one just published, or one whose
 * instance stopped before building it); CONCURRENTLY on PostgreSQL, so neither readers nor imports wait for it.
 */
export async function buildSearchIndexes(db: Database): Promise<number> {
  const missing = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_partition_tree('trade_records') t JOIN pg_class c ON c.oid = t.relid
      WHERE t.isleaf AND c.relname LIKE 'trade\\_records\\_upload\\_%'
        AND NOT EXISTS (SELECT 1 FROM pg_class i JOIN pg_index x ON x.indexrelid = i.oid WHERE x.indrelid = c.oid AND i.relname = c.relname || '_search' AND x.indisvalid)`,
  );
  for (const { name } of missing) {
    const index = quoteIdentifier(`${name}_search`);
    // A build that stopped half-way leaves an invalid index behind, which must go before it is built again.
    await db.exec(`DROP INDEX ${db.kind === 'postgres' ? 'CONCURRENTLY ' : ''}IF EXISTS ${index}`);
    await db.exec(
      `CREATE INDEX ${db.kind === 'postgres' ? 'CONCURRENTLY ' : ''}IF NOT EXISTS ${index} ON ${quoteIdentifier(name)} USING gin ((${TRADE_SEARCH}) gin_trgm_ops)`,
    );
  }
  return missing.length;
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
