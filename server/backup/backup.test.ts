import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPglite } from '../db/pglite.ts';
import {
  freePort,
  SERVER_READY,
  spawnProcess,
  startServerProcess,
  stopProcess,
  type ServerProcess,
} from '../testing/serverProcess.ts';
import { startTestServer } from '../testing/testServer.ts';
import { operatorToken, scheduledBackup } from './backup.ts';

const ADMIN = { email: 'admin@example.com', password: 'Admin@12345' };
/** Two-letter codes AA, AB, ...: each write a country of its own. */
const code = (index: number) => String.fromCharCode(65 + (Math.floor(index / 26) % 26), 65 + (index % 26));

describe('backups of the embedded database', () => {
  const folders: string[] = [];
  const processes: ServerProcess[] = [];
  const folder = () => {
    const made = mkdtempSync(join(tmpdir(), 'backup-test-'));
    folders.push(made);
    return made;
  };
  afterEach(async () => {
    for (const server of processes.splice(0)) await stopProcess(server);
    for (const made of folders.splice(0)) await rm(made, { recursive: true, force: true });
  });

  async function startServer(dataDir: string): Promise<{
    base: string;
    call: (method: string, path: string, body?: unknown) => Promise<Response>;
    port: number;
  }> {
    const port = await freePort();
    const server = startServerProcess(dataDir, port);
    processes.push(server);
    await server.printed(SERVER_READY);
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { data } = (await login.json()) as { data: { access: string } };
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${base}/api/v1/${path}`, {
        method,
        headers: { authorization: `Bearer ${data.access}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    return { base, call, port };
  }

  async function cli(
    script: string,
    args: string[],
    env: Record<string, string>,
  ): Promise<{ code: number | null; output: string }> {
    const run = spawnProcess(script, args, env);
    const exit = await run.exited;
    return { code: exit, output: run.output() };
  }

  // Each server start migrates and seeds its folder: tens of seconds on a loaded machine.
  const STARTS = { timeout: 300_000 };

  it(
    'of a running server with writes in flight: every write acknowledged before the backup began is in the restored copy, which a server starts on',
    STARTS,
    async () => {
      const original = folder();
      const { call, port } = await startServer(original);
      const acknowledged: Array<{ iso2: string; at: number }> = [];
      let writing = true;
      const writes = (async () => {
        for (let index = 0; writing; index += 1) {
          const response = await call('POST', 'countries', {
            name: `Backup ${code(index)}`,
            iso2: code(index),
            iso3: `${code(index)}X`,
            region: 'asia',
            currency_code: 'INR',
          });
          if (response.status === 201 || response.status === 200)
            acknowledged.push({ iso2: code(index), at: performance.now() });
        }
      })();
      while (acknowledged.length < 5) await new Promise((resolve) => setImmediate(resolve));
      const backupFile = join(folder(), 'running.tar.gz');
      const begun = performance.now();
      const made = await cli('server/cli/backup.mjs', ['--out', backupFile], {
        DATA_DIR: original,
        PORT: String(port),
      });
      writing = false;
      await writes;
      expect(made.code, made.output).toBe(0);
      expect(made.output).toContain(`written to ${backupFile}`);
      const before = acknowledged.filter((write) => write.at < begun).map((write) => write.iso2);

      const restoredFolder = join(folder(), 'restored');
      const restored = await cli('server/cli/restore.mjs', [backupFile], { DATA_DIR: restoredFolder });
      expect(restored.code, restored.output).toBe(0);
      const copy = await startServer(restoredFolder);
      const answer = (await (await copy.call('GET', 'countries?_page_size=100&q=Backup')).json()) as {
        data: Array<{ iso2: string }>;
      };
      const present = new Set(answer.data.map((row) => row.iso2));
      expect(before.length).toBeGreaterThan(0);
      for (const iso2 of before) expect(present.has(iso2), iso2).toBe(true);
      // Nothing was written after the backup ended: the copy holds no more than was acknowledged.
      expect(present.size).toBeLessThanOrEqual(acknowledged.length);
    },
  );

  it(
    'of a stopped server: read from the folder itself; a restore refuses a folder that is not empty and changes nothing there',
    STARTS,
    async () => {
      const original = folder();
      const { call } = await startServer(original);
      expect(
        (
          await call('POST', 'countries', {
            name: 'Stopped Land',
            iso2: 'SL',
            iso3: 'SLX',
            region: 'asia',
            currency_code: 'INR',
          })
        ).status,
      ).toBe(201);
      await stopProcess(processes.pop()!);
      const backupFile = join(folder(), 'stopped.tar.gz');
      const made = await cli('server/cli/backup.mjs', ['--out', backupFile], { DATA_DIR: original });
      expect(made.code, made.output).toBe(0);

      const occupied = folder();
      writeFileSync(join(occupied, 'something'), 'kept');
      const refused = await cli('server/cli/restore.mjs', [backupFile], { DATA_DIR: occupied });
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`The data folder ${occupied} is not empty`);
      expect(readdirSync(occupied)).toEqual(['something']);

      const restoredFolder = join(folder(), 'restored');
      expect((await cli('server/cli/restore.mjs', [backupFile], { DATA_DIR: restoredFolder })).code).toBe(0);
      const copy = await startServer(restoredFolder);
      const answer = (await (await copy.call('GET', 'countries?q=Stopped')).json()) as {
        data: Array<{ name: string }>;
      };
      expect(answer.data.map((row) => row.name)).toEqual(['Stopped Land']);
    },
  );

  it(
    'POST /backup answers only the operator token, from this machine; a user token or another machine gets nothing',
    STARTS,
    async () => {
      const dataDir = folder();
      const { base, call } = await startServer(dataDir);
      expect((await fetch(`${base}/backup`, { method: 'POST' })).status).toBe(401);
      expect((await fetch(`${base}/backup`, { method: 'POST', headers: { authorization: 'Bearer 00' } })).status).toBe(
        401,
      );
      // A signed-in administrator is not the folder's operator, by any spelling the router takes for the path.
      for (const path of ['/backup', '/%62ackup', '/backup/'])
        expect((await call('POST', `../..${path}`)).status, path).toBe(401);
      for (const path of ['/BACKUP', '//backup', '/api/v1/backup'])
        expect((await fetch(`${base}${path}`, { method: 'POST' })).status, path).not.toBe(200);

      const inProcess = await startTestServer('pglite');
      try {
        const operator = { authorization: `Bearer ${operatorToken(inProcess.config.jwtSecret)}` };
        expect((await inProcess.app.inject({ method: 'POST', url: '/backup', headers: operator })).statusCode).toBe(
          200,
        );
        expect(
          (
            await inProcess.app.inject({
              method: 'POST',
              url: '/backup',
              headers: operator,
              remoteAddress: '203.0.113.7',
            })
          ).statusCode,
        ).toBe(404);
      } finally {
        await inProcess.close();
      }
    },
  );

  it('scheduled: each round writes a dated file whole and keeps the newest BACKUP_KEEP', async () => {
    const db = await openPglite(folder());
    try {
      await db.query('CREATE TABLE kept (value int)');
      const target = folder();
      const written: string[] = [];
      for (const hour of [1, 2, 3])
        written.push(
          (await scheduledBackup(
            db,
            { folder: target, everyHours: 1, keep: 2 },
            new Date(Date.UTC(2026, 10, 27, hour)),
          ))!,
        );
      expect(readdirSync(target).sort()).toEqual(['backup-20261127T020000Z.tar.gz', 'backup-20261127T030000Z.tar.gz']);
      expect(written.slice(1).every((file) => existsSync(file))).toBe(true);
    } finally {
      await db.close();
    }
  });
});
