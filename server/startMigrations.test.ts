import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from './db/migrate.ts';
import { openPglite } from './db/pglite.ts';
import { freePort, SERVER_READY, startServerProcess, stopProcess, type ServerProcess } from './testing/serverProcess.ts';

const folders: string[] = [];
const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map(stopProcess));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('npm start and the migrations a database has applied', () => {
  it('refuses a database migrated by a newer version of the code, naming the migration, and changes nothing; it starts once the database is one it knows', { timeout: 180_000 }, async () => {
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
      await db.query(`INSERT INTO schema_migrations (version, checksum) VALUES ('manifest/0099_from_the_future', 'f00d')`);
    });

    const refused = startServerProcess(folder, await freePort());
    running.push(refused);
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain(
      'The database was migrated by a newer version of the code: it applied manifest/0099_from_the_future, which this version does not have (its last migrations are 012_audit_log_and_trash and manifest/0002_audit_log_module). Nothing was changed.',
    );
    expect(refused.output()).not.toContain(SERVER_READY);
    expect(refused.output()).not.toContain('    at ');
    expect(await withDatabase((db) => db.query(`SELECT count(*)::int AS users FROM users`))).toEqual([{ users: 0 }]);

    await withDatabase((db) => db.query(`DELETE FROM schema_migrations WHERE version = 'manifest/0099_from_the_future'`));
    const started = startServerProcess(folder, await freePort());
    running.push(started);
    await started.printed(SERVER_READY);
  });
});
