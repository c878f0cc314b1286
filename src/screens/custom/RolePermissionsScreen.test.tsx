import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { permissionStore } from '../../permissions/index.ts';
import { roles } from '../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import RolePermissionsScreen from './RolePermissionsScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('RolePermissionsScreen', () => {
  it('saves the role and its permission matrix, then reads the signed-in user permissions again', async () => {
    signInWith({ ROLES: ['view', 'edit'] });
    let permissionLoads = 0;
    let saved: unknown;
    server.use(
      mock.get(api('user/permission'), () => {
        permissionLoads += 1;
        return HttpResponse.json({
          data: {
            ROLES: {
              order: 1,
              actions: {
                view: { is_routable: true, route_url: '/user-management/roles' },
                edit: { is_routable: false, route_url: '' },
              },
            },
          },
        });
      }),
      mock.get(api('roles/4'), () =>
        HttpResponse.json({ data: { id: 4, name: 'Support', description: null, is_active: true } }),
      ),
      mock.get(api('roles/4/permissions'), () => HttpResponse.json({ data: { VOUCHER: ['view'] } })),
      mock.put(api('roles/4'), () => HttpResponse.json({ data: { id: 4 }, message: 'Role updated.' })),
      mock.put(api('roles/4/permissions'), async ({ request }) => {
        saved = await request.json();
        return HttpResponse.json({ message: 'Saved.' });
      }),
    );
    // As the route's guard has, before the screen opens.
    await permissionStore.load();
    const user = userEvent.setup();
    const { history } = renderScreen(RolePermissionsScreen, {
      resource: roles,
      route: routeOf(roles, 'edit', 'role-permissions'),
      at: '/user-management/roles/4/edit',
    });
    expect(await screen.findByLabelText(/^Name/)).toHaveValue('Support');
    expect(screen.getByRole('checkbox', { name: 'Vouchers: View' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Vouchers: Edit' }));
    await user.click(screen.getByRole('checkbox', { name: 'Vouchers: View' }));
    expect(screen.getByRole('checkbox', { name: 'Vouchers: Edit' })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Vouchers: Delete' }));
    expect(screen.getByRole('checkbox', { name: 'Vouchers: View' })).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('Vouchers: View granted too, as Delete needs it.');
    const loadsBefore = permissionLoads;
    await user.click(screen.getByRole('button', { name: 'Save role' }));
    await waitFor(() => expect(saved).toEqual({ permissions: { VOUCHER: ['view', 'delete'] } }));
    await waitFor(() => expect(permissionLoads).toBeGreaterThan(loadsBefore));
    await waitFor(() => expect(history.location.pathname).toBe('/user-management/roles'));
    // The whole matrix (hundreds of boxes) renders on every tick: slow on a busy machine.
  });

  it("copies another role's grants into the matrix, saving nothing until Save", async () => {
    signInWith({ ROLES: ['view', 'edit'] });
    let saves = 0;
    server.use(
      mock.get(api('roles/4'), () =>
        HttpResponse.json({ data: { id: 4, name: 'Support', description: null, is_active: true } }),
      ),
      mock.get(api('roles/4/permissions'), () => HttpResponse.json({ data: { BANNER: ['view'] } })),
      mock.get(api('roles'), () =>
        HttpResponse.json({
          data: [
            { id: 4, name: 'Support' },
            { id: 7, name: 'Sales' },
          ],
          meta: { total: 2, page: 1, page_size: 100 },
        }),
      ),
      mock.get(api('roles/7/permissions'), () => HttpResponse.json({ data: { VOUCHER: ['view', 'download'] } })),
      mock.put(api('roles/4/permissions'), () => {
        saves += 1;
        return HttpResponse.json({ message: 'Saved.' });
      }),
    );
    const user = userEvent.setup();
    renderScreen(RolePermissionsScreen, {
      resource: roles,
      route: routeOf(roles, 'edit', 'role-permissions'),
      at: '/user-management/roles/4/edit',
    });
    expect(await screen.findByRole('checkbox', { name: 'Banners: View' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Copy from role…' }));
    const choice = screen.getByRole('combobox', { name: 'Role to copy' });
    // The role being edited is not offered.
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Choose a role', 'Sales']),
    );
    await user.selectOptions(choice, 'Sales');
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Vouchers: Download' })).toBeChecked());
    expect(screen.getByRole('checkbox', { name: 'Banners: View' })).not.toBeChecked();
    expect(
      screen.getByText('Copied the permissions of Sales. Nothing is saved until you save the role.'),
    ).toBeInTheDocument();
    expect(saves).toBe(0);
  });
});
