import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { Api, type TokenPair } from './api.ts';
import { audit } from './axe.ts';
import chromiumSettings from '../lib/chromium.json';
import { ARTIFACTS, BASE_URL, REFRESH_KEY, TOKEN_KEY } from './env.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH || chromiumSettings.executablePath;
export const VIEWPORT = chromiumSettings.viewport;

let browser: Browser | null = null;

/** One Chromium per journey file; every journey gets its own context (fresh storage, cookies, cache). */
export function useBrowser(): void {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: chromiumSettings.args });
  });
  afterAll(async () => {
    await browser?.close();
    browser = null;
  });
}

export interface Account {
  email: string;
  password: string;
}

export interface Journey {
  name: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page (pageerror), for journeys that want to assert none happened. */
  pageErrors: Error[];
  /** Another context (fresh storage), e.g. a second user. Closed with the journey. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** Signs in through the API and stores the tokens as the console would (SESSION-06); no page is loaded. */
  signIn(account: Account, context?: BrowserContext): Promise<TokenPair>;
  /** axe-core on the page as it is now, recorded for the run's accessibility summary. */
  audit(screen: string, page?: Page): Promise<void>;
}

function slug(text: string): string {
  return text
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}

/** Writes tokens into a context's localStorage from a blank page of the console's origin (null: none stored). */
export async function storeTokens(
  context: BrowserContext,
  tokens: { access: string; refresh: string | null },
): Promise<void> {
  const page = await context.newPage();
  const blank = `${BASE_URL}/__e2e_blank__`;
  await page.route(blank, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>blank</title>' }),
  );
  await page.goto(blank);
  await page.evaluate(
    ([accessKey, refreshKey, access, refresh]) => {
      localStorage.setItem(accessKey, access);
      if (refresh === null) localStorage.removeItem(refreshKey);
      else localStorage.setItem(refreshKey, refresh);
    },
    [TOKEN_KEY, REFRESH_KEY, tokens.access, tokens.refresh] as const,
  );
  await page.close();
}

/**
 * One end-to-end journey: a fresh browser context at 1280x800 on the console's origin. When the journey fails,
 * every open page is saved as a PNG under tests/e2e/.artifacts/ before the context closes.
 */
export function journey(
  name: string,
  body: (journey: Journey) => Promise<void>,
  options: BrowserContextOptions & { timeout?: number } = {},
) {
  const { timeout, ...contextOptions } = options;
  it(
    name,
    async () => {
      if (!browser) throw new Error('useBrowser() was not called in this file');
      const contexts: BrowserContext[] = [];
      const newContext = async (extra: BrowserContextOptions = {}) => {
        const context = await browser!.newContext({
          viewport: VIEWPORT,
          baseURL: BASE_URL,
          ...contextOptions,
          ...extra,
        });
        context.setDefaultTimeout(15_000);
        context.setDefaultNavigationTimeout(30_000);
        contexts.push(context);
        return context;
      };
      const context = await newContext();
      const page = await context.newPage();
      const pageErrors: Error[] = [];
      page.on('pageerror', (error) => pageErrors.push(error));
      // Errors the console logged (production builds keep console.error), reported with a failure.
      const browserErrors: string[] = [];
      context.on('console', (message) => {
        if (message.type() === 'error') browserErrors.push(message.text().split('\n').slice(0, 2).join(' | '));
      });
      const current: Journey = {
        name,
        browser,
        context,
        page,
        pageErrors,
        newContext,
        async signIn(account, target = context) {
          const api = await Api.login(account.email, account.password);
          await storeTokens(target, api.tokens!);
          return api.tokens!;
        },
        async audit(screen, target = page) {
          await audit(target, name, screen);
        },
      };
      try {
        await body(current);
      } catch (error) {
        const distinct = [...new Set(browserErrors.filter((text) => !text.startsWith('Failed to load resource')))];
        if (error instanceof Error && distinct.length > 0) {
          error.message += `\n  Browser console errors during the journey:\n${distinct
            .slice(0, 5)
            .map((text) => `    ${text.slice(0, 300)}`)
            .join('\n')}`;
        }
        if (ARTIFACTS) {
          mkdirSync(ARTIFACTS, { recursive: true });
          let index = 0;
          for (const open of contexts.flatMap((each) => each.pages())) {
            index += 1;
            await open.screenshot({ path: join(ARTIFACTS, `${slug(name)}-${index}.png`) }).catch(() => undefined);
          }
        }
        throw error;
      } finally {
        await Promise.all(contexts.map((each) => each.close().catch(() => undefined)));
      }
    },
    timeout,
  );
}
