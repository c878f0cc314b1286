import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { SEARCH_INDEX_STORAGE } from '../../codegen/migrations/tableSql.ts';
import { DATA_SHAPE } from '../registry.ts';
import { TEST_DATABASE_URL, testDatabases } from '../testing/testServer.ts';
import type { Database } from './database.ts';
import { DEFAULT_SOURCES, sha256 } from './knownMigrations.ts';
import { migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres, quoteIdentifier } from './postgres.ts';

const databases = await testDatabases();
const INITIAL = await readFile(join(DEFAULT_SOURCES.manifest, '0001_initial.sql'), 'utf8');
/** The committed manifest migrations in order, e.g. `manifest/0001_initial`: what a new database applies after the core ones. */
const MANIFEST_VERSIONS = (await readdir(DEFAULT_SOURCES.manifest))
  .filter((file) => file.endsWith('.sql'))
  .sort()
  .map((file) => `manifest/${file.slice(0, -'.sql'.length)}`);
const LAST_MANIFEST = MANIFEST_VERSIONS.at(-1)!;
const LAST_CORE = (await readdir(DEFAULT_SOURCES.core))
  .filter((file) => file.endsWith('.sql'))
  .sort()
  .at(-1)!
  .slice(0, -'.sql'.length);
const LOOKUP_KEY =
  'CREATE UNIQUE INDEX IF NOT EXISTS "lookups_lookup_type_id_code_key" ON "lookups" ("lookup_type_id", "code");';
const VERSION_COLUMN = /^ALTER TABLE "[a-z_]+" ADD COLUMN IF NOT EXISTS version integer NOT NULL DEFAULT 1;\n/gm;
const VERSION_TRIGGER =
  /^DO \$\$ BEGIN\n {2}IF NOT EXISTS \(SELECT 1 FROM pg_trigger WHERE tgrelid = '"[a-z_]+"'::regclass AND tgname = '[a-z_]+_record_version'\) THEN\n.*\n {2}END IF;\nEND \$\$;\n/gm;

async function emptyFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'migrations-'));
  onTestFinished(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

/** A copy of the committed migrations that a test may change. */
async function migrationsCopy(): Promise<{ core: string; manifest: string }> {
  const folder = await emptyFolder();
  await cp(DEFAULT_SOURCES.manifest, join(folder, 'manifest'), { recursive: true });
  return { core: DEFAULT_SOURCES.core, manifest: join(folder, 'manifest') };
}

describe.each(databases)('migrations at start, on $kind', ({ kind, skip }) => {
  let db: Database | null = null;
  let schema: string | null = null;
  afterEach(async () => {
    if (schema) await db?.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
    await db?.close();
    db = null;
  });

  async function open(): Promise<Database> {
    schema = kind === 'postgres' ? `test_${randomBytes(6).toString('hex')}` : null;
    db = kind === 'postgres' ? await openPostgres(TEST_DATABASE_URL, schema, 2) : await openPglite(null);
    return db;
  }

  /** A database as the server made it before the manifest had migrations: its tables' SQL applied whole, recorded by hash. */
  async function formerDatabase(tablesSql: string): Promise<Database> {
    const opened = await open();
    await migrate(opened, { sources: { core: DEFAULT_SOURCES.core, manifest: await emptyFolder() } });
    await opened.exec(tablesSql);
    await opened.query('INSERT INTO schema_migrations (version, checksum) VALUES ($1, $2)', [
      `manifest_tables_${sha256(tablesSql).slice(0, 16)}`,
      sha256(tablesSql),
    ]);
    return opened;
  }

  const versions = async () =>
    (await db!.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version')).map(
      (row) => row.version,
    );

  it.skipIf(skip)(
    'every search index of a migrated database keeps the storage new ones are made with: a pending list of 64 kB at most',
    async () => {
      const opened = await open();
      await migrate(opened);
      const indexes = await opened.query<{ name: string; options: string[] }>(
        `SELECT c.relname AS name, c.reloptions AS options FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relkind = 'i' AND c.relname LIKE '%\\_search\\_idx' ORDER BY 1`,
      );
      const searched = Object.entries(DATA_SHAPE.tables).filter(([, table]) => table.search.length > 0);
      expect(indexes.map((index) => index.name)).toEqual(searched.map(([table]) => `${table}_search_idx`).sort());
      const storage = SEARCH_INDEX_STORAGE.split(', ').map((option) => option.replace(' = ', '='));
      for (const index of indexes) expect(index.options, index.name).toEqual(storage);
    },
  );

  it.skipIf(skip)(
    'a database made before migrations is adopted by the first one with its rows; a unique key its rows break stops the start, naming table, key and query, and changes nothing',
    async () => {
      expect(INITIAL).toContain(LOOKUP_KEY);
      const former = await formerDatabase(INITIAL.replace(`${LOOKUP_KEY}\n`, ''));
      const [type] = await former.query<{ id: number }>(
        `INSERT INTO lookup_types (code, name) VALUES ('colour', 'Colour') RETURNING id`,
      );
      await former.query(
        `INSERT INTO lookups (lookup_type_id, code, label) VALUES ($1, 'red', 'Red'), ($1, 'red', 'Red again'), ($1, 'blue', 'Blue')`,
        [type!.id],
      );
      const before = await versions();

      const failed = migrate(former);
      await expect(failed).rejects.toThrow('Migration manifest/0001_initial, step ');
      await expect(failed).rejects.toThrow(
        `Cannot apply the manifest's tables: rows of table "lookups" already break its new unique key "lookups_lookup_type_id_code_key" on ("lookup_type_id", "code"): Key (lookup_type_id, code)=(`,
      );
      await expect(failed).rejects.toThrow(
        `SELECT "lookup_type_id", "code", count(*) FROM "lookups" WHERE "lookup_type_id" IS NOT NULL AND "code" IS NOT NULL GROUP BY "lookup_type_id", "code" HAVING count(*) > 1;`,
      );
      expect(await versions()).toEqual(before);
      expect(await former.query('SELECT code, label FROM lookups ORDER BY id')).toEqual([
        { code: 'red', label: 'Red' },
        { code: 'red', label: 'Red again' },
        { code: 'blue', label: 'Blue' },
      ]);
      expect(
        await former.query(
          `SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'lookups_lookup_type_id_code_key'`,
        ),
      ).toEqual([]);

      await former.query(`UPDATE lookups SET code = 'crimson' WHERE label = 'Red again'`);
      expect((await migrate(former, { manifestShape: DATA_SHAPE })).applied).toEqual(MANIFEST_VERSIONS);
      expect(await former.query('SELECT code FROM lookups ORDER BY id')).toEqual([
        { code: 'red' },
        { code: 'crimson' },
        { code: 'blue' },
      ]);
      await expect(
        former.query(`INSERT INTO lookups (lookup_type_id, code, label) VALUES ($1, 'blue', 'Blue again')`, [type!.id]),
      ).rejects.toMatchObject({
        code: '23505',
        constraint: 'lookups_lookup_type_id_code_key',
      });
      expect((await migrate(former)).applied).toEqual([]);
    },
  );

  it.skipIf(skip)(
    'a database made before records had versions gains the version column with every row kept at 1, and updates move it on',
    async () => {
      const unversioned = INITIAL.replace(VERSION_COLUMN, '').replace(VERSION_TRIGGER, '');
      expect(unversioned).not.toMatch(/ADD COLUMN IF NOT EXISTS version|CREATE TRIGGER "[a-z_]+_record_version"/);
      const former = await formerDatabase(unversioned);
      await former.query(
        `INSERT INTO vouchers (code, discount_type, discount_value, valid_from, valid_to) VALUES ('OLD1', 'percent', 5, '2026-01-01', '2026-02-01'), ('OLD2', 'flat', 100, '2026-03-01', '2026-04-01')`,
      );
      expect(
        await former.query(
          `SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'vouchers' AND column_name = 'version'`,
        ),
      ).toEqual([]);

      expect((await migrate(former)).applied).toEqual(MANIFEST_VERSIONS);
      expect(await former.query('SELECT code, discount_value, version FROM vouchers ORDER BY id')).toEqual([
        { code: 'OLD1', discount_value: 5, version: 1 },
        { code: 'OLD2', discount_value: 100, version: 1 },
      ]);
      await former.query(`UPDATE vouchers SET discount_value = 6 WHERE code = 'OLD1'`);
      expect(await former.query('SELECT code, version FROM vouchers ORDER BY id')).toEqual([
        { code: 'OLD1', version: 2 },
        { code: 'OLD2', version: 1 },
      ]);
    },
  );

  it.skipIf(skip)(
    'a database migrated by a newer version of the code is refused, naming what it has that this code lacks, and nothing is changed',
    async () => {
      const opened = await open();
      await migrate(opened);
      await opened.query(
        `INSERT INTO schema_migrations (version, checksum) VALUES ('manifest/9002_coupons', 'abc'), ('099_audit_log', 'def')`,
      );
      const before = await versions();
      await expect(migrate(opened)).rejects.toThrow(
        `The database was migrated by a newer version of the code: it applied 099_audit_log, manifest/9002_coupons, which this version does not have (its last migrations are ${LAST_CORE} and ${LAST_MANIFEST}). Nothing was changed.`,
      );
      expect(await versions()).toEqual(before);
    },
  );

  it.skipIf(skip)(
    'diverged: an applied migration changed since, one numbered like another the database applied, and one below the last applied are refused',
    async () => {
      const sources = await migrationsCopy();
      const opened = await open();
      await migrate(opened, { sources });
      const initial = join(sources.manifest, '0001_initial.sql');
      await writeFile(initial, `${await readFile(initial, 'utf8')}\n-- a late edit\n`);
      await expect(migrate(opened, { sources })).rejects.toThrow(
        /^The database and the code have diverged: migration manifest\/0001_initial was changed after this database applied it \(applied [0-9a-f]{12}, file now [0-9a-f]{12}\)\. Nothing was changed\./,
      );

      await cp(DEFAULT_SOURCES.manifest, sources.manifest, { recursive: true });
      await opened.query(`INSERT INTO schema_migrations (version, checksum) VALUES ('manifest/9002_coupons', 'abc')`);
      const shape = await readFile(join(sources.manifest, '0001_initial.shape.json'), 'utf8');
      await writeFile(join(sources.manifest, '9002_vouchers.sql'), '-- step: nothing\nSELECT 1;\n');
      await writeFile(join(sources.manifest, '9002_vouchers.shape.json'), shape);
      await expect(migrate(opened, { sources })).rejects.toThrow(
        'The database and the code have diverged: the database applied manifest/9002_coupons, which this code numbers differently (manifest/9002_vouchers).',
      );

      await opened.query(`DELETE FROM schema_migrations WHERE version = 'manifest/9002_coupons'`);
      await writeFile(join(sources.manifest, '9003_plans.sql'), '-- step: nothing\nSELECT 1;\n');
      await writeFile(join(sources.manifest, '9003_plans.shape.json'), shape);
      await opened.query(`INSERT INTO schema_migrations (version, checksum) VALUES ('manifest/9003_plans', $1)`, [
        sha256('-- step: nothing\nSELECT 1;\n'),
      ]);
      await expect(migrate(opened, { sources })).rejects.toThrow(
        'The database and the code have diverged: it applied manifest/9003_plans but never manifest/9002_vouchers, which comes before it.',
      );
      expect(await versions()).not.toContain('manifest/9002_vouchers');
    },
  );

  it.skipIf(skip)(
    'a database changed outside its migrations (a field dropped, a type changed, a key dropped by hand) is refused at start, naming each difference',
    async () => {
      const opened = await open();
      await migrate(opened);
      await opened.exec(
        `ALTER TABLE vouchers DROP COLUMN description; ALTER TABLE vouchers ALTER COLUMN usage_limit TYPE text; DROP INDEX vouchers_code_key`,
      );
      await expect(migrate(opened)).rejects.toThrow(
        `The database is not in the shape its migrations leave (${LAST_MANIFEST}): vouchers.description is missing; vouchers.usage_limit is text, not bigint; ` +
          'the unique key of vouchers (code), index vouchers_code_key, is missing. Nothing was changed.',
      );
    },
  );

  it.skipIf(skip)(
    'a manifest whose data shape no committed migration makes is refused before the database is touched',
    async () => {
      const opened = await open();
      const vouchers = DATA_SHAPE.tables.vouchers!;
      const { description, ...columns } = vouchers.columns;
      const renamed = {
        ...DATA_SHAPE,
        tables: { ...DATA_SHAPE.tables, vouchers: { ...vouchers, columns: { ...columns, details: description! } } },
      };
      await expect(migrate(opened, { manifestShape: renamed })).rejects.toThrow(
        "The manifest's data shape is not the one its migrations (server/migrations/manifest) make: vouchers.description is gone; vouchers.details is new (text). Nothing was changed. Write the migration",
      );
      expect(await opened.query("SELECT to_regclass('schema_migrations')::text AS name")).toEqual([{ name: null }]);
    },
  );
});
