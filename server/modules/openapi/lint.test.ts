import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/testServer.ts';

const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}

/**
 * The one finding the recommended rules report that is no fault: `GET banners/images/{name}` and
 * `PATCH banners/{id}/status` both match the text `/banners/images/status`, but never one request, since they differ
 * in method and `{id}` is an integer (the router has one tree per method). The images' paths are in stored banners'
 * `image_url`, so they stay.
 */
const KNOWN = [{ ruleId: 'no-ambiguous-paths', paths: ['/banners/images/{name}', '/banners/{id}/status'] }];

function isKnown(problem: Problem): boolean {
  return KNOWN.some(
    (known) => known.ruleId === problem.ruleId && known.paths.every((path) => problem.message.includes(`\`${path}\``)),
  );
}

/** Runs Redocly CLI's `lint` with its recommended rules on a document; its problems. */
async function lint(document: string): Promise<Problem[]> {
  const folder = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  try {
    await writeFile(join(folder, 'openapi.json'), document);
    await writeFile(join(folder, 'redocly.yaml'), 'extends:\n  - recommended\n');
    const run = promisify(execFile)(
      process.execPath,
      [REDOCLY, 'lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json', '--max-problems', '10000'],
      {
        cwd: folder,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    // It exits 1 when it finds an error; the report on stdout says what either way.
    const stdout = await run.then(
      ({ stdout: text }) => text,
      (failure: { stdout?: string; stderr?: string }) => {
        if (!failure.stdout) throw new Error(`redocly lint did not run: ${failure.stderr}`);
        return failure.stdout;
      },
    );
    return (JSON.parse(stdout) as { problems: Problem[] }).problems;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe("the published OpenAPI document under Redocly CLI's recommended rules", () => {
  let server: TestServer;
  let document: string;

  beforeAll(async () => {
    server = await startTestServer('pglite');
    document = (await server.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body;
  });
  afterAll(async () => server?.close());

  it('has no problem but the one explained above', async () => {
    const problems = await lint(document);
    const report = (problem: Problem) =>
      `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`;
    expect(problems.filter((problem) => !isKnown(problem)).map(report)).toEqual([]);
    expect(problems.filter(isKnown)).toHaveLength(KNOWN.length);
  });

  it('finds the problems it is there to find (a bare shared keyword, an operation without an id)', async () => {
    const broken = JSON.parse(document) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    delete broken.paths['/login']!.post!.operationId;
    const body = broken.paths['/login']!.post!.requestBody as {
      content: Record<string, { schema: { properties: Record<string, Record<string, unknown>> } }>;
    };
    body.content['application/json']!.schema.properties.email!.noWhiteSpace = true;
    const rules = (await lint(JSON.stringify(broken)))
      .filter((problem) => !isKnown(problem))
      .map((problem) => problem.ruleId);
    expect(rules.sort()).toEqual(['operation-operationId', 'struct']);
  });
});
