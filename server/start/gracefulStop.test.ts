import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/pglite.ts';
import { STOPPING_MESSAGE } from '../modules/health/routes.ts';
import { recentTradeCsv } from '../modules/uploads/testing/tradeCsv.ts';
import { sendFileOverHttp } from '../modules/uploads/testing/tusRequests.ts';
import { DEMO_USERS } from '../seed/roles.ts';
import { until } from '../testing/until.ts';
import {
  freePort,
  SERVER_READY,
  startServerProcess,
  stopProcess,
  type ServerProcess,
} from '../testing/serverProcess.ts';

/** SIGTERM as an orchestrator sends it during a rolling restart: what was accepted is answered, then the process exits. */
const folders: string[] = [];
const running: ServerProcess[] = [];

afterAll(async () => {
  await Promise.all(running.map(stopProcess));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const signIn = (port: number, { email, password }: { email: string; password: string }) =>
  fetch(`http://127.0.0.1:${port}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  }).then(
    async (response) => ({ status: response.status, body: await response.text() }),
    (error: unknown) => ({ status: 0, body: String(error) }),
  );

describe('npm start: a graceful stop', () => {
  it(
    'answers every request accepted before SIGTERM, takes no new connection, and exits 0',
    { timeout: 120_000 },
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'server-stop-'));
      folders.push(folder);
      const port = await freePort();
      // At info level it logs each request it has begun: the signal is sent once it has begun all twelve.
      const server = startServerProcess(folder, port, { LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
      running.push(server);
      await server.printed(SERVER_READY);

      // Sign-ins hash at full cost, four at a time: twelve (three per demo account, under the account throttle) are
      // still being worked on when the signal comes.
      const accepted = Array.from({ length: 12 }, (_, index) => signIn(port, DEMO_USERS[index % DEMO_USERS.length]!));
      await until(() => server.output().split('"incoming request"').length - 1 >= 12, 'the twelve sign-ins begun');
      server.child.kill('SIGTERM');
      const answers = await Promise.all(accepted);
      expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
      expect(answers.every((answer) => answer.body.includes('"access"'))).toBe(true);
      expect(await server.exited).toBe(0);
      const late = await signIn(port, DEMO_USERS[0]!);
      expect(late.status).toBe(0);
    },
  );

  it(
    'with STOP_DRAIN_SECONDS, /readyz answers 503 "stopping" at once while requests are still answered, each closing its connection; then the port closes',
    { timeout: 120_000 },
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'server-stop-'));
      folders.push(folder);
      const port = await freePort();
      const server = startServerProcess(folder, port, { STOP_DRAIN_SECONDS: '2' });
      running.push(server);
      await server.printed(SERVER_READY);
      expect((await get(port, '/readyz')).status).toBe(200);

      const signalled = Date.now();
      server.child.kill('SIGTERM');
      await server.printed('Stopping: /readyz answers 503');
      const ready = await get(port, '/readyz');
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body)).toEqual({ status: 'stopping', message: STOPPING_MESSAGE });
      expect(ready.connection).toBe('close');
      const health = await get(port, '/healthz');
      expect(health).toMatchObject({ status: 200, connection: 'close' });
      expect((await signIn(port, DEMO_USERS[0]!)).status).toBe(200);

      expect(await server.exited).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(2000);
      expect((await signIn(port, DEMO_USERS[0]!)).status).toBe(0);
    },
  );

  it(
    'an upload import in flight when SIGTERM comes finishes before the process exits 0 (PGlite)',
    { timeout: 180_000 },
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'server-stop-'));
      folders.push(folder);
      const port = await freePort();
      const server = startServerProcess(folder, port);
      running.push(server);
      await server.printed(SERVER_READY);
      const token = JSON.parse((await signIn(port, DEMO_USERS[0]!)).body).data.access as string;
      const api = (path: string, init: RequestInit = {}) =>
        fetch(`http://127.0.0.1:${port}/api/v1/${path}`, {
          ...init,
          headers: { authorization: `Bearer ${token}`, ...init.headers },
        });
      const { data: countries } = (await (await api('countries?_page_size=1')).json()) as {
        data: Array<{ id: number }>;
      };
      // The import is the subject, not its review: every import publishes at once, as an administrator may set it.
      expect(
        (
          await api('uploads/review-settings', {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ hold: false }),
          })
        ).status,
      ).toBe(200);
      const csv = recentTradeCsv(IMPORTED_ROWS);
      const announced = await api('uploads', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          country_id: countries[0]!.id,
          trade_direction: 'export',
          period: '2026-01',
          file_name: 'large.csv',
          size: Buffer.byteLength(csv),
        }),
      });
      const {
        upload,
        upload_url: url,
        complete_path: completePath,
      } = ((await announced.json()) as { data: { upload: { id: number }; upload_url: string; complete_path: string } })
        .data;
      await sendFileOverHttp(`http://127.0.0.1:${port}`, url, csv);
      expect(
        (await api(completePath, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }))
          .status,
      ).toBe(200);

      // The import started as the file was accepted: the stop waits for it.
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const db = await openPglite(join(folder, 'pglite'));
      try {
        const [file] = await db.query(
          'SELECT processed_at IS NOT NULL AS processed, import_attempts, error FROM upload_files WHERE upload_id = $1',
          [upload.id],
        );
        expect(file).toEqual({ processed: true, import_attempts: 1, error: null });
        expect(
          await db.query('SELECT count(*)::int AS n FROM trade_records WHERE upload_id = $1', [upload.id]),
        ).toEqual([{ n: IMPORTED_ROWS }]);
      } finally {
        await db.close();
      }
    },
  );
});

/** Enough rows that the import takes a while on PGlite, so the stop comes while it runs. */
const IMPORTED_ROWS = 40_000;

/** A GET on a fresh connection, with the Connection header it was answered with. */
function get(port: number, path: string): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, connection: response.headers.connection }),
      );
    })
      .on('error', reject)
      .end();
  });
}
