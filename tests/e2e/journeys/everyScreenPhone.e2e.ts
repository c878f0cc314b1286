import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { AREAS } from '../../../src/generated/routes.ts';
import { TRADE_CSV_WITH_REJECTS } from '../../../server/modules/uploads/testing/tradeCsv.ts';
import { sendFileOverHttp } from '../../../server/modules/uploads/testing/tusRequests.ts';
import { ADMIN, OPERATOR } from '../support/accounts.ts';
import { Api, unique } from '../support/api.ts';
import { API_URL } from '../support/env.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { publishEveryImport } from '../support/review.ts';

useBrowser();
publishEveryImport();

const PHONE = { width: 390, height: 844 };

/** Every screen a link leads to (lists, add forms, custom screens), from the route table the CLI writes. */
const SCREENS = [
  ...new Set(
    AREAS.filter((area) => area.layout === 'admin').flatMap((area) =>
      area.routes.filter((route) => route.routable).map((route) => route.path),
    ),
  ),
];
const LISTS = new Set(
  AREAS.flatMap((area) =>
    area.routes.filter((route) => route.routable && route.screen === 'list').map((route) => route.path),
  ),
);

/** The page scrolls sideways when the document is wider than the window: a table or dialog must scroll in its panel. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** What reaches past the window's right edge, outermost first, to name in a failure. */
const widerThanWindow = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main *')]
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .slice(0, 5)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${element.className} (${Math.round(element.getBoundingClientRect().right)} px)`,
      )
      .join(', '),
  );

/** The newest upload, first in its list: one with rejected lines, whose table must scroll in its panel on a phone. */
async function uploadWithRejectedLines(): Promise<void> {
  const operator = await Api.login(OPERATOR.email, OPERATOR.password);
  const countries = (await operator.get<{ data: { value: number }[] }>('countries/options')).data;
  const file = TRADE_CSV_WITH_REJECTS;
  const ticket = await operator.post<{ data: { upload_url: string; complete_path: string } }>('uploads', {
    country_id: countries.at(-1)!.value,
    trade_direction: 'export',
    period: '2026-09',
    file_name: `${unique('phone-').toLowerCase()}-a-file-name-long-enough-to-need-wrapping-on-a-phone.csv`,
    size: Buffer.byteLength(file),
  });
  await sendFileOverHttp(API_URL, ticket.data.upload_url, file);
  await operator.raw('POST', ticket.data.complete_path, {});
}

async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"], main .page-status'));
}

describe('every screen at 390 px', () => {
  journey(
    'each screen a link opens, and the first record of each list, fits a 390 px phone with no sideways scroll, axe clean',
    async ({ page, signIn, audit }) => {
      expect(SCREENS.length).toBeGreaterThan(30);
      await uploadWithRejectedLines();
      await signIn(ADMIN);
      await page.setViewportSize(PHONE);
      for (const path of SCREENS) {
        await page.goto(path);
        await settled(page);
        expect(await pageWidth(page), `${path}: ${await widerThanWindow(page)}`).toBeLessThanOrEqual(PHONE.width);
        await audit(`${path} at 390 px`);
        if (!LISTS.has(path)) continue;
        // The record a row opens (its detail, the subscriber's page or its edit form).
        const record = page.locator('main table tbody tr a').first();
        if ((await record.count()) === 0) continue;
        const target = await record.getAttribute('href');
        await record.click();
        await page.waitForURL((url) => url.pathname === target);
        await settled(page);
        expect(await pageWidth(page), `${target}: ${await widerThanWindow(page)}`).toBeLessThanOrEqual(PHONE.width);
        await audit(`${target} (a record of ${path}) at 390 px`);
      }
    },
    { timeout: 600_000 },
  );
});
