import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITY_RESOURCES, MODULE, entityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { startTestServer, type TestServer } from '../../testing/testServer.ts';
import { listQuery } from '../resources/read.ts';
import { ResourceTable } from '../resources/sql.ts';
import { documentAjv, resolvedAnswer } from './testing/documentAjv.ts';

type Schema = Record<string, any>;

const BASE = '/api/v1';
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** A real answer of the server: the operation it answers (as the document names it) and its status and body. */
interface Captured {
  path: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  status: number;
  body: unknown;
}

describe('real answers of the server, against the document it serves', () => {
  let server: TestServer;
  let document: Schema;
  const answers: Captured[] = [];

  beforeAll(async () => {
    server = await startTestServer('pglite', {}, { demoSubscribers: 100 });
    const admin = await server.auth('Super Admin');
    const viewer = await server.auth('Read Only');
    document = (await server.app.inject({ method: 'GET', url: `${BASE}/openapi.json` })).json() as Schema;
    const call = async (
      method: Captured['method'],
      path: string,
      url = path,
      payload?: object,
      headers: Record<string, string> = admin,
    ) => {
      const response = await server.app.inject({
        method: method.toUpperCase() as 'GET',
        url: `${BASE}${url}`,
        headers,
        ...(payload ? { payload } : {}),
      });
      answers.push({ path, method, status: response.statusCode, body: response.json() });
      return response;
    };

    // Every resource's list page, first record and options: the generic answers of each record schema.
    for (const resource of ENTITY_RESOURCES) {
      const base = `/${resource.api}`;
      if (resource.actions.includes('view')) {
        const page = await call('get', base, `${base}?_page_size=3`);
        const first = (page.json() as { data: Array<{ id: number }> }).data[0];
        if (first) await call('get', `${base}/{id}`, `${base}/${first.id}`);
      }
      await call('get', `${base}/options`);
    }
    for (const path of [
      '/user/permission',
      '/user/profile',
      '/notification',
      '/modules',
      '/reports/summary',
      '/sync-trending-data',
      '/uploaded-data-report',
    ])
      await call('get', path);
    await call('get', '/uploads/columns', '/uploads/columns?trade_direction=import');
    await call('get', '/roles/{id}/permissions', '/roles/1/permissions');
    const firstId = async (module: string) =>
      (
        await server.db.query<{ id: number }>(
          `SELECT id FROM ${quoted(entityResource(module)!.entity.table)} ORDER BY id LIMIT 1`,
        )
      )[0]?.id;
    const subscriber = (await firstId(MODULE.subscribers))!;
    await call('get', '/subscribers/{id}/summary', `/subscribers/${subscriber}/summary`);
    await call('get', '/subscribers/{id}/ledger', `/subscribers/${subscriber}/ledger`);
    await call('get', '/users/{id}/email-verification', '/users/1/email-verification');
    await call(
      'get',
      '/executives/{id}/subscribers',
      `/executives/${(await firstId(MODULE.executiveProfile))!}/subscribers`,
    );

    // Writes, and the error answers.
    await call('post', '/login', '/login', { email: 'viewer@example.com', password: 'Viewer@12345' }, {});
    await call('post', '/forget_password', '/forget_password', { email: 'operator@example.com' }, {});
    // After the reset link above, so the mailbox lists a message.
    const mailbox = await call('get', '/dev/mailbox');
    if ((mailbox.json() as { data: unknown[] }).data.length === 0)
      throw new Error('the development mailbox lists no message');
    const country = await call('post', '/countries', '/countries', {
      name: 'Contractland',
      iso2: 'CL',
      iso3: 'CLD',
      region: 'asia',
      currency_code: 'INR',
    });
    const countryId = (country.json() as { data: { id: number } }).data.id;
    await call(
      'put',
      '/countries/{id}',
      `/countries/${countryId}`,
      { name: 'Contractland', iso2: 'CL', iso3: 'CLD', region: 'europe', currency_code: 'EUR' },
      { ...admin, 'if-match': '"1"' },
    );
    await call(
      'patch',
      '/countries/{id}/status',
      `/countries/${countryId}/status`,
      { is_active: false },
      { ...admin, 'if-match': '"1"' },
    );
    await call('patch', '/countries/{id}/status', `/countries/${countryId}/status`, { is_active: false }, admin);
    await call('post', '/subscribers/{id}/top-ups', `/subscribers/${subscriber}/top-ups`, {
      points: 10,
      amount: 5,
      idempotency_key: 'contract-top-up-1',
    });
    await call('post', '/countries', '/countries', { name: '' });
    await call('get', '/countries', '/countries', undefined, {});
    await call('delete', '/countries/{id}', `/countries/${countryId}`, undefined, { ...viewer, 'if-match': '"2"' });
    await call('get', '/countries/{id}', '/countries/999999');
    await call('post', '/notification/mark-all-as-read', '/notification/mark-all-as-read', {});
  }, 120_000);
  afterAll(async () => server?.close());

  it('answered every kind of answer the check below relies on', () => {
    expect(answers.length).toBeGreaterThan(80);
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200, 201, 400, 401, 403, 404, 412, 428]));
  });

  it("list pages and records, written (and cached) by their route's serialiser, are their table's rows exactly", async () => {
    const admin = await server.auth('Super Admin');
    let rows = 0;
    for (const resource of ENTITY_RESOURCES.filter((candidate) => candidate.actions.includes('view'))) {
      const table = new ResourceTable(resource);
      const query = listQuery(resource, { _page: 1, _page_size: 100 });
      const expected = await table.list(server.db, query, null);
      const page = await server.app.inject({
        method: 'GET',
        url: `${BASE}/${resource.api}?_page_size=100`,
        headers: admin,
      });
      expect(page.json(), resource.key).toEqual(
        JSON.parse(JSON.stringify({ data: expected.rows, meta: { total: expected.total, page: 1, page_size: 100 } })),
      );
      rows += expected.rows.length;
      const first = expected.rows[0];
      if (!first) continue;
      const record = await server.app.inject({
        method: 'GET',
        url: `${BASE}/${resource.api}/${String(first.id)}`,
        headers: admin,
      });
      expect(record.json(), resource.key).toEqual(
        JSON.parse(JSON.stringify({ data: await table.get(server.db, Number(first.id), null) })),
      );
    }
    expect(rows).toBeGreaterThan(300);
  });

  it('each answer has its documented shape (nulls, relation labels and errors included)', () => {
    const { ajv, rewrite } = documentAjv(document);
    const mismatches: string[] = [];
    for (const { path, method, status, body } of answers) {
      const answer = resolvedAnswer(document, document.paths[path]?.[method]?.responses?.[String(status)]);
      const schema = (answer as Schema | undefined)?.content?.['application/json']?.schema;
      if (!schema) {
        mismatches.push(
          `${method} ${path} answered ${status}, which it does not document: ${JSON.stringify(body).slice(0, 200)}`,
        );
        continue;
      }
      const validate = ajv.compile(rewrite(schema));
      if (!validate(body)) mismatches.push(`${method} ${path} ${status}: ${JSON.stringify(validate.errors)}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('a client generated from the document (openapi-typescript) type-checks against them, and refuses a wrong one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'openapi-client-'));
    try {
      await writeFile(join(folder, 'api.d.ts'), astToString(await openapiTS(document as never)));
      const typeOf = ({ path, method, status }: Captured) =>
        `paths[${JSON.stringify(path)}]['${method}']['responses'][${status}]['content']['application/json']`;
      const lines = answers.map(
        (answer, index) => `export const answer${index}: ${typeOf(answer)} = ${JSON.stringify(answer.body)};`,
      );
      await writeFile(join(folder, 'answers.ts'), `import type { paths } from './api';\n\n${lines.join('\n')}\n`);
      // The same record twice, once with a field the document lacks and once with an id of the wrong type.
      const record = answers.find((answer) => answer.path === '/subscribers/{id}' && answer.status === 200)!;
      const { data } = record.body as { data: Record<string, unknown> };
      await writeFile(
        join(folder, 'wrong.ts'),
        [
          "import type { paths } from './api';",
          `export const unknownField: ${typeOf(record)} = ${JSON.stringify({ data: { ...data, not_in_the_document: 1 } })};`,
          `export const wrongType: ${typeOf(record)} = ${JSON.stringify({ data: { ...data, id: String(data.id) } })};`,
        ].join('\n'),
      );
      const tsconfig = {
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'esnext',
          moduleResolution: 'bundler',
          types: [],
          skipLibCheck: false,
        },
        files: ['answers.ts', 'wrong.ts'],
      };
      await writeFile(join(folder, 'tsconfig.json'), JSON.stringify(tsconfig));
      const output = await promisify(execFile)(process.execPath, [TSC, '-p', 'tsconfig.json', '--pretty', 'false'], {
        cwd: folder,
        maxBuffer: 64 * 1024 * 1024,
      }).then(
        ({ stdout }) => stdout,
        (failure: { stdout: string }) => failure.stdout,
      );
      const errors = output.split('\n').filter((line) => line.includes('error TS'));
      expect(
        errors.filter((line) => !line.startsWith('wrong.ts(')),
        'errors in the real answers',
      ).toEqual([]);
      expect(
        errors.some((line) => line.startsWith('wrong.ts(2,') && line.includes('not_in_the_document')),
        output,
      ).toBe(true);
      expect(
        errors.some((line) => line.startsWith('wrong.ts(3,')),
        output,
      ).toBe(true);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
