/**
 * The benchmark's trade records, shaped as imports leave them: 12 months x 4 countries x 2 directions, each upload a
 * table of its own (rows made by generate_series in SQL, into an UNLOGGED table nobody reads), indexed as the import
 * indexes it (tradePartitions.ts), attached to its month, with its trigram search index; the upload's record holds
 * its rows_accepted. Two uploads load at a time (the machine has two cores).
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/db/database.ts';
import { quoteIdentifier } from '../../server/db/postgres.ts';
import { MODULE, entityResource } from '../../server/registry.ts';
import { quoted } from '../../codegen/sqlNames.ts';
import {
  TRADE_SEARCH,
  ensureMonth,
  indexUploadTable,
  publishUploadTable,
  removeUploadRecords,
  uploadTable,
} from '../../server/modules/uploads/tradePartitions.ts';

export const MONTHS = Array.from({ length: 12 }, (_, index) => `2025-${String(index + 1).padStart(2, '0')}`);
export const COUNTRIES = ['India', 'Germany', 'Brazil', 'Kenya'] as const;
export const DIRECTIONS = ['import', 'export'] as const;
const ISO: Record<(typeof COUNTRIES)[number], [string, string]> = {
  India: ['IN', 'IND'],
  Germany: ['DE', 'DEU'],
  Brazil: ['BR', 'BRA'],
  Kenya: ['KE', 'KEN'],
};

/** The shape of the generated records: a data set loaded by an earlier shape is loaded again. */
const DATA_SHAPE = 'v2';

/**
 * Common products (one record in ten is pepper), and saffron, one record in a thousand: 28 records in a row every
 * 28,000, which the date formula spreads over every day of the month, as a rare product's shipments are.
 */
const PRODUCTS = [
  'Black pepper whole',
  'Basmati rice',
  'Turmeric fingers',
  'Cumin seeds',
  'Green cardamom',
  'Cashew kernels',
  'Coffee beans',
  'Tea leaves',
  'Chilli powder',
  'Coriander seeds',
];
const TRADERS = [
  'Acme Trading',
  'Spice Co',
  'Global Foods',
  'Harbor Imports',
  'Sunrise Exports',
  'Delta Agro',
  'Orient Commodities',
  'Northwind',
  'Blue Ocean',
  'Green Valley',
];

export interface LoadedUpload {
  id: number;
  country: string;
  countryId: number;
  direction: string;
  period: string;
}

const array = (values: readonly string[]) => `ARRAY[${values.map((value) => `'${value}'`).join(', ')}]`;

/** The uploads already loaded (a kept database), or none when the data set is not complete. */
async function loadedUploads(db: Database, rowsPerUpload: number): Promise<LoadedUpload[]> {
  const uploads = quoted(entityResource(MODULE.dataUploadLogs)!.entity.table);
  const rows = await db.query<{
    id: number;
    country: string;
    country_id: number;
    trade_direction: string;
    period: string;
    rows_accepted: number;
  }>(
    `SELECT u.id, c.name AS country, u.country_id, u.trade_direction, u.period, u.rows_accepted FROM ${uploads} u JOIN countries c ON c.id = u.country_id
      WHERE u.file_name LIKE 'bench-' || $1 || '-%' AND to_regclass('trade_records_upload_' || u.id) IS NOT NULL ORDER BY u.id`,
    [DATA_SHAPE],
  );
  const searchable = await db.query<{ n: number }>(
    `SELECT count(*) AS n FROM pg_indexes WHERE indexname LIKE 'trade\\_records\\_upload\\_%\\_search'`,
  );
  const complete =
    rows.length === MONTHS.length * COUNTRIES.length * DIRECTIONS.length &&
    rows.every((row) => Number(row.rows_accepted) === rowsPerUpload) &&
    Number(searchable[0]!.n) === rows.length;
  return complete
    ? rows.map((row) => ({
        id: Number(row.id),
        country: row.country,
        countryId: Number(row.country_id),
        direction: row.trade_direction,
        period: row.period,
      }))
    : [];
}

/** Loads the data set unless it is there already; the uploads, and the seconds the load took (0 when kept). */
export async function loadTradeRecords(
  app: FastifyInstance,
  db: Database,
  rowsPerUpload: number,
  headers: Record<string, string>,
): Promise<{ uploads: LoadedUpload[]; seconds: number }> {
  const kept = await loadedUploads(db, rowsPerUpload);
  if (kept.length > 0) return { uploads: kept, seconds: 0 };
  const started = performance.now();
  const table = quoted(entityResource(MODULE.dataUploadLogs)!.entity.table);
  // What an incomplete load, or one of an earlier shape, left: its records go with it.
  for (const { id } of await db.query<{ id: number }>(`SELECT id FROM ${table} WHERE file_name LIKE 'bench-%'`)) {
    await db.transaction(async (tx) => {
      await removeUploadRecords(tx, Number(id));
      await tx.query(`DELETE FROM ${table} WHERE id = $1`, [id]);
    });
  }
  const countryIds = new Map<string, number>();
  for (const country of COUNTRIES) {
    const [found] = await db.query<{ id: number }>('SELECT id FROM countries WHERE name = $1', [country]);
    if (found) countryIds.set(country, Number(found.id));
    else {
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/countries',
        headers,
        payload: { name: country, iso2: ISO[country][0], iso3: ISO[country][1], region: 'asia', currency_code: 'USD' },
      });
      if (created.statusCode !== 201) throw new Error(`country ${country}: ${created.body}`);
      countryIds.set(country, (created.json() as { data: { id: number } }).data.id);
    }
  }
  for (const period of MONTHS) await ensureMonth(db, period);
  const planned: LoadedUpload[] = [];
  for (const period of MONTHS) {
    for (const country of COUNTRIES) {
      for (const direction of DIRECTIONS) {
        const [row] = await db.query<{ id: number }>(
          `INSERT INTO ${table} (country_id, trade_direction, period, file_name, size, status, rows_total, rows_accepted, rows_rejected)
           VALUES ($1, $2, $3, $4, 1, 'published', $5, $5, 0) RETURNING id`,
          [
            countryIds.get(country),
            direction,
            period,
            `bench-${DATA_SHAPE}-${country}-${direction}-${period}.csv`,
            rowsPerUpload,
          ],
        );
        planned.push({ id: Number(row!.id), country, countryId: countryIds.get(country)!, direction, period });
      }
    }
  }
  const [{ base }] = (await db.query<{ base: number }>(`SELECT nextval('trade_record_ids') AS base`)) as [
    { base: number },
  ];
  await db.query(`SELECT setval('trade_record_ids', $1)`, [Number(base) + planned.length * rowsPerUpload + 1]);
  let next = 0;
  const worker = async () => {
    while (next < planned.length) {
      const index = next++;
      await loadUpload(db, planned[index]!, Number(base) + index * rowsPerUpload, rowsPerUpload);
      if ((index + 1) % 8 === 0)
        console.info(
          `  ${index + 1}/${planned.length} uploads loaded, ${((performance.now() - started) / 1000).toFixed(0)} s`,
        );
    }
  };
  await Promise.all(db.kind === 'postgres' ? [worker(), worker()] : [worker()]);
  await db.exec('ANALYZE trade_records');
  return { uploads: planned, seconds: (performance.now() - started) / 1000 };
}

async function loadUpload(db: Database, upload: LoadedUpload, firstId: number, rows: number): Promise<void> {
  const name = uploadTable(upload.id);
  const target = quoteIdentifier(name);
  await db.exec(`DROP TABLE IF EXISTS ${target}`);
  await db.exec(
    `CREATE ${db.kind === 'postgres' ? 'UNLOGGED ' : ''}TABLE ${target} (LIKE trade_records INCLUDING DEFAULTS)`,
  );
  // Shipment dates spread over the month out of id order, as real files are.
  await db.query(
    `INSERT INTO ${target} (id, upload_id, country_id, trade_direction, period, shipment_date, hs_code, product_description, quantity, unit, value, importer, exporter)
     SELECT $1::bigint + n, $2, $3, $4, $5, to_date($5 || '-01', 'YYYY-MM-DD') + (n::bigint * 7919 % 28)::int,
            lpad(((n * 31) % 9000 + 100)::text, 4, '0'),
            CASE WHEN (n / 28) % 1000 = 0 THEN 'Saffron threads' ELSE (${array(PRODUCTS)})[1 + (n * 13) % 10] END || ' lot ' || (n % 997),
            1 + n % 1000, 'KGS', (n * 37) % 100000, (${array(TRADERS)})[1 + n % 10] || ' ' || (n % 50), (${array(TRADERS)})[1 + (n / 10) % 10] || ' Ltd'
       FROM generate_series(1, $6::int) AS n`,
    [firstId, upload.id, upload.countryId, upload.direction, upload.period, rows],
  );
  await indexUploadTable(db, upload.id);
  // The search index buildSearchIndexes builds after publishing, built here before it: the data set is whole once loaded.
  await db.exec(
    `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(`${name}_search`)} ON ${target} USING gin ((${TRADE_SEARCH}) gin_trgm_ops)`,
  );
  await db.transaction((tx) => publishUploadTable(tx, { uploadId: upload.id, period: upload.period }, []));
}
