import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { recordApiCalls } from '../support/ui.ts';

useBrowser();

describe('related-record pickers', () => {
  journey(
    'a picker shows the current value, searches the server as the user types, and picks with the keyboard',
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const [subscriber] = (
        await admin.get<{ data: Array<{ id: number; country_id: number | null; country_id_label: string | null }> }>(
          'subscribers?_page_size=50',
        )
      ).data.filter((row) => row.country_id !== null);
      await signIn(ADMIN);
      const calls = recordApiCalls(page);
      await page.goto(`/subscriber-management/subscribers/${subscriber!.id}/edit`);
      const country = page.getByRole('combobox', { name: /^Country/ });
      await expect.poll(() => country.inputValue()).toBe(subscriber!.country_id_label);

      await country.fill('');
      await country.pressSequentially('germ', { delay: 30 });
      const listbox = page.getByRole('listbox');
      // What is listed always matches what was typed; the server is asked once the typing pauses.
      await expect.poll(() => listbox.getByRole('option').allTextContents()).toEqual(['Germany']);
      await expect
        .poll(() => calls.some((call) => call.path === 'countries/options' && call.query.get('q') === 'germ'))
        .toBe(true);
      await country.press('ArrowDown');
      await country.press('Enter');
      expect(await country.inputValue()).toBe('Germany');
      expect(await country.getAttribute('aria-expanded')).toBe('false');
      await audit('subscriber form with a relation picker');
      const searches = calls
        .filter((call) => call.path === 'countries/options' && call.query.has('q'))
        .map((call) => call.query.get('q'));
      expect(searches).toEqual(['germ']);
    },
  );
});
