import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEMO_USERS } from '../../server/seed/roles.ts';

/** The page origin of the integration project (vitest.config.ts): the server listens there, so calls are same-origin. */
export const ORIGIN = `http://127.0.0.1:${process.env.INTEGRATION_PORT ?? '18181'}`;
const ROOT = resolve(import.meta.dirname, '../..');
const START_TIMEOUT_MS = 90_000;

export interface RealApi {
  close(): Promise<void>;
}

/**
 * The real reference API (`server/start/main.ts --api-only`) with the demo seed, on a fresh PGlite in a temporary
 * data folder, listening on ORIGIN. A child process, not in-process: under jsdom's globals PGlite takes the
 * browser path and fails to load its extensions (`n.arrayBuffer is not a function`).
 */
export async function startRealApi(): Promise<RealApi> {
  const dataDir = mkdtempSync(join(tmpdir(), 'console-integration-'));
  const { port, hostname } = new URL(ORIGIN);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start/main.ts', '--api-only'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: port,
      HOST: hostname,
      DATA_DIR: dataDir,
      PUBLIC_URL: ORIGIN,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = () => stopChild(child).finally(() => rmSync(dataDir, { recursive: true, force: true }));
  try {
    await new Promise<void>((resolveStart, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`The API did not start in ${START_TIMEOUT_MS} ms:\n${output}`)),
        START_TIMEOUT_MS,
      );
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`The API exited (${code}) before listening:\n${output}`));
      });
      child.stdout?.on('data', () => {
        if (output.includes('API at ')) {
          clearTimeout(timer);
          resolveStart();
        }
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { close: stop };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolveStop();
    });
    child.kill('SIGTERM');
  });
}

export interface TokenPair {
  access: string;
  refresh: string;
}

/** Logs a demo user in (by role name) through the real POST /api/v1/login. */
export async function login(role: string): Promise<TokenPair> {
  const user = DEMO_USERS.find((candidate) => candidate.role === role);
  if (!user) throw new Error(`No demo user with the role ${role}`);
  return loginAs(user.email, user.password);
}

export async function loginAs(email: string, password: string): Promise<TokenPair> {
  const response = await fetch(`${ORIGIN}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`login ${email}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: TokenPair }).data;
}

/** A direct call to the real API with a user's token, as another client would make it. */
export async function callApi(
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${ORIGIN}/api/v1/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'APP-SOURCE': 'ADMIN_APP',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
