import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderConsole, signInAs } from './consoleApp.tsx';
import { ORIGIN, callApi, login, startRealApi, type RealApi } from './realApi.ts';

let api: RealApi;
beforeAll(async () => {
  api = await startRealApi();
});
afterAll(async () => {
  await api?.close();
});

describe('the role matrix against the real API', () => {
  it("a role edited in the matrix changes what that role's users may do: a removed action answers 403, an added one 200", async () => {
    const admin = await signInAs('Super Admin');
    const roles = await callApi(admin.access, 'GET', `roles?q=${encodeURIComponent('Read Only')}`);
    const readOnly = (roles.body.data as { id: number; name: string }[]).find((role) => role.name === 'Read Only')!;
    const viewer = await login('Read Only');
    // Before: the Read Only role sees vouchers and banners and cannot switch a voucher off.
    expect((await callApi(viewer.access, 'GET', 'vouchers')).status).toBe(200);
    expect((await callApi(viewer.access, 'GET', 'banners')).status).toBe(200);
    expect((await callApi(viewer.access, 'PATCH', 'vouchers/1/status', { is_active: false })).status).toBe(403);

    const user = userEvent.setup();
    const { history } = renderConsole(`/user-management/roles/${readOnly.id}/edit`);
    expect(await screen.findByLabelText(/^Name/, {}, { timeout: 10_000 })).toHaveValue('Read Only');
    const view = screen.getByRole('checkbox', { name: 'Vouchers: View' });
    const activeInactive = screen.getByRole('checkbox', { name: 'Vouchers: Activate or deactivate' });
    expect(view).toBeChecked();
    expect(activeInactive).not.toBeChecked();
    await user.click(activeInactive);
    // Banners lose View, and with it every action that needs it.
    await user.click(screen.getByRole('checkbox', { name: 'Banners: View' }));
    await user.click(screen.getByRole('button', { name: 'Save role' }));
    await waitFor(() => expect(history.location.pathname).toBe('/user-management/roles'), { timeout: 10_000 });

    // After, on the viewer's existing session: the removed module is refused, the added action allowed.
    expect((await callApi(viewer.access, 'GET', 'banners')).status).toBe(403);
    const voucher = await callApi(admin.access, 'GET', 'vouchers/1');
    const toggled = await callApi(
      viewer.access,
      'PATCH',
      'vouchers/1/status',
      { is_active: false },
      { 'if-match': `"${voucher.body.data.version}"` },
    );
    expect(toggled.status, JSON.stringify(toggled.body)).toBe(200);
    expect(toggled.body.data).toMatchObject({ id: 1, is_active: false });
    // And the role's stored permission set says the same.
    const stored = await callApi(admin.access, 'GET', `roles/${readOnly.id}/permissions`);
    expect(stored.body.data.VOUCHER).toEqual(expect.arrayContaining(['view', 'ACTIVE_INACTIVE']));
    expect(stored.body.data.BANNER).toBeUndefined();
  });

  it('a role whose permission set was saved elsewhere meanwhile: one conflict message, Reload shows their matrix under the typed description, and the save keeps both', async () => {
    const admin = await signInAs('Super Admin');
    const created = await callApi(admin.access, 'POST', 'roles', { name: 'Conflict Role', description: 'Before' });
    const id = created.body.data.id as number;
    const opened = await fetch(`${ORIGIN}/api/v1/roles/${id}/permissions`, {
      headers: { authorization: `Bearer ${admin.access}` },
    });
    const user = userEvent.setup();
    const { history } = renderConsole(`/user-management/roles/${id}/edit`);
    const description = await screen.findByLabelText(/^Description/, {}, { timeout: 10_000 });
    await user.clear(description);
    await user.type(description, 'Typed here');

    const theirs = await callApi(
      admin.access,
      'PUT',
      `roles/${id}/permissions`,
      { permissions: { VOUCHER: ['view'] } },
      { 'if-match': opened.headers.get('etag')! },
    );
    expect(theirs.status).toBe(200);

    await user.click(screen.getByRole('button', { name: 'Save role' }));
    const conflict = await screen.findByText(
      /^This role was changed by someone else since you opened it/,
      {},
      { timeout: 10_000 },
    );
    expect(screen.getAllByText(/changed by someone else since you opened it/)).toHaveLength(1);
    await user.click(within(conflict.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Reload' }));
    expect(
      await screen.findByText('Changed by someone else, now shown: Permissions.', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/^Description/)).toHaveValue('Typed here');
    expect(screen.getByRole('checkbox', { name: 'Vouchers: View' })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Save role' }));
    await waitFor(() => expect(history.location.pathname).toBe('/user-management/roles'), { timeout: 10_000 });
    expect((await callApi(admin.access, 'GET', `roles/${id}`)).body.data.description).toBe('Typed here');
    expect((await callApi(admin.access, 'GET', `roles/${id}/permissions`)).body.data).toEqual({ VOUCHER: ['view'] });
  });
});
