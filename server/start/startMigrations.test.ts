import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SOURCES } from '../db/knownMigrations.ts';
import { migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import {
  freePort,
  SERVER_READY,
  startServerProcess,
  stopProcess,
  type ServerProcess,
} from '../testing/serverProcess.ts';

/** The last committed migrations of each series, e.g. `014_imports` and `0002_audit_log_module`. */
const lastMigration = (folder: string) =>
  readdirSync(folder)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .at(-1)!
    .slice(0, -'.sql'.length);
const LAST_MANIFEST = lastMigration(DEFAULT_SOURCES.manifest);
const LAST_CORE = lastMigration(DEFAULT_SOURCES.core);

const folders: string[] = [];
const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map(stopProcess));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('npm start and the migrations a database has applied', () => {
  it(
    'refuses a database migrated by a newer version of the code, naming the migration, and changes nothing; it starts once the database is one it knows',
    { timeout: 180_000 },
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'server-migrations-'));
      folders.push(folder);
      const withDatabase = async (work: (db: Awaited<ReturnType<typeof openPglite>>) => Promise<unknown>) => {
        const db = await openPglite(join(folder, 'pglite'));
        try {
          return await work(db);
        } finally {
          await db.close();
        }
      };
      await withDatabase(async (db) => {
        await migrate(db);
        await db.query(
          `INSERT INTO schema_migrations (version, checksum) VALUES ('manifest/9099_from_the_future', 'f00d')`,
        );
      });

      const refused = startServerProcess(folder, await freePort());
      running.push(refused);
      expect(await refused.exited).toBe(1);
      expect(refused.output()).toContain(
        `The database was migrated by a newer version of the code: it applied manifest/9099_from_the_future, which this version does not have (its last migrations are ${LAST_CORE} and manifest/${LAST_MANIFEST}). Nothing was changed.`,
      );
      expect(refused.output()).not.toContain(SERVER_READY);
      expect(refused.output()).not.toContain('    at ');
      expect(await withDatabase((db) => db.query(`SELECT count(*)::int AS users FROM users`))).toEqual([{ users: 0 }]);

      await withDatabase((db) =>
        db.query(`DELETE FROM schema_migrations WHERE version = 'manifest/9099_from_the_future'`),
      );
      const started = startServerProcess(folder, await freePort());
      running.push(started);
      await started.printed(SERVER_READY);
    },
  );
});
