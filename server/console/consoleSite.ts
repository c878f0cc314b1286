import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { registerPublicRoutes } from '../modules/auth/access.ts';
import { cacheControlOf, PRECOMPRESSED } from './consoleAssets.ts';
import { isSignInPath, SIGN_IN_PAGE_FILE } from './signInPage.ts';

export interface ConsoleSiteOptions {
  /** Source maps are built with the console but served only when asked for (SERVE_SOURCE_MAPS=true). */
  serveSourceMaps: boolean;
}

/** The console's pages under the URLs the static files answer them at; every other file is a plain file. */
const PAGE_URLS = new Set(['/', '/index.html', `/${SIGN_IN_PAGE_FILE}`]);

/** The page for a path of the console's own (/auth/login, /voucher-management/...). */
export type ConsolePages = (url: string) => Buffer;

/**
 * The built console's files, each a public route of its own, and its pages the not-found handler answers for the
 * console's client-side paths: the sign-in page (index.html with the form in it) for /auth/login, index.html for the
 * others. A file goes out as its brotli or gzip copy when the browser takes it (precompressed at build time,
 * consoleAssets.ts), hashed files cached for good, the pages revalidated on every use.
 */
export async function registerConsoleSite(
  app: FastifyInstance,
  folder: string,
  options: ConsoleSiteOptions,
): Promise<ConsolePages> {
  const page = await readFile(join(folder, 'index.html'));
  // A console built before the sign-in page existed answers index.html there too.
  const signInPage = await readFile(join(folder, SIGN_IN_PAGE_FILE)).catch(() => page);
  await app.register(async (site) => {
    registerPublicRoutes(site);
    site.addHook('onRoute', (route) => {
      route.config = { ...route.config, consoleFile: !PAGE_URLS.has(route.url) };
    });
    await site.register(fastifyStatic, {
      root: folder,
      wildcard: false,
      index: 'index.html',
      preCompressed: true,
      cacheControl: false,
      setHeaders: (response, file) => {
        response.setHeader('cache-control', cacheControlOf(folder, file));
        response.setHeader('vary', 'accept-encoding');
      },
      decorateReply: false,
      // The compressed copies are found beside each file, never served under their own names.
      globIgnore: [
        ...(options.serveSourceMaps ? [] : ['**/*.map']),
        ...PRECOMPRESSED.map(({ extension }) => `**/*${extension}`),
      ],
    });
  });
  return (url) => (isSignInPath(url) ? signInPage : page);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A file of the built console other than its page: no anti-forgery cookie is set on it. */
    consoleFile?: boolean;
  }
}
