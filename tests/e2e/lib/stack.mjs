/* global AbortSignal */
// The product as its users meet it: the production build of the console and the reference API, started the
// way `npm start` starts them, on a fresh PGlite data folder and a free loopback port. Shared by the
// end-to-end runner, the screenshot script and the page-timing benchmark.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import chromiumSettings from './chromium.json' with { type: 'json' };
import { builtWithDevMailbox } from '../../../server/console/consoleFlavour.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const HOST = '127.0.0.1';
export const CHROMIUM = process.env.CHROMIUM_PATH || chromiumSettings.executablePath;
export const CHROMIUM_ARGS = chromiumSettings.args;
export const VIEWPORT = chromiumSettings.viewport;

/** What the console build is made of: when any of it is newer than dist/index.html, the build is stale. */
const BUILD_INPUTS = [
  'src',
  'validation',
  'contract',
  'server/console/signInPage.ts',
  'index.html',
  'public',
  'vite.config.ts',
  'package-lock.json',
  'tsconfig.json',
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/**
 * The development mailbox is built in for a server not in production (server/start/main.ts asks for that build, and
 * would build again at start were it missing): the stack's server runs with E2E_NODE_ENV, else NODE_ENV.
 */
const STACK_WANTS_DEV_MAILBOX = (process.env.E2E_NODE_ENV ?? process.env.NODE_ENV) !== 'production';

export function buildIsStale(devMailbox = STACK_WANTS_DEV_MAILBOX) {
  const built = join(ROOT, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  if (builtWithDevMailbox(join(ROOT, 'dist')) !== devMailbox) return true;
  const builtAt = statSync(built).mtimeMs;
  return BUILD_INPUTS.some((input) => newestMtime(join(ROOT, input)) > builtAt);
}

function run(command, args, options = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolvePromise() : reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}`)),
    );
  });
}

/** Builds the console once (`vite build`) unless dist/ is already newer than its sources and of the kind wanted. */
export async function ensureBuild({ force = false, log = console.log, devMailbox = STACK_WANTS_DEV_MAILBOX } = {}) {
  if (!force && !buildIsStale(devMailbox)) {
    log('console build: dist/ is up to date');
    return;
  }
  const started = performance.now();
  log(`console build: vite build${devMailbox ? ' (with the development mailbox)' : ''} ...`);
  await run(join(ROOT, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], {
    env: { ...process.env, CONSOLE_DEV_MAILBOX: String(devMailbox) },
  });
  log(`console build: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** A port nobody listens on right now, on loopback. */
export function freePort() {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolvePromise(port));
    });
  });
}

const sleep = (ms) => new Promise((resolvePromise) => setTimeout(resolvePromise, ms));

/** Waits until the server answers the login page and the API (any HTTP status counts as an answer). */
async function waitForAnswer(baseUrl, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let lastError = null;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before answering`);
    try {
      const page = await fetch(`${baseUrl}/auth/login`, { signal: AbortSignal.timeout(2_000) });
      const api = await fetch(`${baseUrl}/api/v1/user/permission`, { signal: AbortSignal.timeout(2_000) });
      if (page.status < 500 && api.status < 500) return;
      lastError = new Error(`answers ${page.status} / ${api.status}`);
    } catch (error) {
      lastError = error;
    }
    await sleep(150);
  }
  throw new Error(`the server did not answer at ${baseUrl} within ${timeoutMs} ms: ${lastError?.message ?? ''}`);
}

/**
 * The reference API exactly as `npm start` runs it (`node server/start/start.mjs`), with the data folder and the port
 * given through the environment variables the server honours (server/start/loadConfig.ts: DATA_DIR, PORT, HOST).
 * `stop()` and `start()` may be called again and again (the fault journeys stop the API mid-journey); the data
 * folder survives a restart and is removed by `dispose()`.
 */
export async function createStack({ log = console.log, quiet = true, env = {} } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'admin-e2e-data-'));
  const port = await freePort();
  const baseUrl = `http://${HOST}:${port}`;
  let child = null;
  let output = '';

  const serverEnv = {
    ...process.env,
    NODE_ENV: process.env.E2E_NODE_ENV ?? process.env.NODE_ENV ?? '',
    PORT: String(port),
    HOST,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    ...env,
  };

  async function start() {
    if (child) return;
    const started = performance.now();
    output = '';
    child = spawn(process.execPath, ['server/start/start.mjs'], {
      cwd: ROOT,
      env: serverEnv,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (!quiet) process.stderr.write(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    try {
      await waitForAnswer(baseUrl, child, Number(process.env.E2E_SERVER_START_TIMEOUT_MS ?? 120_000));
    } catch (error) {
      const failed = child;
      await stop();
      throw new Error(`${error.message}\n--- server output ---\n${output}`, { cause: failed });
    }
    log(`API: answering at ${baseUrl} after ${((performance.now() - started) / 1000).toFixed(1)} s (data ${dataDir})`);
  }

  /** Stops the server and everything it started (its process group); SIGKILL after 10 s. */
  async function stop() {
    const running = child;
    if (!running) return;
    child = null;
    if (running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolvePromise) => running.once('exit', resolvePromise));
    const signal = (name) => {
      try {
        process.kill(-running.pid, name);
      } catch {
        try {
          running.kill(name);
        } catch {
          // Already gone.
        }
      }
    };
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  /** Synchronous last resort for process exit handlers. */
  function killNow() {
    if (!child?.pid) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  async function dispose() {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  return {
    baseUrl,
    port,
    dataDir,
    start,
    stop,
    dispose,
    killNow,
    running: () => child !== null,
    output: () => output,
  };
}
