import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { MANIFEST_MIGRATIONS } from '../../contract/manifestMigrations.ts';
import type { Database } from '../../server/db/database.ts';
import { DEFAULT_SOURCES } from '../../server/db/knownMigrations.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres, quoteIdentifier } from '../../server/db/postgres.ts';
import { TEST_DATABASE_URL, testDatabases } from '../../server/testing/testServer.ts';
import { editJson, projectRoot, tempDir } from '../codegen/helpers.ts';

const SERIES = join(import.meta.dirname, 'series');
const databases = await testDatabases();

/** `admin-codegen plan` as a developer runs it, on the database the environment names. */
async function plan(
  out: string,
  manifest: string,
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !['DATABASE_URL', 'DATABASE_SCHEMA', 'DATA_DIR'].includes(name)),
  );
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(projectRoot, 'cli', 'bin.mjs'), 'plan', '--manifest', manifest, '--out', out, ...args],
      {
        cwd: projectRoot,
        env: { ...inherited, ...env },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Each test runs the CLI as a process several times (and migrates a project first): far past 30 s on a loaded machine. */
const CLI_RUNS_TIMEOUT = 180_000;

describe.each(databases)(
  'plan: what the migrations would do to the database, rows per step, changing nothing, on $kind',
  ({ kind, skip }) => {
    let db: Database | null = null;
    let schema: string | null = null;
    afterEach(async () => {
      if (schema && db) await db.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
      await db?.close();
      db = null;
    });

    /** A project at the series' first version, and its database migrated and holding vouchers. */
    async function migratedProject() {
      const out = await tempDir('project');
      const manifest = await tempDir('manifest');
      await cp(join(SERIES, '01-initial', 'manifest'), manifest, { recursive: true });
      execFileSync(
        process.execPath,
        [
          join(projectRoot, 'cli', 'bin.mjs'),
          'make-migration',
          '--name',
          'initial',
          '--manifest',
          manifest,
          '--out',
          out,
        ],
        { cwd: projectRoot },
      );
      const dataDir = await tempDir('data');
      schema = kind === 'postgres' ? `plan_${randomBytes(6).toString('hex')}` : null;
      const env: Record<string, string> =
        kind === 'postgres'
          ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema!, DATA_DIR: dataDir }
          : { DATA_DIR: dataDir };
      db =
        kind === 'postgres'
          ? await openPostgres(TEST_DATABASE_URL, schema, 2)
          : await openPglite(join(dataDir, 'pglite'));
      await migrate(db, { sources: { core: DEFAULT_SOURCES.core, manifest: join(out, MANIFEST_MIGRATIONS) } });
      await db.query(
        `INSERT INTO vouchers (code, description, discount_type) VALUES ('A1', 'Spring', 'percent'), ('B2', NULL, 'fixed'), ('C3', 'Winter', 'fixed')`,
      );
      if (kind === 'pglite') {
        await db.close();
        db = null;
      }
      return { out, manifest, env, dataDir };
    }

    const reopen = async (dataDir: string) => {
      if (kind === 'pglite') db = await openPglite(join(dataDir, 'pglite'));
      return db!;
    };

    it.skipIf(skip)(
      'the change the manifest makes, planned as make-migration would write it, with the rows of each step; nothing changes',
      async () => {
        const { out, manifest, env, dataDir } = await migratedProject();
        expect((await plan(out, manifest, env)).stdout).toContain(
          "Nothing to apply: the database has every migration, and the manifest's data shape has no change to migrate.",
        );
        await editJson(join(manifest, 'voucher-management.json'), (area) => {
          const vouchers = area.resources[1];
          const { description, ...rest } = vouchers.entity.schema.properties;
          vouchers.entity.schema.properties = { ...rest, details: description };
          vouchers.list.columns = ['code', 'details', 'is_active'];
          vouchers.list.search = ['code', 'details'];
        });

        const undecided = await plan(out, manifest, env);
        expect(undecided.code).toBe(1);
        expect(undecided.stderr).toContain(
          "The manifest's change cannot be planned until make-migration is told:\nvouchers.description is gone and vouchers.details is new: was it renamed?",
        );

        const planned = await plan(out, manifest, env, '--rename', 'vouchers.description=details');
        expect(planned.stderr).toBe('');
        expect(planned.code).toBe(0);
        expect(planned.stdout).toContain(
          kind === 'postgres'
            ? 'Database: PostgreSQL (DATABASE_URL)'
            : `Database: PGlite in ${join(dataDir, 'pglite')}`,
        );
        expect(planned.stdout).toContain(
          'manifest/0002_vouchers  (not written yet: make-migration would write it)\n    1. rename vouchers.description to details: 2 row(s)\n',
        );
        expect(planned.stdout).toContain(
          'Nothing was changed: the plan ran the migrations in a transaction that was rolled back.',
        );
        const after = await reopen(dataDir);
        expect(await after.query(`SELECT code, description FROM vouchers ORDER BY id`)).toEqual([
          { code: 'A1', description: 'Spring' },
          { code: 'B2', description: null },
          { code: 'C3', description: 'Winter' },
        ]);
        expect(await after.query(`SELECT version FROM schema_migrations WHERE version LIKE 'manifest/%'`)).toEqual([
          { version: 'manifest/0001_initial' },
        ]);
        expect(await readdir(join(out, MANIFEST_MIGRATIONS))).toEqual(['0001_initial.shape.json', '0001_initial.sql']);
      },
      CLI_RUNS_TIMEOUT,
    );

    it.skipIf(skip)(
      'a step the rows would stop is planned as refused, naming the rows, and the plan ends there',
      async () => {
        const { out, manifest, env, dataDir } = await migratedProject();
        await editJson(join(manifest, 'voucher-management.json'), (area) => {
          area.resources[1].entity.schema.properties.discount_type.enum = ['percent', 'flat'];
        });
        const refused = await plan(out, manifest, env);
        expect(refused.code).toBe(1);
        expect(refused.stdout).toContain(
          '    1. check that vouchers.discount_type holds only percent, flat: 3 row(s)\n',
        );
        const ids = (
          await (
            await reopen(dataDir)
          ).query<{ id: number }>(`SELECT id FROM vouchers WHERE discount_type = 'fixed' ORDER BY id`)
        ).map((row) => row.id);
        expect(refused.stderr).toContain(
          `REFUSED: Migration manifest/0002_vouchers, step 1 (check that vouchers.discount_type holds only percent, flat) stopped: 2 row(s) of vouchers hold a discount_type no longer allowed (allowed: percent, flat): id ${ids.join(', ')}.`,
        );
      },
      CLI_RUNS_TIMEOUT,
    );
  },
);

describe('plan on a data folder without a database', () => {
  it('plans what the first start will do, on an empty database, and creates nothing in the folder', async () => {
    const dataDir = await tempDir('data');
    const result = await plan(projectRoot, join(projectRoot, 'manifest'), { DATA_DIR: dataDir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Database: no database in ${join(dataDir, 'pglite')} yet: planned on an empty one`);
    expect(result.stdout).toContain('001_core  (pending)');
    expect(result.stdout).toContain('manifest/0001_initial  (pending)');
    expect(result.stdout).toContain('the fields, keys and indexes of vouchers (module VOUCHER): 0 row(s)');
    expect(await readdir(dataDir)).toEqual([]);
  });
});
