import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';
import { MANIFEST_MIGRATIONS } from '../../contract/manifestMigrations.ts';
import type { Database, Row } from '../../server/db/database.ts';
import { DEFAULT_SOURCES } from '../../server/db/knownMigrations.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres, quoteIdentifier } from '../../server/db/postgres.ts';
import { TEST_DATABASE_URL, testDatabases } from '../../server/testing/testServer.ts';

/**
 * tests/migrations/series/<NN-name>/ holds a version of a manifest and the make-migration flags its change needs.
 * Each version's migration is written by the CLI, compared with the committed expected.sql (UPDATE_FIXTURES=1
 * rewrites it), and applied to one database holding rows, on PGlite and on PostgreSQL, one version after another:
 * the tests of a database run in order, each on what the one before left.
 */
const SERIES = join(import.meta.dirname, 'series');
const versions = (await readdir(SERIES)).sort();
const databases = await testDatabases();

async function writeMigration(version: string, out: string): Promise<string> {
  const { args } = JSON.parse(await readFile(join(SERIES, version, 'make-migration.json'), 'utf8')) as {
    args: string[];
  };
  const errors: string[] = [];
  const code = await main(
    ['node', 'admin-codegen', 'make-migration', '--manifest', join(SERIES, version, 'manifest'), '--out', out, ...args],
    { log: () => {}, error: (line) => errors.push(line) },
  );
  expect(errors).toEqual([]);
  expect(code).toBe(0);
  const folder = join(out, MANIFEST_MIGRATIONS);
  const written = (await readdir(folder))
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .at(-1)!;
  const sql = await readFile(join(folder, written), 'utf8');
  const expectedFile = join(SERIES, version, 'expected.sql');
  if (process.env.UPDATE_FIXTURES === '1') await writeFile(expectedFile, sql);
  expect(sql).toBe(await readFile(expectedFile, 'utf8'));
  return sql;
}

describe.each(databases)('a series of manifest versions migrating a database with rows, on $kind', ({ kind, skip }) => {
  let db: Database;
  let out: string;
  let schema: string | null = null;
  const ids: Record<string, number> = {};
  const apply = () =>
    migrate(db, { sources: { core: DEFAULT_SOURCES.core, manifest: join(out, MANIFEST_MIGRATIONS) } });
  const vouchers = (columns: string, table = 'vouchers') => db.query(`SELECT ${columns} FROM ${table} ORDER BY id`);
  const applied = async () =>
    (
      await db.query<{ version: string }>(
        `SELECT version FROM schema_migrations WHERE version LIKE 'manifest/%' ORDER BY version`,
      )
    ).map((row) => row.version);

  beforeAll(async () => {
    if (skip) return;
    out = await mkdtemp(join(tmpdir(), 'migration-series-'));
    schema = kind === 'postgres' ? `series_${randomBytes(6).toString('hex')}` : null;
    db = kind === 'postgres' ? await openPostgres(TEST_DATABASE_URL, schema, 2) : await openPglite(null);
  });
  afterAll(async () => {
    if (skip) return;
    if (schema) await db.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
    await db.close();
    await rm(out, { recursive: true, force: true });
  });

  it.skipIf(skip)(`${versions[0]}: the first migration creates the tables, which get rows and grants`, async () => {
    await writeMigration(versions[0]!, out);
    await apply();
    const [basic, pro] = await db.query<{ id: number }>(
      `INSERT INTO plans (name, code) VALUES ('Basic', 'BASIC'), ('Pro', 'PRO') RETURNING id`,
    );
    Object.assign(ids, { basic: basic!.id, pro: pro!.id });
    const rows = await db.query<{ id: number; code: string }>(
      `INSERT INTO vouchers (code, description, discount_type, usage_limit, plan_id, internal_note, legacy_ref) VALUES
         ('A1', 'Spring sale', 'percent', 5, $1, 'note a', 'L1'),
         ('B2', 'Winter', NULL, NULL, $2, NULL, 'L2'),
         ('C3', 'Spring sale', 'fixed', 10, $1, NULL, NULL),
         ('D4', NULL, 'flat', 7, NULL, NULL, NULL)
       RETURNING id, code`,
      [ids.basic, ids.pro],
    );
    for (const row of rows) ids[row.code] = row.id;
    await db.query(`INSERT INTO tags (label) VALUES ('red'), ('blue')`);
    const [role] = await db.query<{ id: number }>(`INSERT INTO roles (name) VALUES ('Editors') RETURNING id`);
    await db.query(
      `INSERT INTO role_permissions (role_id, module, action) VALUES ($1, 'TAG', 'view'), ($1, 'OFFER', 'view'), ($1, 'OFFER', 'download')`,
      [role!.id],
    );
  });

  it.skipIf(skip)(
    `${versions[1]}: a declared rename keeps every value under the new name; a widening conversion converts them all`,
    async () => {
      await writeMigration(versions[1]!, out);
      expect((await apply()).applied).toEqual(['manifest/0002_details']);
      expect(await vouchers('code, details, usage_limit')).toEqual([
        { code: 'A1', details: 'Spring sale', usage_limit: '5' },
        { code: 'B2', details: 'Winter', usage_limit: null },
        { code: 'C3', details: 'Spring sale', usage_limit: '10' },
        { code: 'D4', details: null, usage_limit: '7' },
      ]);
      const [search] = await db.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'vouchers_search_idx'`,
      );
      expect(search!.indexdef).toContain('details');
      const [row] = await db.query<{ id: number }>(
        `INSERT INTO vouchers (code, details, discount_type, usage_limit, plan_id) VALUES ('E5', 'Autumn', 'percent', 'lots', $1) RETURNING id`,
        [ids.pro],
      );
      ids.E5 = row!.id;
    },
  );

  it.skipIf(skip)(
    `${versions[2]}: a new required field is backfilled with the declared value, one made required with the manifest's default`,
    async () => {
      await writeMigration(versions[2]!, out);
      await apply();
      expect(await vouchers('code, discount_type, priority')).toEqual([
        { code: 'A1', discount_type: 'percent', priority: 3 },
        { code: 'B2', discount_type: 'percent', priority: 3 },
        { code: 'C3', discount_type: 'fixed', priority: 3 },
        { code: 'D4', discount_type: 'flat', priority: 3 },
        { code: 'E5', discount_type: 'percent', priority: 3 },
      ]);
      // The backfill is for the rows already stored: the column keeps no default.
      expect(
        await db.query(
          `SELECT column_default FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'vouchers' AND column_name = 'priority'`,
        ),
      ).toEqual([{ column_default: null }]);
    },
  );

  it.skipIf(skip)(
    `${versions[3]}: a narrowed enum refuses the rows holding a removed value, by id, changing nothing; once they change it applies`,
    async () => {
      await writeMigration(versions[3]!, out);
      await expect(apply()).rejects.toThrow(
        `Migration manifest/0004_no_fixed_discounts, step 1 (check that vouchers.discount_type holds only percent, flat) stopped: 1 row(s) of vouchers hold a discount_type no longer allowed (allowed: percent, flat): id ${ids.C3}. List them all with: SELECT id FROM "vouchers" WHERE`,
      );
      expect(await applied()).not.toContain('manifest/0004_no_fixed_discounts');
      await db.query(`UPDATE vouchers SET discount_type = 'flat' WHERE code = 'C3'`);
      expect((await apply()).applied).toEqual(['manifest/0004_no_fixed_discounts']);
    },
  );

  it.skipIf(skip)(
    `${versions[4]}: a new unique key refuses the rows that break it, by id; once they are unique it applies and holds`,
    async () => {
      await writeMigration(versions[4]!, out);
      await expect(apply()).rejects.toThrow(
        `2 row(s) of vouchers break the new unique key (plan_id, details): id ${ids.A1}, ${ids.C3}.`,
      );
      await db.query(`UPDATE vouchers SET details = 'Spring sale again' WHERE code = 'C3'`);
      await apply();
      await expect(
        db.query(`INSERT INTO vouchers (code, details, plan_id) VALUES ('F6', 'Winter', $1)`, [ids.pro]),
      ).rejects.toMatchObject({ code: '23505', constraint: 'vouchers_plan_id_details_key' });
    },
  );

  it.skipIf(skip)(
    `${versions[5]}: a narrowing conversion refuses the values that do not convert, by id, changing nothing; once fixed, every value converts`,
    async () => {
      await writeMigration(versions[5]!, out);
      await expect(apply()).rejects.toThrow(
        `1 row(s) of vouchers hold a usage_limit that does not convert from text to bigint: id ${ids.E5}.`,
      );
      expect(await vouchers('usage_limit')).toEqual([
        { usage_limit: '5' },
        { usage_limit: null },
        { usage_limit: '10' },
        { usage_limit: '7' },
        { usage_limit: 'lots' },
      ]);
      await db.query(`UPDATE vouchers SET usage_limit = '12' WHERE code = 'E5'`);
      await apply();
      expect(await vouchers('code, usage_limit')).toEqual([
        { code: 'A1', usage_limit: 5 },
        { code: 'B2', usage_limit: null },
        { code: 'C3', usage_limit: 10 },
        { code: 'D4', usage_limit: 7 },
        { code: 'E5', usage_limit: 12 },
      ]);
    },
  );

  it.skipIf(skip)(
    `${versions[6]}: removed fields and a removed table keep their values in tables of their own, a dropped field loses them, and the grants of what is gone are deleted`,
    async () => {
      await writeMigration(versions[6]!, out);
      await apply();
      const columns = await db.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'vouchers'`,
      );
      expect(columns.map((column) => column.column_name)).not.toEqual(expect.arrayContaining(['plan_id']));
      expect(
        columns
          .map((column) => column.column_name)
          .filter((name) => ['plan_id', 'internal_note', 'legacy_ref'].includes(name)),
      ).toEqual([]);
      expect(await db.query<Row>('SELECT * FROM vouchers_removed_0007 ORDER BY id')).toEqual([
        { id: ids.A1, plan_id: ids.basic, internal_note: 'note a' },
        { id: ids.B2, plan_id: ids.pro, internal_note: null },
        { id: ids.C3, plan_id: ids.basic, internal_note: null },
        { id: ids.E5, plan_id: ids.pro, internal_note: null },
      ]);
      expect(await db.query(`SELECT label FROM tags_removed_0007 ORDER BY id`)).toEqual([
        { label: 'red' },
        { label: 'blue' },
      ]);
      expect(await db.query("SELECT to_regclass('tags')::text AS name")).toEqual([{ name: null }]);
      expect(await db.query(`SELECT module, action FROM role_permissions ORDER BY module, action`)).toEqual([
        { module: 'OFFER', action: 'view' },
      ]);
      // The removed relation no longer holds the plans its rows pointed at.
      await db.query(`DELETE FROM plans WHERE code = 'BASIC'`);
    },
  );

  it.skipIf(skip)(`${versions[7]}: a renamed table keeps its rows, keys and grants under the new names`, async () => {
    await writeMigration(versions[7]!, out);
    await apply();
    expect(await vouchers('id, code, details', 'coupons')).toEqual([
      { id: ids.A1, code: 'A1', details: 'Spring sale' },
      { id: ids.B2, code: 'B2', details: 'Winter' },
      { id: ids.C3, code: 'C3', details: 'Spring sale again' },
      { id: ids.D4, code: 'D4', details: null },
      { id: ids.E5, code: 'E5', details: 'Autumn' },
    ]);
    expect(await db.query(`SELECT module, action FROM role_permissions ORDER BY module, action`)).toEqual([
      { module: 'COUPON', action: 'view' },
    ]);
    await expect(db.query(`INSERT INTO coupons (code) VALUES ('A1')`)).rejects.toMatchObject({
      code: '23505',
      constraint: 'coupons_code_key',
    });
    const [updated] = await db.query<{ version: number }>(
      `UPDATE coupons SET details = 'Spring' WHERE code = 'A1' RETURNING version`,
    );
    expect(updated!.version).toBeGreaterThan(1);
  });

  it.skipIf(skip)(
    `${versions[8]}: a changed search list builds the search index again over the new fields; the sort index follows the sort`,
    async () => {
      await writeMigration(versions[8]!, out);
      await apply();
      const indexes = await db.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'coupons' ORDER BY indexname`,
      );
      expect(indexes.map((index) => index.indexname)).toEqual([
        'coupons_code_key',
        'coupons_details_sort_idx',
        'coupons_pkey',
        'coupons_search_idx',
      ]);
      expect(indexes.find((index) => index.indexname === 'coupons_search_idx')!.indexdef).toContain('discount_type');
      const search = `lower(coalesce("code", '') || ' ' || coalesce("details", '') || ' ' || coalesce("discount_type", ''))`;
      expect(await db.query(`SELECT code FROM coupons WHERE ${search} LIKE '%flat%' ORDER BY id`)).toEqual([
        { code: 'C3' },
        { code: 'D4' },
      ]);
      expect(await applied()).toEqual(
        versions.map((_version, index) => expect.stringMatching(new RegExp(`^manifest/000${index + 1}_`))),
      );
    },
  );
});
