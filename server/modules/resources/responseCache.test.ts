import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/database.ts';
import { MemoryStorage } from '../uploads/storage.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { ResponseCache } from './responseCache.ts';

/** The text of what the cache keeps under `key` at `version`, or undefined. */
const textOf = (cache: ResponseCache, key: string, version: number) => cache.get(key, version)?.body.toString();

describe('ResponseCache', () => {
  it('answers only under the version an entry was read at, and drops everything when a newer version is seen', () => {
    const cache = new ResponseCache();
    cache.set('a', 5, { body: '{"a":1}' });
    expect(textOf(cache, 'a', 5)).toBe('{"a":1}');
    expect(cache.get('a', 4)).toBeUndefined();
    expect(cache.get('a', 6)).toBeUndefined();
    cache.set('b', 6, { body: '{"b":1}' });
    expect(cache.count).toBe(1);
    expect(cache.get('a', 6)).toBeUndefined();
    // A request that read an older version (just before a commit) must not fill the cache for newer ones.
    cache.set('a', 5, { body: '{"a":"old"}' });
    expect(cache.get('a', 6)).toBeUndefined();
    expect(cache.get('a', 5)).toBeUndefined();
  });

  it('keeps a response as its UTF-8 bytes, with its ETag', () => {
    const cache = new ResponseCache();
    cache.set('record', 1, { body: '{"name":"Zoë Ng – ₹"}', etag: 'W/"3"' });
    const kept = cache.get('record', 1)!;
    expect(Buffer.isBuffer(kept.body)).toBe(true);
    expect(kept.body.equals(Buffer.from('{"name":"Zoë Ng – ₹"}', 'utf8'))).toBe(true);
    expect(kept.etag).toBe('W/"3"');
    cache.rememberTotal('total', 1, 9064);
    expect(cache.total('total', 1)).toBe(9064);
  });

  it('identical requests that miss together share one read; a failed read is not kept', async () => {
    const cache = new ResponseCache();
    let reads = 0;
    const read = async () => {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { body: `{"read":${reads}}` };
    };
    const bodies = await Promise.all([
      cache.response('k', 1, read),
      cache.response('k', 1, read),
      cache.response('k', 1, read),
    ]);
    expect(reads).toBe(1);
    expect(new Set(bodies.map((response) => response.body.toString()))).toEqual(new Set(['{"read":1}']));
    expect((await cache.response('k', 1, read)).body.toString()).toBe('{"read":1}');
    await expect(cache.response('broken', 1, () => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    );
    expect((await cache.response('broken', 1, read)).body.toString()).toBe('{"read":2}');
  });

  it('keeps the bodies within its size in bytes, evicting the least recently used first', () => {
    const cache = new ResponseCache(100);
    cache.set('a', 1, { body: 'x'.repeat(10) });
    cache.set('b', 1, { body: 'x'.repeat(10) });
    for (let index = 0; index < 8; index += 1) cache.set(`fill${index}`, 1, { body: 'y'.repeat(10) });
    expect(cache.get('a', 1)).toBeDefined();
    cache.set('c', 1, { body: 'z'.repeat(10) });
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toBeDefined();
    expect(cache.get('c', 1)).toBeDefined();
    cache.set('huge', 1, { body: 'h'.repeat(11) });
    expect(cache.get('huge', 1)).toBeUndefined();
    // Five characters, eleven bytes: too big for a tenth of 100 bytes.
    cache.set('wide', 1, { body: '₹₹₹ab' });
    expect(cache.get('wide', 1)).toBeUndefined();
  });
});

const databases = await testDatabases();

/**
 * List and record responses come from memory only while the data version the request's own session query read
 * is the one they were read at. Every way data can change shows on the next request: the API, another instance,
 * SQL straight into the database, a related record's label; nothing is shared across scoped callers.
 */
describe.each(databases)('cached list and record responses on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let other: Awaited<ReturnType<typeof buildApp>>;
  let admin: Record<string, string>;
  let countryId: number;
  let subscriberId: number;
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    other = await buildApp({ config: server.config, db: { ...server.db } as Database, storage: new MemoryStorage() });
    await other.ready();
    admin = await server.auth('Super Admin');
    countryId = (
      await call('POST', 'countries', { name: 'India', iso2: 'IN', iso3: 'IND', region: 'asia', currency_code: 'INR' })
    ).body.data.id;
    subscriberId = (
      await call('POST', 'subscribers', {
        name: 'Asha Rao',
        email: 'asha.rao@example.com',
        mobile: '9876543215',
        country_id: countryId,
      })
    ).body.data.id;
  });
  afterAll(async () => {
    await other?.close();
    await server?.close();
  });

  type Body = { data: Record<string, unknown> & { id: number }; meta?: { total: number } };
  const call = async (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: unknown,
    headers = admin,
    app = server.app,
  ) => {
    const response = await app.inject({
      method,
      url: `/api/v1/${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return {
      status: response.statusCode,
      body: response.json() as Body,
      raw: response.body,
      type: response.headers['content-type'],
      etag: response.headers.etag,
    };
  };
  const names = async (app = server.app) =>
    (
      (await call('GET', 'subscribers?_sort=name', undefined, admin, app)).body.data as unknown as Array<{
        name: string;
      }>
    ).map((row) => row.name);
  const version = async () =>
    Number((await server.db.query<{ version: number }>('SELECT version FROM data_version'))[0]!.version);

  it.skipIf(skip)(
    'the same request gets the same JSON, and a change through the API shows on the next one',
    async () => {
      const first = await call('GET', 'subscribers?_sort=name');
      const second = await call('GET', 'subscribers?_sort=name');
      expect(second.raw).toBe(first.raw);
      expect(second.type).toMatch(/^application\/json/);
      const record = await call('GET', `subscribers/${subscriberId}`);
      expect(record.body.data.name).toBe('Asha Rao');
      // A record from memory keeps its ETag, the version its body holds.
      const again = await call('GET', `subscribers/${subscriberId}`);
      expect([record.etag, again.etag, again.raw]).toEqual(['"1"', '"1"', record.raw]);

      const updated = await call(
        'PUT',
        `subscribers/${subscriberId}`,
        { name: 'Asha Menon', email: 'asha.rao@example.com', mobile: '9876543215', country_id: countryId },
        { ...admin, 'if-match': record.etag! },
      );
      expect(updated.status).toBe(200);
      expect(await names()).toEqual(['Asha Menon']);
      const changed = await call('GET', `subscribers/${subscriberId}`);
      expect([changed.body.data.name, changed.etag, changed.body.data.version]).toEqual(['Asha Menon', '"2"', 2]);
      expect((await call('GET', `subscribers/${subscriberId}`)).etag).toBe('"2"');
    },
  );

  it.skipIf(skip)('a change made on another instance or straight in SQL shows on the next request', async () => {
    expect(await names(other)).toEqual(['Asha Menon']);
    const created = await call(
      'POST',
      'subscribers',
      { name: 'Bina Shah', email: 'bina@example.com', mobile: '9876543216', country_id: countryId },
      admin,
      other,
    );
    expect(created.status).toBe(201);
    expect(await names()).toEqual(['Asha Menon', 'Bina Shah']);

    await server.db.query('UPDATE subscribers SET name = $1 WHERE id = $2', ['Asha Iyer', subscriberId]);
    expect(await names()).toEqual(['Asha Iyer', 'Bina Shah']);
    expect(await names(other)).toEqual(['Asha Iyer', 'Bina Shah']);
    expect((await call('GET', `subscribers/${subscriberId}`, undefined, admin, other)).body.data.name).toBe(
      'Asha Iyer',
    );
  });

  it.skipIf(skip)('renaming a related record changes the label the cached list shows', async () => {
    const before = await call('GET', `subscribers/${subscriberId}`);
    expect(before.body.data.country_id_label).toBe('India');
    const renamed = await call(
      'PUT',
      `countries/${countryId}`,
      { name: 'Republic of India', iso2: 'IN', iso3: 'IND', region: 'asia', currency_code: 'INR' },
      { ...admin, 'if-match': '"1"' },
    );
    expect(renamed.status).toBe(200);
    expect((await call('GET', `subscribers/${subscriberId}`)).body.data.country_id_label).toBe('Republic of India');
    const rows = (await call('GET', 'subscribers?_sort=name')).body.data as unknown as Array<{
      country_id_label: string;
    }>;
    expect(rows.map((row) => row.country_id_label)).toEqual(['Republic of India', 'Republic of India']);
  });

  it.skipIf(skip)(
    'a transaction moves the version once at commit however many rows it wrote; a rollback does not move it',
    async () => {
      const start = await version();
      await server.db.transaction(async (tx) => {
        await tx.query('UPDATE subscribers SET mobile = mobile');
        await tx.query('UPDATE countries SET name = name');
      });
      expect(await version()).toBe(start + 1);
      await expect(
        server.db.transaction(async (tx) => {
          await tx.query('UPDATE subscribers SET name = $1', ['Rolled Back']);
          throw new Error('abandon');
        }),
      ).rejects.toThrow('abandon');
      expect(await version()).toBe(start + 1);
      expect(await names()).not.toContain('Rolled Back');
    },
  );

  it.skipIf(skip)(
    "a list's total is counted once for all its pages and sizes, and counted again after a change",
    async () => {
      const counts = vi.spyOn(server.db, 'query');
      const countsRun = () => counts.mock.calls.filter(([sql]) => /count\(\*\)/.test(String(sql))).length;
      const total = async (query: string) => (await call('GET', `subscribers?status=none&${query}`)).body.meta?.total;
      try {
        expect(await total('_page=1&_page_size=1')).toBe(2);
        const counted = countsRun();
        expect(counted).toBeGreaterThan(0);
        expect([
          await total('_page=2&_page_size=1'),
          await total('_page=1&_page_size=5'),
          await total('_page=9&_page_size=1'),
        ]).toEqual([2, 2, 2]);
        expect(countsRun()).toBe(counted);
        // Another filter is another total.
        expect(await total('q=Bina')).toBe(1);
        expect(countsRun()).toBe(counted + 1);
        await server.db.query('UPDATE subscribers SET status = $1 WHERE id = $2', ['expired', subscriberId]);
        expect(await total('_page=2&_page_size=1')).toBe(1);
      } finally {
        counts.mockRestore();
      }
    },
  );

  it.skipIf(skip)('a scoped caller never gets the page cached for a caller who sees more', async () => {
    expect((await names()).length).toBe(2);
    const sales = await server.auth('Sales Executive');
    const listed = await call('GET', 'subscribers?_sort=name', undefined, sales);
    expect(listed.status).toBe(200);
    expect(listed.body.meta?.total).toBe(0);
    expect((await call('GET', `subscribers/${subscriberId}`, undefined, sales)).status).toBe(404);
  });
});

describe.each(databases)('verified access tokens on $kind', ({ kind, skip }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(kind);
  });
  afterAll(async () => server?.close());
  afterEach(() => vi.useRealTimers());

  const status = (token: string) =>
    server.app
      .inject({ method: 'GET', url: '/api/v1/countries', headers: { authorization: `Bearer ${token}` } })
      .then((response) => response.statusCode);

  it.skipIf(skip)(
    'a token seen before still fails once it expires, and a tampered copy of a known token is checked afresh',
    async () => {
      const { access } = await server.login('Super Admin');
      expect(await status(access)).toBe(200);
      expect(await status(access)).toBe(200);
      const [header, payload, signature] = access.split('.');
      const flipped = `${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
      expect(await status(`${header}.${payload}.${flipped}`)).toBe(401);
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { exp: number };
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime((claims.exp + 1) * 1000);
      expect(await status(access)).toBe(401);
    },
  );
});
