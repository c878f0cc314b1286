import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from './seed/roles.ts';
import { freePort, SERVER_READY, startServerProcess, stopProcess, type ServerProcess } from './testing/serverProcess.ts';

/** SIGTERM as an orchestrator sends it during a rolling restart: what was accepted is answered, then the process exits. */
const folders: string[] = [];
const running: ServerProcess[] = [];

afterAll(async () => {
  await Promise.all(running.map(stopProcess));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const signIn = (port: number, { email, password }: { email: string; password: string }) =>
  fetch(`http://127.0.0.1:${port}/api/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) }).then(
    async (response) => ({ status: response.status, body: await response.text() }),
    (error: unknown) => ({ status: 0, body: String(error) }),
  );

describe('npm start: a graceful stop', () => {
  it('answers every request accepted before SIGTERM, takes no new connection, and exits 0', { timeout: 120_000 }, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'server-stop-'));
    folders.push(folder);
    const port = await freePort();
    const server = startServerProcess(folder, port);
    running.push(server);
    await server.printed(SERVER_READY);

    // Sign-ins hash at full cost, four at a time: twelve (three per demo account, under the account throttle) are
    // still being worked on when the signal comes.
    const accepted = Array.from({ length: 12 }, (_, index) => signIn(port, DEMO_USERS[index % DEMO_USERS.length]!));
    await new Promise((resolve) => setTimeout(resolve, 150));
    server.child.kill('SIGTERM');
    const answers = await Promise.all(accepted);
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    expect(answers.every((answer) => answer.body.includes('"access"'))).toBe(true);
    expect(await server.exited).toBe(0);
    const late = await signIn(port, DEMO_USERS[0]!);
    expect(late.status).toBe(0);
  });
});
