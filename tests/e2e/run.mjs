#!/usr/bin/env node
// `npm run test:e2e`: the browser end-to-end suite.
//
// 1. builds the console (`vite build`) when dist/ is older than its sources;
// 2. starts a real SMTP server in this process (smtp-server, server/modules/mail/testing/smtpTestServer.ts) and the
//    reference API as `npm start` does (`node server/start/start.mjs`) on a fresh PGlite data folder and a free
//    loopback port, delivering its e-mail to that SMTP server (SMTP_URL);
// 3. runs the journeys (tests/e2e/journeys/*.e2e.ts) with Vitest, one file after another, each test in its own
//    Chromium context; a small control endpoint on loopback lets a journey stop and restart the API and read the
//    e-mail delivered so far;
// 4. stops the API whatever happened, removes the data folder, and checks the accessibility audits the journeys
//    recorded (zero serious or critical axe violations).
//
// Usage: npm run test:e2e [-- [--no-build] [--verbose-server] [vitest filters, e.g. voucher]]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';
import { CHROMIUM, HOST, ROOT, createStack, ensureBuild } from './lib/stack.mjs';
import { summariseAudits } from './lib/axeReport.mjs';

register();
const { startSmtpTestServer } = await import('../../server/modules/mail/testing/smtpTestServer.ts');

const startedAt = performance.now();
const argv = process.argv.slice(2);
const flags = new Set(argv.filter((arg) => ['--no-build', '--verbose-server'].includes(arg)));
const passThrough = argv.filter((arg) => !flags.has(arg));
const log = (line) => console.log(`[e2e] ${line}`);

if (!existsSync(CHROMIUM)) {
  console.error(`[e2e] Chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH).`);
  process.exit(2);
}

const workDir = mkdtempSync(join(tmpdir(), 'admin-e2e-run-'));
const axeReport = join(workDir, 'axe.jsonl');
const artifacts = join(ROOT, 'tests', 'e2e', '.artifacts');
rmSync(artifacts, { recursive: true, force: true });
mkdirSync(artifacts, { recursive: true });

let stack = null;
let control = null;
let smtp = null;
let exitCode = 1;

const cleanUpNow = () => stack?.killNow();
process.on('exit', cleanUpNow);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanUpNow();
    process.exit(130);
  });
}

/**
 * The journeys' handle on the API process: POST /stop and POST /start (the fault journeys), GET /status, and
 * GET /mail?to=<address>: the e-mail the SMTP server received for that address, in order.
 * Loopback only, lives as long as this run, and is no part of the product.
 */
function startControl() {
  const server = createServer((request, response) => {
    const reply = (status, body) => {
      // A fresh connection for each call: a journey's next call may come after the idle connection's keep-alive
      // timeout (5 s), and a request sent on a connection the server is closing is lost ("other side closed").
      response.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
      response.end(JSON.stringify(body));
    };
    const act = async () => {
      const url = new URL(request.url, 'http://control');
      if (request.method === 'GET' && url.pathname === '/mail') {
        const to = (url.searchParams.get('to') ?? '').toLowerCase();
        return reply(200, { data: smtp.delivered.filter((mail) => mail.to.includes(to)) });
      }
      if (request.method === 'POST' && request.url === '/stop') await stack.stop();
      else if (request.method === 'POST' && request.url === '/start') await stack.start();
      else if (request.method !== 'GET' || request.url !== '/status') return reply(404, { message: 'unknown' });
      return reply(200, { running: stack.running() });
    };
    act().catch((error) => reply(500, { message: String(error?.message ?? error) }));
  });
  return new Promise((resolvePromise) => server.listen(0, HOST, () => resolvePromise(server)));
}

function runVitest(env) {
  return new Promise((resolvePromise) => {
    const child = spawn(
      join(ROOT, 'node_modules', '.bin', 'vitest'),
      ['run', '--config', 'tests/e2e/vitest.config.ts', ...passThrough],
      { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } },
    );
    child.on('exit', (code, signal) => resolvePromise(code ?? (signal ? 1 : 0)));
  });
}

try {
  if (!flags.has('--no-build')) await ensureBuild({ log });
  smtp = await startSmtpTestServer();
  log(`e-mail: delivered to the SMTP server at ${smtp.url}`);
  stack = await createStack({
    log,
    quiet: !flags.has('--verbose-server'),
    env: { SMTP_URL: smtp.url, MAIL_FROM: '"Trade Data console" <no-reply@example.com>' },
  });
  await stack.start();
  control = await startControl();
  const vitestCode = await runVitest({
    E2E_BASE_URL: stack.baseUrl,
    E2E_CONTROL_URL: `http://${HOST}:${control.address().port}`,
    E2E_DATA_DIR: stack.dataDir,
    E2E_AXE_REPORT: axeReport,
    E2E_ARTIFACTS: artifacts,
  });
  const audits = existsSync(axeReport)
    ? readFileSync(axeReport, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  const { lines, blocking } = summariseAudits(audits);
  log('accessibility (axe-core, serious and critical violations fail the run):');
  for (const line of lines) console.log(`  ${line}`);
  exitCode = vitestCode !== 0 ? vitestCode : blocking > 0 ? 1 : 0;
} catch (error) {
  console.error(`[e2e] ${error?.stack ?? error}`);
  exitCode = 1;
} finally {
  await new Promise((resolvePromise) => (control ? control.close(resolvePromise) : resolvePromise()));
  await stack?.dispose().catch((error) => console.error(`[e2e] stopping the API: ${error.message}`));
  await smtp?.close();
  rmSync(workDir, { recursive: true, force: true });
  log(`finished in ${((performance.now() - startedAt) / 1000).toFixed(1)} s with exit code ${exitCode}`);
}
process.exit(exitCode);
