import { randomBytes, timingSafeEqual } from 'node:crypto';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import { SIGN_IN_GUARD_SOURCE } from '../console/signInPage.ts';
import { HttpError } from './errors.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
/** HTTP-04: the caller types the console sends. */
export const APP_SOURCES = ['ADMIN_APP', 'CUSTOMER', 'ADMIN'] as const;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Security headers with a content security policy the built console runs under (no eval, no inline script but the
 * sign-in page's guard, allowed by its hash),
 * the anti-forgery cookie (HTTP-03) and the APP-SOURCE header check (HTTP-04).
 *
 * helmet itself rather than @fastify/helmet: the plugin builds helmet's middleware afresh on every request,
 * parsing the policy each time (measured: 5% of the server's CPU on a cached list read); built once here, each
 * request only sets the finished headers.
 */
export async function registerSecurity(app: FastifyInstance, options: { production: boolean }): Promise<void> {
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", SIGN_IN_GUARD_SOURCE],
        // React and the toast library set style attributes; styles cannot run code.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        // Uploaded files too reach the bucket through this server, never from the browser.
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        ...(options.production ? { upgradeInsecureRequests: [] } : { upgradeInsecureRequests: null }),
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: options.production,
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined)),
  );

  app.addHook('onRequest', async (request, reply) => {
    const source = request.headers['app-source'];
    if (source !== undefined && !APP_SOURCES.includes(String(source) as (typeof APP_SOURCES)[number])) {
      throw new HttpError(400, `APP-SOURCE must be one of ${APP_SOURCES.join(', ')}.`);
    }
    const cookie = request.cookies[XSRF_COOKIE];
    if (!cookie) {
      // A browser's first request (the console page, sign-in) carries no token; a caller that already sends a
      // Bearer token is past that point or is not a browser, and a state change without the cookie is not checked.
      // The console's scripts and styles need none: a cookie there would also keep shared caches from storing them.
      if (request.headers.authorization || request.routeOptions.config.consoleFile) return;
      reply.setCookie(XSRF_COOKIE, randomBytes(24).toString('base64url'), {
        path: '/',
        sameSite: 'strict',
        secure: options.production,
        httpOnly: false,
      });
      return;
    }
    // A request that carries the cookie came from a browser: a state change must echo it in the header.
    // The signed upload URL is exempt: its signature is its authorisation.
    if (!STATE_CHANGING.has(request.method) || request.routeOptions.config.xsrfExempt) return;
    const header = request.headers[XSRF_HEADER];
    if (typeof header !== 'string' || !sameText(header, cookie))
      throw new HttpError(403, 'The anti-forgery token is missing or wrong. Reload the page and try again.');
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    xsrfExempt?: boolean;
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
