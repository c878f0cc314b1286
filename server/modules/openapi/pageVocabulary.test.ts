import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { resolvedAnswer, resolvedSchema } from './testing/documentAjv.ts';

type Schema = Record<string, any>;

const BASE = '/api/v1';
const FORMER_NAMES = ['page', 'pageSize'];

/** A list operation of the document: a GET whose answer carries `meta.total`. */
interface ListOperation {
  path: string;
  query: Map<string, Schema>;
  meta: Schema;
}

function listOperations(document: Schema): ListOperation[] {
  const lists: ListOperation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Schema>)) {
    const get = item.get as Schema | undefined;
    const answer = resolvedAnswer(document, get?.responses?.['200']) as Schema | undefined;
    const body = answer?.content?.['application/json']?.schema as Schema | undefined;
    const meta =
      body && (resolvedSchema(document, (resolvedSchema(document, body) as Schema).properties?.meta ?? {}) as Schema);
    if (!get || !meta?.properties?.total) continue;
    const query = new Map<string, Schema>(
      ((get.parameters ?? []) as Schema[]).filter((one) => one.in === 'query').map((one) => [one.name, one]),
    );
    lists.push({ path, query, meta });
  }
  return lists;
}

describe.each(await testDatabases())('one page vocabulary on every list ($kind)', ({ kind, skip }) => {
  let server: TestServer;
  let document: Schema;
  let admin: Record<string, string>;

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, {}, { demoSubscribers: 30 });
    admin = await server.auth('Super Admin');
    document = (await server.app.inject({ method: 'GET', url: `${BASE}/openapi.json` })).json() as Schema;
  }, 120_000);
  afterAll(async () => server?.close());

  const get = async (url: string) => {
    const response = await server.app.inject({ method: 'GET', url: `${BASE}${url}`, headers: admin });
    return { status: response.statusCode, body: response.json() as Schema };
  };

  it.skipIf(skip)(
    'every list documents `_page_size` (and `_page` where it is paged by number), and the former names only as deprecated',
    () => {
      const lists = listOperations(document);
      // The resource lists, the audit log, history, trash, notifications, views, sessions, sign-ins, the report...
      expect(lists.length).toBeGreaterThan(40);
      for (const { path, query, meta } of lists) {
        expect(query.has('_page_size'), `${path} takes _page_size`).toBe(true);
        expect(meta.properties.page_size, `${path} answers meta.page_size`).toBeDefined();
        if (meta.properties.page) expect(query.has('_page'), `${path} takes _page`).toBe(true);
        for (const former of FORMER_NAMES)
          if (query.has(former)) expect(query.get(former)!.deprecated, `${path}: ${former} is deprecated`).toBe(true);
        for (const [name, property] of Object.entries(meta.properties as Record<string, Schema>))
          if (!/^[a-z_]+$/.test(name)) expect(property.deprecated, `${path}: meta.${name} is deprecated`).toBe(true);
      }
    },
  );

  it.skipIf(skip)(
    'every list answers `_page_size=1` with at most one row and says so in its meta (a record of each kind for paths with an id)',
    async () => {
      let called = 0;
      for (const { path, meta } of listOperations(document)) {
        let url = path;
        const id = /^(.*)\/\{id\}\//.exec(path);
        if (id) {
          // A record of the list the path is under: `/vouchers/{id}/history` takes a voucher's id.
          const owner = await get(`${id[1]}?_page_size=1`);
          const first = (owner.body.data as Array<{ id: number }> | undefined)?.[0];
          if (owner.status !== 200 || !first) continue;
          url = path.replace('{id}', String(first.id));
        }
        if (url.includes('{')) continue;
        const answer = await get(`${url}${url.includes('?') ? '&' : '?'}_page_size=1`);
        expect(answer.status, `GET ${url}`).toBe(200);
        const rows = (answer.body.data?.views ?? answer.body.data) as unknown[];
        expect(rows.length, `GET ${url}`).toBeLessThanOrEqual(1);
        expect(answer.body.meta.page_size, `GET ${url}`).toBe(1);
        if (meta.properties.page) expect(answer.body.meta.page, `GET ${url}`).toBe(1);
        called += 1;
      }
      expect(called).toBeGreaterThan(40);
    },
    120_000,
  );
});
