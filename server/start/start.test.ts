import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  folderSnapshot,
  freePort,
  SERVER_READY,
  spawnProcess,
  startServerProcess,
  stopProcess,
  type ServerProcess,
} from '../testing/serverProcess.ts';

/** `npm start` as real processes on temporary data folders: one process per folder and per port, and kill -9 loses nothing. */
const folders: string[] = [];
const running: ServerProcess[] = [];
const ADMIN = { email: 'admin@example.com', password: 'Admin@12345' };

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'server-start-'));
  folders.push(folder);
  return folder;
}

async function start(folder: string, port: number): Promise<ServerProcess> {
  const server = startServerProcess(folder, port);
  running.push(server);
  await server.printed(SERVER_READY);
  return server;
}

afterAll(async () => {
  await Promise.all(running.map(stopProcess));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function login(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { access: string } }).data.access;
}

function api(port: number, token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/api/v1/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function lookupTypeCodes(port: number, token: string, prefix: string): Promise<string[]> {
  const codes: string[] = [];
  for (let page = 1; ; page += 1) {
    const response = await api(port, token, 'GET', `lookup-types?q=${prefix}&_page=${page}&_page_size=100`);
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Array<{ code: string }> };
    codes.push(...data.map((row) => row.code));
    if (data.length < 100) return codes;
  }
}

describe('npm start: one process per data folder and port', () => {
  it(
    'refuses a second server and create-admin on a folder in use, naming the holder, and changes nothing in it',
    { timeout: 180_000 },
    async () => {
      const folder = dataFolder();
      const port = await freePort();
      const first = await start(folder, port);
      expect(first.output()).toContain(`API at http://localhost:${port} `);
      const token = await login(port);
      expect(
        (await api(port, token, 'POST', 'lookup-types', { code: 'before_second_start', name: 'Before' })).status,
      ).toBe(201);
      const before = folderSnapshot(folder);

      const second = startServerProcess(folder, await freePort());
      running.push(second);
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(
        `The data folder ${folder} is in use by the server (pid ${first.pid}, started `,
      );
      expect(second.output()).not.toContain(SERVER_READY);

      const admin = spawnProcess(
        'server/cli/create-admin.mjs',
        ['--email', 'second@example.com', '--password', 'Second@12345'],
        { DATA_DIR: folder },
      );
      expect(await admin.exited).toBe(1);
      expect(admin.output()).toContain(`is in use by the server (pid ${first.pid}, started `);

      expect(folderSnapshot(folder)).toEqual(before);
      // The first keeps serving, with what it wrote before.
      expect(await lookupTypeCodes(port, token, 'before_second_start')).toEqual(['before_second_start']);
      expect(
        (await api(port, token, 'POST', 'lookup-types', { code: 'after_second_start', name: 'After' })).status,
      ).toBe(201);

      await stopProcess(first);
      expect(await first.exited).toBe(0);
      // Stopped, the folder is free again: create-admin works on it, then the server starts with that administrator.
      const afterStop = spawnProcess(
        'server/cli/create-admin.mjs',
        ['--email', 'second@example.com', '--password', 'Second@12345'],
        { DATA_DIR: folder },
      );
      expect(await afterStop.exited).toBe(0);
      await start(folder, port);
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'second@example.com', password: 'Second@12345' }),
      });
      expect(response.status).toBe(200);
    },
  );

  it(
    'refuses a second server on a port in use before it opens a database, and the first keeps serving',
    { timeout: 180_000 },
    async () => {
      const port = await freePort();
      const first = await start(dataFolder(), port);
      const otherFolder = join(dataFolder(), 'new');

      const second = startServerProcess(otherFolder, port);
      running.push(second);
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      // The port is taken first: nothing at all in the folder, not even the lock file.
      expect(existsSync(otherFolder)).toBe(false);
      expect(await login(port)).toBeTruthy();
      expect(first.child.exitCode).toBeNull();
    },
  );

  it(
    'starts again after kill -9 at varied moments, with every write it acknowledged',
    { timeout: 300_000 },
    async () => {
      const folder = dataFolder();
      const port = await freePort();
      const acknowledged: string[] = [];
      // How many writes to see acknowledged before the kill (0: while the first ones are in flight), or null: kill
      // during start-up, this many milliseconds after the process was spawned.
      const moments: Array<{ writes: number } | { startUpMs: number }> = [
        { writes: 0 },
        { writes: 3 },
        { startUpMs: 600 },
        { writes: 17 },
        { writes: 40 },
      ];
      for (const [round, moment] of moments.entries()) {
        const server = startServerProcess(folder, port);
        running.push(server);
        if ('startUpMs' in moment) {
          await new Promise((resolve) => setTimeout(resolve, moment.startUpMs));
          server.child.kill('SIGKILL');
          await server.exited;
          continue;
        }
        await server.printed(SERVER_READY);
        const token = await login(port);
        // Everything acknowledged by any earlier life of the folder is there.
        expect(
          (await lookupTypeCodes(port, token, 'burst_')).filter((code) => acknowledged.includes(code)).sort(),
        ).toEqual([...acknowledged].sort());

        let written = 0;
        let killed = false;
        const writer = async (lane: number) => {
          for (let index = 0; !killed; index += 1) {
            const code = `burst_${round}_${lane}_${index}`;
            try {
              const response = await api(port, token, 'POST', 'lookup-types', {
                code,
                name: `Burst ${round} ${lane} ${index}`,
              });
              if (response.status === 201) {
                acknowledged.push(code);
                written += 1;
              }
            } catch {
              return; // the connection died with the process
            }
          }
        };
        const writers = [0, 1, 2, 3].map(writer);
        while (written < moment.writes) await new Promise((resolve) => setTimeout(resolve, 5));
        killed = true;
        server.child.kill('SIGKILL');
        await server.exited;
        await Promise.all(writers);
      }

      const last = await start(folder, port);
      const token = await login(port);
      const stored = await lookupTypeCodes(port, token, 'burst_');
      expect(acknowledged.length).toBeGreaterThanOrEqual(60);
      expect(stored.filter((code) => acknowledged.includes(code)).sort()).toEqual([...acknowledged].sort());
      await stopProcess(last);
    },
  );
});
