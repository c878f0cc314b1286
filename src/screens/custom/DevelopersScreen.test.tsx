import { screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { customResource } from '../testing/fixtures.ts';
import { renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import DevelopersScreen from './DevelopersScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const resource = customResource('MODULE_REGISTRY', 'modules', ['view'], '/developers/modules');

describe('DevelopersScreen', () => {
  it("lists the manifest's modules with their routes, offered actions and the user's own permissions", async () => {
    signInWith({ VOUCHER: ['view', 'edit'] });
    renderScreen(DevelopersScreen, { resource, route: routeOf(resource, 'view', 'developers') });
    const voucherRow = (await screen.findByRole('rowheader', { name: 'VOUCHER' })).closest('tr')!;
    expect(within(voucherRow).getByText('/voucher-management/vouchers')).toBeInTheDocument();
    expect(await within(voucherRow).findByRole('cell', { name: 'view, edit' })).toBeInTheDocument();
    const rolesRow = screen.getByRole('rowheader', { name: 'ROLES' }).closest('tr')!;
    expect(within(rolesRow).getByRole('cell', { name: 'none' })).toBeInTheDocument();
  });
});
