import { describe, expect } from 'vitest';
import { openDatabase } from '../../../server/db/open.ts';
import { ADMIN } from '../support/accounts.ts';
import { Api, uniqueLetters } from '../support/api.ts';
import { startApi, stopApi } from '../support/control.ts';
import { DATA_DIR } from '../support/env.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { pathOf } from '../support/ui.ts';

useBrowser();

/** The last mail sent to `email`, read from the outbox with the API stopped (one process owns the PGlite folder). */
async function lastMailTo(email: string): Promise<string> {
  await stopApi();
  try {
    const db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir: DATA_DIR });
    try {
      const [mail] = await db.query<{ body: string }>('SELECT body FROM outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1', [email]);
      if (!mail) throw new Error(`no mail to ${email}`);
      return mail.body;
    } finally {
      await db.close();
    }
  } finally {
    await startApi();
  }
}

describe('e-mailed links', () => {
  journey('the verify link of a new user opens the verify screen, which verifies the address', async ({ page }) => {
    const admin = await Api.login(ADMIN.email, ADMIN.password);
    const roles = await admin.get<{ data: Array<{ value: number; label: string }> }>('roles/options?q=Read%20Only');
    const email = `verify.${uniqueLetters(8).toLowerCase()}@example.com`;
    await admin.post('users', { first_name: 'Vikram', last_name: 'Verify', email, mobile: '9876512345', role_id: roles.data[0]!.value, password: 'Verify@13579', confirm_password: 'Verify@13579' });

    const link = new URL(/https?:\/\/\S+/.exec(await lastMailTo(email))![0]);
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByText('Your email address has been verified.').waitFor();
    expect(pathOf(page)).toBe('/auth/verify-email');
  });
});
