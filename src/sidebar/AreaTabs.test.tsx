import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AREAS } from '../generated/routes.ts';
import { http } from '../http/http.ts';
import { permissionStore } from '../permissions/permissionStore.ts';
import type { Permissions } from '../permissions/types.ts';
import { startSession } from '../session/sessionStore.ts';
import { renderWithRouter } from '../test/renderWithRouter.tsx';
import { makeToken } from '../test/tokens.ts';
import { AreaTabs } from './AreaTabs.tsx';

vi.mock('../http/http.ts', () => ({ http: { get: vi.fn() } }));
const get = vi.mocked(http.get);

/** View on these modules of the generated table. */
function viewOf(...modules: string[]): Permissions {
  return Object.fromEntries(
    modules.map((module, order) => [module, { order, actions: { view: { is_routable: true, route_url: '' } } }]),
  );
}

const masters = AREAS.find((area) => area.path === 'masters')!;
const tabs = () => within(screen.getByRole('navigation', { name: 'Masters' })).getAllByRole('link');

beforeEach(() => {
  get.mockReset();
  permissionStore.clear();
  startSession(makeToken(), 'refresh-1');
});

describe('the tabs of an area', () => {
  it("list every resource of the area the user may view, from the generated table, in the manifest's order", async () => {
    get.mockResolvedValue({ data: viewOf('MASTERS', ...masters.resources.map((resource) => resource.module)) });
    renderWithRouter(<AreaTabs />, ['/masters/countries']);
    await waitFor(() => expect(tabs()).toHaveLength(masters.resources.length));
    expect(tabs().map((tab) => tab.textContent)).toEqual([
      'All Countries',
      'Lookup Types',
      'Lookups',
      'Data Types',
      'HS Chapters',
      'Features',
      'Maintenance',
    ]);
    expect(screen.getByRole('link', { name: 'Lookups' })).toHaveAttribute('href', '/masters/lookups');
    expect(screen.getByRole('link', { name: 'HS Chapters' })).toHaveAttribute('href', '/masters/hs-chapters');
  });

  it('leave out what the permissions do not grant (the one permission check, denied by default)', async () => {
    get.mockResolvedValue({ data: viewOf('MASTERS', 'COUNTRIES', 'LOOKUPS', 'HS_CODES') });
    renderWithRouter(<AreaTabs />, ['/masters/countries']);
    await waitFor(() =>
      expect(tabs().map((tab) => tab.textContent)).toEqual(['All Countries', 'Lookups', 'HS Chapters']),
    );
  });

  it('mark the current resource, also on its add, edit and detail screens, and not a sibling sharing a prefix', async () => {
    get.mockResolvedValue({ data: viewOf('MASTERS', 'LOOKUP_TYPES', 'LOOKUPS') });
    const { history } = renderWithRouter(<AreaTabs />, ['/masters/lookups/12/edit']);
    await waitFor(() => expect(screen.getByRole('link', { name: 'Lookups' })).toHaveAttribute('aria-current', 'page'));
    expect(screen.getByRole('link', { name: 'Lookup Types' })).not.toHaveAttribute('aria-current');
    await userEvent.click(screen.getByRole('link', { name: 'Lookup Types' }));
    expect(history.location.pathname).toBe('/masters/lookup-types');
    expect(screen.getByRole('link', { name: 'Lookup Types' })).toHaveAttribute('aria-current', 'page');
  });

  it('are reachable from the keyboard', async () => {
    get.mockResolvedValue({ data: viewOf('MASTERS', 'LOOKUP_TYPES', 'LOOKUPS') });
    const { history } = renderWithRouter(<AreaTabs />, ['/masters/lookup-types']);
    await waitFor(() => expect(tabs()).toHaveLength(2));
    await userEvent.tab();
    await userEvent.tab();
    expect(screen.getByRole('link', { name: 'Lookups' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(history.location.pathname).toBe('/masters/lookups');
  });

  it('show nothing in an area with a single resource the user may view', async () => {
    get.mockResolvedValue({ data: viewOf('MASTERS', 'LOOKUPS', 'VOUCHER_MANAGEMENT', 'VOUCHER') });
    renderWithRouter(<AreaTabs />, ['/masters/lookups']);
    await waitFor(() => expect(get).toHaveBeenCalled());
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('list, for every area, the resources whose view screen is routable: a new manifest resource needs no hand edit', () => {
    for (const area of AREAS) {
      const viewRoutes = area.routes.filter((route) => route.action === 'view' && route.routable);
      expect(area.resources.map((resource) => resource.path)).toEqual(viewRoutes.map((route) => route.path));
    }
    const names = AREAS.flatMap((area) => area.resources.map((resource) => resource.label));
    for (const label of [
      'Roles',
      'Lookups',
      'HS Chapters',
      'Plan Offers',
      'Point Consumption Rules',
      'ICICI Subscribers',
      'Uploaded Data Report',
      'Sync Trending Data',
      'Change Password',
    ]) {
      expect(names).toContain(label);
    }
  });
});
