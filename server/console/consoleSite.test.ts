import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { COMPRESSION_THRESHOLD_BYTES, precompressConsole } from './consoleAssets.ts';
import { SIGN_IN_PAGE_FILE, signInPageOf } from './signInPage.ts';
import { startTestServer, testDatabases, type TestServer } from '../testing/testServer.ts';

const databases = await testDatabases();

const SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, index) => `{ id: ${index}, name: 'subscriber ${index}' }`).join(', ')}];\n`;
const STYLES = `.list { color: #123; }\n`.repeat(100);
const PAGE = `<!doctype html><title>Console</title><script type="module" src="/assets/index-Ab12Cd34.js"></script><div id="root"></div>`;
const SIGN_IN_PAGE = signInPageOf(PAGE, '<form><input name="email"><button type="submit">Sign in</button></form>');

/** A built console as `vite build` leaves it: hashed assets, a small page, a source map, and the compressed copies. */
async function builtConsole(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'console-built-'));
  await mkdir(join(folder, 'assets'));
  await writeFile(join(folder, 'index.html'), PAGE);
  await writeFile(join(folder, SIGN_IN_PAGE_FILE), SIGN_IN_PAGE);
  await writeFile(join(folder, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  await writeFile(
    join(folder, 'assets', 'index-Ab12Cd34.js.map'),
    JSON.stringify({ version: 3, sources: ['x'.repeat(4000)] }),
  );
  await writeFile(join(folder, 'assets', 'index-Ef56Gh78.css'), STYLES);
  await writeFile(join(folder, 'assets', 'tiny-Ij90Kl12.js'), 'export const x = 1;\n');
  await precompressConsole(folder);
  return folder;
}

const decoded = (response: LightMyRequestResponse) => {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(response.rawPayload).toString('utf8');
  return response.body;
};

describe('precompressing the built console', () => {
  it('writes a brotli and a gzip copy of each compressible file at or above the threshold, and none of a source map', async () => {
    const folder = await builtConsole();
    try {
      for (const file of ['assets/index-Ab12Cd34.js', 'assets/index-Ef56Gh78.css']) {
        expect(existsSync(join(folder, `${file}.br`)), file).toBe(true);
        expect(existsSync(join(folder, `${file}.gz`)), file).toBe(true);
      }
      expect(PAGE.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
      for (const file of ['index.html', 'assets/tiny-Ij90Kl12.js', 'assets/index-Ab12Cd34.js.map']) {
        expect(existsSync(join(folder, `${file}.br`)), file).toBe(false);
        expect(existsSync(join(folder, `${file}.gz`)), file).toBe(false);
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe.each(databases)(
  'the console and the API served as a production web server serves them, on $kind',
  ({ kind, skip }) => {
    let server: TestServer;
    let app: FastifyInstance;
    let folder: string;

    beforeAll(async () => {
      if (skip) return;
      server = await startTestServer(kind);
      folder = await builtConsole();
      app = await buildApp({ config: server.config, db: server.db, storage: server.storage, consoleDir: folder });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await server?.close();
      if (folder) await rm(folder, { recursive: true, force: true });
    });

    it.skipIf(skip)(
      'a hashed script goes out as its brotli or gzip copy, as the browser asks, else as it is',
      async () => {
        const url = '/assets/index-Ab12Cd34.js';
        const brotli = await app.inject({
          method: 'GET',
          url,
          headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
        });
        expect(brotli.statusCode).toBe(200);
        expect(brotli.headers['content-encoding']).toBe('br');
        expect(brotli.headers['content-type']).toContain('javascript');
        expect(brotli.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
        expect(decoded(brotli)).toBe(SCRIPT);

        const gzipped = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
        expect(gzipped.headers['content-encoding']).toBe('gzip');
        expect(decoded(gzipped)).toBe(SCRIPT);

        const plain = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.body).toBe(SCRIPT);
        for (const response of [brotli, gzipped, plain]) expect(response.headers.vary).toContain('accept-encoding');
      },
    );

    it.skipIf(skip)(
      'hashed assets are cached for good (immutable); the page is revalidated on every use (no-cache)',
      async () => {
        for (const url of ['/assets/index-Ab12Cd34.js', '/assets/index-Ef56Gh78.css', '/assets/tiny-Ij90Kl12.js']) {
          const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
          expect(response.statusCode, url).toBe(200);
          expect(response.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
        }
        const pages = {
          '/': PAGE,
          '/index.html': PAGE,
          '/voucher-management/vouchers': PAGE,
          '/auth/forgot-password': PAGE,
          '/auth/login': SIGN_IN_PAGE,
          '/auth/login?next=%2Fhome': SIGN_IN_PAGE,
        };
        for (const [url, page] of Object.entries(pages)) {
          const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
          expect(response.statusCode, url).toBe(200);
          expect(decoded(response), url).toBe(page);
          expect(response.headers['cache-control'], url).toBe('no-cache');
        }
      },
    );

    it.skipIf(skip)(
      "the sign-in page carries the form before the console's root, and its one inline script is allowed by hash",
      async () => {
        const response = await app.inject({ method: 'GET', url: '/auth/login' });
        const page = decoded(response);
        expect(page.indexOf('<div id="sign-in-prerendered"><form>')).toBeLessThan(page.indexOf('<div id="root">'));
        const inline = [...page.matchAll(/<script>(.*?)<\/script>/g)].map((match) => match[1] ?? '');
        expect(inline).toHaveLength(1);
        const hash = createHash('sha256')
          .update(inline[0] ?? '')
          .digest('base64');
        const scriptSources = /script-src ([^;]*)/.exec(String(response.headers['content-security-policy']))?.[1];
        expect(scriptSources?.split(' ')).toEqual(["'self'", `'sha256-${hash}'`]);
      },
    );

    it.skipIf(skip)(
      'static files set no cookie; the page, which sign-in starts from, sets the anti-forgery cookie',
      async () => {
        for (const url of ['/assets/index-Ab12Cd34.js', '/assets/index-Ef56Gh78.css', '/assets/tiny-Ij90Kl12.js']) {
          const response = await app.inject({ method: 'GET', url });
          expect(response.statusCode, url).toBe(200);
          expect(response.headers['set-cookie'], url).toBeUndefined();
        }
        for (const url of ['/', '/index.html', '/auth/login']) {
          const response = await app.inject({ method: 'GET', url });
          expect(String(response.headers['set-cookie']), url).toMatch(/^XSRF-TOKEN=/);
        }
        const login = await app.inject({
          method: 'POST',
          url: '/api/v1/login',
          payload: { email: 'nobody@example.com', password: 'wrong' },
        });
        expect(String(login.headers['set-cookie'])).toMatch(/^XSRF-TOKEN=/);
      },
    );

    it.skipIf(skip)('the compressed copies and source maps are not files of their own', async () => {
      for (const url of [
        '/assets/index-Ab12Cd34.js.br',
        '/assets/index-Ab12Cd34.js.gz',
        '/assets/index-Ab12Cd34.js.map',
      ]) {
        expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
      }
    });

    it.skipIf(skip)(
      'API answers above the threshold are compressed as the client asks; smaller ones go out as they are',
      async () => {
        const document = await app.inject({
          method: 'GET',
          url: '/api/v1/openapi.json',
          headers: { 'accept-encoding': 'br, gzip' },
        });
        expect(document.statusCode).toBe(200);
        expect(document.headers['content-encoding']).toBe('br');
        expect(document.headers.vary).toContain('accept-encoding');
        const text = decoded(document);
        expect(document.rawPayload.length).toBeLessThan(text.length / 5);
        expect(JSON.parse(text)).toMatchObject({ openapi: expect.stringMatching(/^3\.1/) });

        const admin = await server.auth('Super Admin');
        const users = await app.inject({
          method: 'GET',
          url: '/api/v1/users?_page_size=100',
          headers: { ...admin, 'accept-encoding': 'gzip' },
        });
        expect(users.statusCode).toBe(200);
        expect(users.headers['content-encoding']).toBe('gzip');
        expect(JSON.parse(decoded(users))).toMatchObject({
          data: expect.arrayContaining([expect.objectContaining({ email: 'admin@example.com' })]),
        });

        const small = await app.inject({
          method: 'GET',
          url: '/api/v1/vouchers',
          headers: { ...admin, 'accept-encoding': 'br, gzip' },
        });
        expect(small.statusCode).toBe(200);
        expect(small.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
        expect(small.headers['content-encoding']).toBeUndefined();
        expect(small.json()).toMatchObject({ data: [] });
      },
    );
  },
);
