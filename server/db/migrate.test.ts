import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL, testDatabases } from '../testing/testServer.ts';
import type { Database } from './database.ts';
import { migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres, quoteIdentifier } from './postgres.ts';

const databases = await testDatabases();
const TABLES_SQL = await readFile(new URL('../generated/tables.sql', import.meta.url), 'utf8');
const LOOKUP_KEY = 'CREATE UNIQUE INDEX IF NOT EXISTS "lookups_lookup_type_id_code_key" ON "lookups" ("lookup_type_id", "code");';

describe.each(databases)('the manifest tables on an existing database, on $kind', ({ kind, skip }) => {
  let db: Database | null = null;
  let schema: string | null = null;
  afterEach(async () => {
    if (schema) await db?.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
    await db?.close();
    db = null;
  });

  it.skipIf(skip)('a new composite unique key that existing rows break stops the start with the table, key and query, and changes nothing', async () => {
    schema = kind === 'postgres' ? `test_${randomBytes(6).toString('hex')}` : null;
    db = kind === 'postgres' ? await openPostgres(TEST_DATABASE_URL, schema, 2) : await openPglite(null);
    // A database made by the manifest before lookups had their key, holding a code twice in one type.
    expect(TABLES_SQL).toContain(LOOKUP_KEY);
    await migrate(db, TABLES_SQL.replace(`${LOOKUP_KEY}\n`, ''));
    const [type] = await db.query<{ id: number }>(`INSERT INTO lookup_types (code, name) VALUES ('colour', 'Colour') RETURNING id`);
    await db.query(`INSERT INTO lookups (lookup_type_id, code, label) VALUES ($1, 'red', 'Red'), ($1, 'red', 'Red again'), ($1, 'blue', 'Blue')`, [type!.id]);
    const migrationsBefore = await db.query('SELECT version FROM schema_migrations ORDER BY version');

    const failed = migrate(db);
    await expect(failed).rejects.toThrow(
      `Cannot apply the manifest's tables: rows of table "lookups" already break its new unique key "lookups_lookup_type_id_code_key" on ("lookup_type_id", "code"): Key (lookup_type_id, code)=(`,
    );
    await expect(failed).rejects.toThrow(
      `SELECT "lookup_type_id", "code", count(*) FROM "lookups" WHERE "lookup_type_id" IS NOT NULL AND "code" IS NOT NULL GROUP BY "lookup_type_id", "code" HAVING count(*) > 1;`,
    );
    expect(await db.query('SELECT version FROM schema_migrations ORDER BY version')).toEqual(migrationsBefore);
    expect(await db.query('SELECT code, label FROM lookups ORDER BY id')).toEqual([
      { code: 'red', label: 'Red' },
      { code: 'red', label: 'Red again' },
      { code: 'blue', label: 'Blue' },
    ]);
    expect(await db.query(`SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'lookups_lookup_type_id_code_key'`)).toEqual([]);

    // The query lists the clash; once resolved, the next start applies the key.
    const clashes = await db.query(
      `SELECT "lookup_type_id", "code", count(*)::int AS count FROM "lookups" WHERE "lookup_type_id" IS NOT NULL AND "code" IS NOT NULL GROUP BY "lookup_type_id", "code" HAVING count(*) > 1`,
    );
    expect(clashes).toEqual([{ lookup_type_id: type!.id, code: 'red', count: 2 }]);
    await db.query(`UPDATE lookups SET code = 'crimson' WHERE label = 'Red again'`);
    expect((await migrate(db)).applied).toEqual([expect.stringMatching(/^manifest_tables_/)]);
    await expect(db.query(`INSERT INTO lookups (lookup_type_id, code, label) VALUES ($1, 'blue', 'Blue again')`, [type!.id])).rejects.toMatchObject({
      code: '23505',
      constraint: 'lookups_lookup_type_id_code_key',
    });
  });

  it.skipIf(skip)('a database made before records had versions gains the version column with every row kept at 1, and updates move it on', async () => {
    schema = kind === 'postgres' ? `test_${randomBytes(6).toString('hex')}` : null;
    db = kind === 'postgres' ? await openPostgres(TEST_DATABASE_URL, schema, 2) : await openPglite(null);
    const unversioned = TABLES_SQL.replace(/^ALTER TABLE "[a-z_]+" ADD COLUMN IF NOT EXISTS version integer NOT NULL DEFAULT 1;\n/gm, '').replace(
      /^DO \$\$ BEGIN\n {2}IF NOT EXISTS \(SELECT 1 FROM pg_trigger WHERE tgrelid = '"[a-z_]+"'::regclass AND tgname = '[a-z_]+_record_version'\) THEN\n.*\n {2}END IF;\nEND \$\$;\n/gm,
      '',
    );
    expect(unversioned).not.toMatch(/ADD COLUMN IF NOT EXISTS version|CREATE TRIGGER "[a-z_]+_record_version"/);
    await migrate(db, unversioned);
    await db.query(`INSERT INTO vouchers (code, discount_type, discount_value, valid_from, valid_to) VALUES ('OLD1', 'percent', 5, '2026-01-01', '2026-02-01'), ('OLD2', 'flat', 100, '2026-03-01', '2026-04-01')`);
    expect(await db.query(`SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'vouchers' AND column_name = 'version'`)).toEqual([]);

    expect((await migrate(db)).applied).toEqual([expect.stringMatching(/^manifest_tables_/)]);
    expect(await db.query('SELECT code, discount_value, version FROM vouchers ORDER BY id')).toEqual([
      { code: 'OLD1', discount_value: 5, version: 1 },
      { code: 'OLD2', discount_value: 100, version: 1 },
    ]);
    await db.query(`UPDATE vouchers SET discount_value = 6 WHERE code = 'OLD1'`);
    expect(await db.query('SELECT code, version FROM vouchers ORDER BY id')).toEqual([
      { code: 'OLD1', version: 2 },
      { code: 'OLD2', version: 1 },
    ]);
  });
});
