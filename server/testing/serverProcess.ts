import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
/** Settings that would take the server off the data folder it is given: never inherited by these processes. */
const NOT_INHERITED = [
  'DATABASE_URL',
  'DATABASE_SCHEMA',
  'S3_BUCKET',
  'JWT_SECRET',
  'PORT',
  'HOST',
  'DATA_DIR',
  'NODE_ENV',
];

/** A real server (or CLI) process, as `npm start` / `npm run create-admin` run it. */
export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves once it printed `text`; rejects when it exits first or `timeoutMs` passes. */
  printed(text: string, timeoutMs?: number): Promise<void>;
}

export function spawnProcess(script: string, args: string[], env: Record<string, string>): ServerProcess {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !NOT_INHERITED.includes(name)));
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: { ...inherited, NODE_ENV: 'development', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  return {
    child,
    pid: child.pid!,
    output: () => output,
    exited,
    printed: (text, timeoutMs = 120_000) =>
      new Promise<void>((resolvePrinted, reject) => {
        const check = () => {
          if (!output.includes(text)) return;
          done();
          resolvePrinted();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no "${text}" within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then((code) => {
          if (!listeners.has(check)) return;
          done();
          reject(new Error(`exited (${code}) before printing "${text}":\n${output}`));
        });
        check();
      }),
  };
}

/** `node server/start/start.mjs --api-only` on a data folder and a port. */
export function startServerProcess(dataDir: string, port: number, env: Record<string, string> = {}): ServerProcess {
  return spawnProcess('server/start/start.mjs', ['--api-only'], { DATA_DIR: dataDir, PORT: String(port), ...env });
}

export const SERVER_READY = 'API at ';

/** Stops a process with SIGTERM as an operator would, SIGKILL after 10 s. */
export async function stopProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const force = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
  server.child.kill('SIGTERM');
  await server.exited;
  clearTimeout(force);
}

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Every file under a folder: its size, modification time and SHA-256, to prove a process changed nothing there. */
export function folderSnapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  const visit = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) {
        visit(child);
        continue;
      }
      const stat = statSync(child);
      files[relative(folder, child)] =
        `${stat.size} ${stat.mtimeMs} ${createHash('sha256').update(readFileSync(child)).digest('hex')}`;
    }
  };
  visit(folder);
  return files;
}
