import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderConsole, signInAs } from './consoleApp.tsx';
import { callApi, login, startRealApi, type RealApi } from './realApi.ts';

let api: RealApi;
beforeAll(async () => {
  api = await startRealApi();
});
afterAll(async () => {
  await api?.close();
});

/** An administrator takes modules away from the Read Only role, through the API, as another browser would. */
async function takeAwayFromReadOnly(modules: string[]): Promise<void> {
  const admin = await login('Super Admin');
  const roles = await callApi(admin.access, 'GET', `roles?q=${encodeURIComponent('Read Only')}`);
  const role = (roles.body.data as { id: number; name: string }[]).find((candidate) => candidate.name === 'Read Only')!;
  const opened = await callApi(admin.access, 'GET', `roles/${role.id}/permissions`);
  const kept = Object.fromEntries(
    Object.entries(opened.body.data as Record<string, string[]>).filter(([module]) => !modules.includes(module)),
  );
  const read = await fetch(new URL(`/api/v1/roles/${role.id}/permissions`, window.location.href), {
    headers: { authorization: `Bearer ${admin.access}` },
  });
  const saved = await callApi(
    admin.access,
    'PUT',
    `roles/${role.id}/permissions`,
    { permissions: kept },
    { 'if-match': read.headers.get('etag')! },
  );
  expect(saved.status).toBe(200);
}

describe('permissions changed while the user is signed in', () => {
  it('the sidebar and the guards follow at the next answer, and a screen that became forbidden goes to the 403 page', async () => {
    await signInAs('Read Only');
    const user = userEvent.setup();
    const { history } = renderConsole('/voucher-management/vouchers');
    await screen.findByRole('heading', { level: 1, name: 'Vouchers' }, { timeout: 10_000 });
    const sidebar = await screen.findByRole('navigation', { name: 'Main' }, { timeout: 10_000 });
    expect(await within(sidebar).findByRole('link', { name: 'Banners' })).toBeInTheDocument();

    // Another module goes: the next answer (here the list refreshed) names a new version, and the sidebar follows.
    await takeAwayFromReadOnly(['BANNER', 'BANNER_MANAGEMENT']);
    await user.click(await screen.findByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(within(sidebar).queryByRole('link', { name: 'Banners' })).not.toBeInTheDocument(), {
      timeout: 10_000,
    });
    expect(history.location.pathname).toBe('/voucher-management/vouchers');

    // The screen's own module goes: the refused list reads the permissions again and the screen gives way to the 403 page.
    await takeAwayFromReadOnly(['VOUCHER', 'VOUCHER_MANAGEMENT']);
    await user.click(await screen.findByRole('button', { name: 'Refresh' }));
    expect(
      await screen.findByRole('heading', { name: /ERROR 403\s+ACCESS DENIED/ }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(history.location.pathname).toBe('/voucher-management/vouchers');
    expect(
      within(await screen.findByRole('navigation', { name: 'Main' })).queryByRole('link', { name: 'Voucher codes' }),
    ).not.toBeInTheDocument();
  });
});
