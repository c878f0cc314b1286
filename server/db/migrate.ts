import { shapeDifferences, type DataShape } from '../../contract/dataShape.ts';
import { MANIFEST_MIGRATIONS } from '../../contract/manifestMigrations.ts';
import type { MigrationStep } from '../../contract/migrationSteps.ts';
import { tableExists } from './catalog.ts';
import { PG, isDatabaseError, type Database, type Queryable } from './database.ts';
import { DEFAULT_SOURCES, knownMigrations, type Migration, type MigrationSources } from './knownMigrations.ts';
import { schemaDifferences } from './schemaCheck.ts';
import { startupTransaction } from './startupLock.ts';

export interface MigrationReport {
  applied: string[];
}

export interface MigrateOptions {
  sources?: MigrationSources;
  /** The data shape the running code's manifest has: the migrations must leave exactly it (the server's start). */
  manifestShape?: DataShape;
}

/** Why the database was not migrated; nothing was changed. The server prints it and does not start. */
export class MigrationRefused extends Error {}

/** Versions the first way of applying the manifest recorded (its whole SQL, by hash): the first migration adopts them. */
const FORMER_MANIFEST_RECORD = /^manifest_tables_[0-9a-f]+$/;

/**
 * Applies the pending migrations, core then manifest, in one transaction under the start-up lock, each recorded with
 * its checksum; then holds the database to the data shape the last one records. Refuses, changing nothing, a
 * database migrated by code this one does not know (ahead), one whose applied migrations differ from the files or
 * skip one (diverged), and one that is not in its recorded shape.
 */
export async function migrate(db: Database, options: MigrateOptions = {}): Promise<MigrationReport> {
  const known = await knownMigrations(options.sources ?? DEFAULT_SOURCES);
  if (options.manifestShape) requireMigratedManifest(known.shape, options.manifestShape);
  return startupTransaction(db, async (tx) => {
    await fireTriggersAtOnce(tx);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const pending = pendingMigrations(known.migrations, await recordedMigrations(tx));
    for (const migration of pending) {
      for (const [index, step] of migration.steps.entries()) {
        try {
          await tx.exec(step.sql);
        } catch (error) {
          throw stepFailure(migration, index, step, error);
        }
      }
      await tx.query('INSERT INTO schema_migrations (version, checksum) VALUES ($1, $2)', [
        migration.version,
        migration.checksum,
      ]);
    }
    if (known.shape) await requireRecordedShape(tx, known.shape, known.migrations.at(-1)!.version);
    return { applied: pending.map((migration) => migration.version) };
  });
}

/** The known migrations this database has not applied, in order; refused when it is ahead of or diverged from them. */
export function pendingMigrations(known: readonly Migration[], recorded: ReadonlyMap<string, string>): Migration[] {
  const versions = new Set(known.map((migration) => migration.version));
  const unknown = [...recorded.keys()]
    .filter((version) => !versions.has(version) && !FORMER_MANIFEST_RECORD.test(version))
    .sort();
  const numbered = (version: string) => /^(?:manifest\/)?(\d+)_/.exec(version)?.[1];
  const clashing = unknown.filter((version) =>
    known.some(
      (migration) => migration.series === seriesOf(version) && numbered(migration.version) === numbered(version),
    ),
  );
  if (clashing.length > 0) {
    throw new MigrationRefused(
      `The database and the code have diverged: the database applied ${clashing.join(', ')}, which this code numbers differently ` +
        `(${clashing.map((version) => known.find((migration) => migration.series === seriesOf(version) && numbered(migration.version) === numbered(version))!.version).join(', ')}). ` +
        'Nothing was changed. Migrations written on two branches must be made one sequence before either is deployed: start the code that made this database.',
    );
  }
  if (unknown.length > 0) {
    const last = (series: string) => known.filter((migration) => migration.series === series).at(-1)?.version ?? 'none';
    throw new MigrationRefused(
      `The database was migrated by a newer version of the code: it applied ${unknown.join(', ')}, which this version does not have ` +
        `(its last migrations are ${last('core')} and ${last('manifest')}). Nothing was changed. Start the newer version, or restore a backup made by this one.`,
    );
  }
  for (const migration of known) {
    const checksum = recorded.get(migration.version);
    if (checksum !== undefined && checksum !== migration.checksum) {
      throw new MigrationRefused(
        `The database and the code have diverged: migration ${migration.version} was changed after this database applied it ` +
          `(applied ${checksum.slice(0, 12)}, file now ${migration.checksum.slice(0, 12)}). Nothing was changed. Put the file back as it was applied ` +
          'and make the change a new migration (npm run make-migration).',
      );
    }
  }
  const pending = known.filter((migration) => !recorded.has(migration.version));
  for (const migration of pending) {
    const later = known.find(
      (other) => other.series === migration.series && other.version > migration.version && recorded.has(other.version),
    );
    if (later) {
      throw new MigrationRefused(
        `The database and the code have diverged: it applied ${later.version} but never ${migration.version}, which comes before it. ` +
          'Nothing was changed. A migration added below one already applied cannot be applied in order: renumber it after the last applied one.',
      );
    }
  }
  return pending;
}

/**
 * Deferred triggers (the data version's) fire with each statement instead of at commit: PostgreSQL refuses to alter
 * a table with trigger events still pending, as a step that fills rows and then alters their table would leave.
 */
export async function fireTriggersAtOnce(tx: Queryable): Promise<void> {
  await tx.exec('SET CONSTRAINTS ALL IMMEDIATE');
}

function seriesOf(version: string): Migration['series'] {
  return version.startsWith('manifest/') ? 'manifest' : 'core';
}

export async function recordedMigrations(db: Queryable): Promise<Map<string, string>> {
  return new Map(
    (await db.query<{ version: string; checksum: string }>('SELECT version, checksum FROM schema_migrations')).map(
      (row) => [row.version, row.checksum],
    ),
  );
}

let defaultMigrations: Promise<Migration[]> | null = null;

/** The versions of the known migrations this database has not recorded as applied (`GET /readyz`). */
export async function unappliedMigrations(db: Queryable): Promise<string[]> {
  defaultMigrations ??= knownMigrations(DEFAULT_SOURCES).then((known) => known.migrations);
  const [known, recording] = await Promise.all([defaultMigrations, tableExists(db, 'schema_migrations')]);
  const done = recording ? await recordedMigrations(db) : new Map<string, string>();
  return known
    .filter((migration) => done.get(migration.version) !== migration.checksum)
    .map((migration) => migration.version);
}

/** The server's manifest has changed in a way no committed migration makes: its tables would not hold what it expects. */
function requireMigratedManifest(migrated: DataShape | null, manifest: DataShape): void {
  const differences = migrated ? shapeDifferences(migrated, manifest) : ['there is no migration of its tables'];
  if (differences.length === 0) return;
  throw new MigrationRefused(
    `The manifest's data shape is not the one its migrations (${MANIFEST_MIGRATIONS}) make: ${differences.join('; ')}. Nothing was changed. ` +
      'Write the migration (npm run make-migration -- --name "<what changed>"), review it, and start again; `npm run plan` shows what it will do.',
  );
}

async function requireRecordedShape(db: Queryable, shape: DataShape, version: string): Promise<void> {
  const differences = await schemaDifferences(db, shape);
  if (differences.length === 0) return;
  throw new MigrationRefused(
    `The database is not in the shape its migrations leave (${version}): ${differences.join('; ')}. Nothing was changed. ` +
      'It was changed outside the migrations (by hand, or by an older version of the code): put it back as the migrations left it, and start again.',
  );
}

/** A step that failed, said with its migration and step, and what to do; the transaction rolls everything back. */
export function stepFailure(
  migration: Pick<Migration, 'version'>,
  index: number,
  step: MigrationStep,
  error: unknown,
): Error {
  const where = `Migration ${migration.version}, step ${index + 1} (${step.title})`;
  const uniqueKey = uniqueKeyBuildError(error, step.sql);
  if (uniqueKey) return new MigrationRefused(`${where}: ${uniqueKey}`, { cause: error });
  const { message, hint } = error as { message?: string; hint?: string };
  // refuse_rows (server migration 008) names the rows, and gives the query listing them all as its hint.
  const rows = hint ? ` List them all with: ${hint} Change or delete those rows` : ' Remove the cause';
  return new MigrationRefused(
    `${where} stopped: ${message ?? String(error)}.${rows} (or, while the migration is applied nowhere yet, change the step), and start again. ` +
      'Nothing was changed: the migrations are one transaction.',
    { cause: error },
  );
}

/**
 * A unique key built over rows that already break it (a database made before migrations, adopted by the first one):
 * PostgreSQL says only "could not create unique index". Name the table and the key, and give the query that lists the
 * clashing values (no row is ever dropped to make a key fit).
 */
function uniqueKeyBuildError(error: unknown, sql: string): string | null {
  if (!isDatabaseError(error) || error.code !== PG.uniqueViolation || !error.constraint) return null;
  const statement = sql
    .split('\n')
    .find((line) => line.startsWith(`CREATE UNIQUE INDEX IF NOT EXISTS "${error.constraint}" ON `));
  const [, table, columns] = /ON "([^"]+)" \((.+)\);$/.exec(statement ?? '') ?? [];
  if (!table || !columns) return null;
  const present = columns
    .split(', ')
    .map((column) => `${column} IS NOT NULL`)
    .join(' AND ');
  return (
    `Cannot apply the manifest's tables: rows of table "${table}" already break its new unique key "${error.constraint}" on (${columns})` +
    `${error.detail ? `: ${error.detail}` : '.'} Nothing was changed. List the clashing values with\n` +
    `  SELECT ${columns}, count(*) FROM "${table}" WHERE ${present} GROUP BY ${columns} HAVING count(*) > 1;\n` +
    'then make those rows unique (edit or delete the extra ones), or take the key out of the manifest, and start again.'
  );
}
