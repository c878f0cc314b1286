import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PG, isDatabaseError, type Database, type Queryable } from './database.ts';
import { startupTransaction } from './startupLock.ts';

const MIGRATIONS_DIR = new URL('../migrations/', import.meta.url).pathname;
const TABLES_SQL = new URL('../generated/tables.sql', import.meta.url).pathname;

export interface MigrationReport {
  applied: string[];
}

/**
 * Applies the numbered core migrations once each, then the manifest's tables (idempotent and additive),
 * recorded by their hash so an unchanged manifest costs nothing at start.
 */
export async function migrate(db: Database, tablesSql?: string): Promise<MigrationReport> {
  const migrations = await knownMigrations(tablesSql);
  return startupTransaction(db, async (tx) => {
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = await recordedMigrations(tx);
    const applied: string[] = [];
    for (const migration of migrations) {
      const { checksum } = migration;
      const previous = done.get(migration.version);
      if (previous === checksum) continue;
      if (previous !== undefined) throw new Error(`Migration ${migration.version} was changed after it was applied; add a new numbered migration instead.`);
      try {
        await tx.exec(migration.sql);
      } catch (error) {
        throw uniqueKeyBuildError(error, migration.sql) ?? error;
      }
      await tx.query('INSERT INTO schema_migrations (version, checksum) VALUES ($1, $2)', [migration.version, checksum]);
      applied.push(migration.version);
    }
    return { applied };
  });
}

interface Migration {
  version: string;
  sql: string;
  checksum: string;
}

/** The numbered core migrations in order, then the manifest's tables. */
async function knownMigrations(tablesSql?: string): Promise<Migration[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name)).sort();
  const core = await Promise.all(files.map(async (name) => ({ version: name.replace(/\.sql$/, ''), sql: await readFile(join(MIGRATIONS_DIR, name), 'utf8') })));
  const manifestSql = tablesSql ?? (await readFile(TABLES_SQL, 'utf8'));
  return [...core, { version: `manifest_tables_${sha256(manifestSql).slice(0, 16)}`, sql: manifestSql }].map((migration) => ({ ...migration, checksum: sha256(migration.sql) }));
}

async function recordedMigrations(db: Queryable): Promise<Map<string, string>> {
  return new Map((await db.query<{ version: string; checksum: string }>('SELECT version, checksum FROM schema_migrations')).map((row) => [row.version, row.checksum]));
}

let defaultMigrations: Promise<Migration[]> | null = null;

/** The versions of the known migrations this database has not recorded as applied (`GET /readyz`). */
export async function pendingMigrations(db: Queryable): Promise<string[]> {
  defaultMigrations ??= knownMigrations();
  const [known, [table]] = await Promise.all([defaultMigrations, db.query<{ name: string | null }>("SELECT to_regclass('schema_migrations')::text AS name")]);
  const done = table?.name ? await recordedMigrations(db) : new Map<string, string>();
  return known.filter((migration) => done.get(migration.version) !== migration.checksum).map((migration) => migration.version);
}

/**
 * A unique key new to the manifest cannot be built over rows that already break it, and PostgreSQL says only "could not
 * create unique index". The migration is one transaction, so nothing was changed (no row is ever dropped to make a key
 * fit): name the table and the key, and give the query that lists the clashing values.
 */
function uniqueKeyBuildError(error: unknown, sql: string): Error | null {
  if (!isDatabaseError(error) || error.code !== PG.uniqueViolation || !error.constraint) return null;
  const statement = sql.split('\n').find((line) => line.startsWith(`CREATE UNIQUE INDEX IF NOT EXISTS "${error.constraint}" ON `));
  const [, table, columns] = /ON "([^"]+)" \((.+)\);$/.exec(statement ?? '') ?? [];
  if (!table || !columns) return null;
  const present = columns.split(', ').map((column) => `${column} IS NOT NULL`).join(' AND ');
  return new Error(
    `Cannot apply the manifest's tables: rows of table "${table}" already break its new unique key "${error.constraint}" on (${columns})` +
      `${error.detail ? `: ${error.detail}` : '.'} Nothing was changed. List the clashing values with\n` +
      `  SELECT ${columns}, count(*) FROM "${table}" WHERE ${present} GROUP BY ${columns} HAVING count(*) > 1;\n` +
      'then make those rows unique (edit or delete the extra ones), or take the key out of the manifest, and start again.',
    { cause: error },
  );
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
