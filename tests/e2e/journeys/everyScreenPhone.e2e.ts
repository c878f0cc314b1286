import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { AREAS } from '../../../src/generated/routes.ts';
import { ADMIN } from '../support/accounts.ts';
import { journey, useBrowser } from '../support/journey.ts';

useBrowser();

const PHONE = { width: 390, height: 844 };

/** Every screen a link leads to (lists, add forms, custom screens), from the route table the CLI writes. */
const SCREENS = [...new Set(AREAS.filter((area) => area.layout === 'admin').flatMap((area) => area.routes.filter((route) => route.routable).map((route) => route.path)))];
const LISTS = new Set(AREAS.flatMap((area) => area.routes.filter((route) => route.routable && route.screen === 'list').map((route) => route.path)));

/** The page scrolls sideways when the document is wider than the window: a table or dialog must scroll in its panel. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"], main .page-status'));
}

describe('every screen at 390 px', () => {
  journey(
    'each screen a link opens, and the first record of each list, fits a 390 px phone with no sideways scroll, axe clean',
    async ({ page, signIn, audit }) => {
      expect(SCREENS.length).toBeGreaterThan(30);
      await signIn(ADMIN);
      await page.setViewportSize(PHONE);
      for (const path of SCREENS) {
        await page.goto(path);
        await settled(page);
        expect(await pageWidth(page), path).toBeLessThanOrEqual(PHONE.width);
        await audit(`${path} at 390 px`);
        if (!LISTS.has(path)) continue;
        // The record a row opens (its detail, the subscriber's page or its edit form).
        const record = page.locator('main table tbody tr a').first();
        if ((await record.count()) === 0) continue;
        const target = await record.getAttribute('href');
        await record.click();
        await page.waitForURL((url) => url.pathname === target);
        await settled(page);
        expect(await pageWidth(page), `${target}`).toBeLessThanOrEqual(PHONE.width);
        await audit(`${target} (a record of ${path}) at 390 px`);
      }
    },
    { timeout: 600_000 },
  );
});
