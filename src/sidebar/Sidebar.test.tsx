import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AREAS } from '../generated/routes.ts';
import { SIDEBAR } from '../generated/sidebar.ts';
import { http } from '../http/http.ts';
import { defaultRoute } from '../permissions/defaultRoute.ts';
import { permissionStore } from '../permissions/permissionStore.ts';
import type { Permissions } from '../permissions/types.ts';
import { startSession } from '../session/sessionStore.ts';
import { renderWithRouter } from '../test/renderWithRouter.tsx';
import { makeToken } from '../test/tokens.ts';
import { isHighlighted } from './isHighlighted.ts';
import { Sidebar } from './Sidebar.tsx';

vi.mock('../http/http.ts', () => ({ http: { get: vi.fn() } }));
const get = vi.mocked(http.get);

/** Every area and every routable route of the generated table, granted. */
function everything(): Permissions {
  const permissions: Permissions = {};
  AREAS.forEach((area, index) => {
    permissions[area.module] = { order: index, actions: { view: { is_routable: false, route_url: `/${area.path}` } } };
    for (const route of area.routes) {
      const entry = (permissions[route.module] ??= { order: index, actions: {} });
      // The first route of an action is its screen (a list before the trash it links to), as the server answers it.
      entry.actions[route.action] ??= { is_routable: route.routable, route_url: route.path };
    }
  });
  return permissions;
}

function grant(permissions: Permissions) {
  get.mockResolvedValue({ data: permissions });
}

const links = () => within(screen.getByRole('navigation', { name: 'Main' })).queryAllByRole('link');

/** Each heading, as the list it names, with the labels of its links. */
const sections = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .queryAllByRole('list', { name: /./ })
    .map((list): [string, string[]] => [
      document.getElementById(list.getAttribute('aria-labelledby')!)!.textContent,
      within(list)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ]);

beforeEach(() => {
  get.mockReset();
  permissionStore.clear();
  startSession(makeToken(), 'refresh-1');
});

describe('the sidebar', () => {
  it('SIDEBAR-01 links each module to the user default route for it', async () => {
    const spec = [
      '/user-management',
      '/subscription-management',
      '/subscriber-management',
      '/masters',
      '/data-upload-management',
      '/data-column',
      '/subscribers-details-management',
      '/voucher-management',
      '/executive-profile-management',
      '/admin-reporting-management',
      '/banner-management/list',
      '/category-management',
      '/employee-management',
      '/company-management/list',
      '/country-management/list',
    ];
    expect(SIDEBAR.filter((entry) => !entry.fixed).map((entry) => entry.link)).toEqual(spec);
    const permissions = everything();
    grant(permissions);
    renderWithRouter(<Sidebar />);
    // Home first: every card of the home screen is open to this user.
    await waitFor(() => expect(links()).toHaveLength(SIDEBAR.length + 1));
    expect(links()[0]).toHaveAccessibleName('Home');
    expect(links()[0]).toHaveAttribute('href', '/home');
    const voucher = screen.getByRole('link', { name: 'Voucher codes' });
    expect(voucher).toHaveAttribute('href', '/voucher-management/vouchers');
    for (const entry of SIDEBAR.filter((candidate) => !candidate.fixed)) {
      expect(screen.getByRole('link', { name: entry.label })).toHaveAttribute(
        'href',
        defaultRoute(permissions, entry.link),
      );
    }
    expect(screen.getByRole('link', { name: 'Admin Reporting' })).toHaveAttribute(
      'href',
      '/admin-reporting-management/reports',
    );
  });

  it('SIDEBAR-02 the three fixed links go to exactly their path', async () => {
    const fixed = [
      '/company-employee-contacts-management/list',
      '/create-hs-code-management/list',
      '/related-product-management/list',
    ];
    expect(SIDEBAR.filter((entry) => entry.fixed).map((entry) => entry.link)).toEqual(fixed);
    const permissions = everything();
    for (const entry of SIDEBAR.filter((candidate) => candidate.fixed)) {
      // Even when the permissions route the module elsewhere, the fixed link stays.
      permissions[entry.module]!.actions.view = { is_routable: true, route_url: `${entry.link}/elsewhere` };
      permissions[entry.module]!.order = -1;
    }
    grant(permissions);
    renderWithRouter(<Sidebar />);
    await waitFor(() => expect(links()).toHaveLength(SIDEBAR.length + 1));
    for (const entry of SIDEBAR.filter((candidate) => candidate.fixed)) {
      expect(screen.getByRole('link', { name: entry.label })).toHaveAttribute('href', entry.link);
    }
  });

  it('SIDEBAR-03 each entry is hidden unless the user has access to its module', async () => {
    const all = everything();
    grant({
      VOUCHER_MANAGEMENT: all.VOUCHER_MANAGEMENT,
      VOUCHER: all.VOUCHER,
      ADMIN_REPORTING_MANAGEMENT: all.ADMIN_REPORTING_MANAGEMENT,
      ADMIN_REPORTING: all.ADMIN_REPORTING,
    });
    renderWithRouter(<Sidebar />);
    expect(links()).toHaveLength(0);
    // The report's view opens the home screen's revenue card, so Home comes first.
    await waitFor(() => expect(links()).toHaveLength(3));
    expect(links().map((link) => link.textContent)).toEqual(['Home', 'Voucher codes', 'Admin Reporting']);
    expect(screen.queryByRole('link', { name: 'Users and roles' })).not.toBeInTheDocument();
    expect(SIDEBAR.find((entry) => entry.module === 'ADMIN_REPORTING_MANAGEMENT')?.label).toBe('Admin Reporting');
  });

  it('SIDEBAR-04 a button toggles the sidebar open and closed', async () => {
    grant(everything());
    renderWithRouter(<Sidebar />);
    const toggle = screen.getByRole('button', { name: 'Menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(links().length).toBeGreaterThan(0));
    expect(screen.getByText('Voucher codes')).not.toHaveClass('visually-hidden');
    expect(screen.getByText('Subscribers and sales')).not.toHaveClass('visually-hidden');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText('Voucher codes')).toHaveClass('visually-hidden');
    expect(screen.getByRole('link', { name: 'Voucher codes' })).toHaveAttribute('title', 'Voucher codes');
    // Closed, a heading is only read out: its list keeps its name.
    expect(screen.getByText('Subscribers and sales')).toHaveClass('visually-hidden');
    expect(screen.getByRole('list', { name: 'Subscribers and sales' })).toBeInTheDocument();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
  });

  it('SIDEBAR-05 the state is kept in sessionStorage under leftSideBar.IsOpen and restored on load', async () => {
    grant(everything());
    const { unmount } = renderWithRouter(<Sidebar />);
    expect(sessionStorage.getItem('leftSideBar.IsOpen')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    expect(sessionStorage.getItem('leftSideBar.IsOpen')).toBe('false');
    unmount();
    renderWithRouter(<Sidebar />);
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('SIDEBAR-06 a link is highlighted when the address contains its first two path segments', async () => {
    grant(everything());
    renderWithRouter(<Sidebar />, ['/voucher-management/vouchers/5/edit']);
    await waitFor(() => expect(links().length).toBeGreaterThan(0));
    expect(screen.getByRole('link', { name: 'Voucher codes' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Banners' })).not.toHaveAttribute('aria-current');
    expect(links().filter((link) => link.getAttribute('aria-current') === 'page')).toHaveLength(1);

    expect(isHighlighted('/banner-management/list/3/edit', '/banner-management/list')).toBe(true);
    expect(isHighlighted('/banner-management/archive', '/banner-management/list')).toBe(false);
    expect(isHighlighted('/masters/countries', '/masters')).toBe(true);
    expect(isHighlighted('/masters-archive', '/masters')).toBe(false);
  });

  it('SIDEBAR-01 groups the entries under headings, each in the place of its first entry, entries in order under it', async () => {
    grant(everything());
    renderWithRouter(<Sidebar />);
    await waitFor(() => expect(links()).toHaveLength(SIDEBAR.length + 1));
    expect(links()[0]).toHaveAccessibleName('Home');
    expect(sections()).toEqual([
      ['Administration', ['Users and roles', 'Master data', 'Employees']],
      [
        'Subscribers and sales',
        [
          'Plans and offers',
          'Subscribers',
          'Subscriber activity',
          'Voucher codes',
          'Sales executives',
          'Admin Reporting',
        ],
      ],
      ['Trade data', ['Data uploads', 'Data columns', 'Available countries', 'HS codes', 'Related products']],
      ['Website', ['Banners', 'Categories']],
      ['Company directory', ['Companies', 'Company contacts']],
    ]);
    // Read in order, within each heading the entries keep the order rule of the ungrouped list.
    const order = new Map(SIDEBAR.map((entry) => [entry.label, entry.order]));
    for (const [, labels] of sections())
      expect(labels).toEqual([...labels].sort((a, b) => order.get(a)! - order.get(b)!));
  });

  it('SIDEBAR-03 a heading shows only with a visible entry, and keeps its place whatever the user may see', async () => {
    const all = everything();
    // Employees (order 13) comes after Data uploads (order 5), but its heading's first entry is Users and roles (order 1).
    grant({
      EMPLOYEE_MANAGEMENT: all.EMPLOYEE_MANAGEMENT,
      EMPLOYEES: all.EMPLOYEES,
      DATA_UPLOAD_MANAGEMENT: all.DATA_UPLOAD_MANAGEMENT,
      DATA_UPLOAD_LOGS: all.DATA_UPLOAD_LOGS,
    });
    renderWithRouter(<Sidebar />);
    await waitFor(() =>
      expect(sections()).toEqual([
        ['Administration', ['Employees']],
        ['Trade data', ['Data uploads']],
      ]),
    );
    for (const hidden of ['Subscribers and sales', 'Website', 'Company directory'])
      expect(screen.queryByText(hidden)).not.toBeInTheDocument();
  });

  it('draws a distinct icon for each entry, hidden from screen readers', async () => {
    grant(everything());
    renderWithRouter(<Sidebar />);
    await waitFor(() => expect(links()).toHaveLength(SIDEBAR.length + 1));
    const icons = links().map((link) => link.querySelector('svg'));
    for (const icon of icons) expect(icon).toHaveAttribute('aria-hidden', 'true');
    const drawings = icons.map((icon) => icon!.querySelector('path')!.getAttribute('d'));
    expect(drawings.every(Boolean)).toBe(true);
    expect(new Set(drawings).size).toBe(drawings.length);
  });

  it('offers Home only to a user with a card on it, current on the home screen', async () => {
    const all = everything();
    grant({ VOUCHER_MANAGEMENT: all.VOUCHER_MANAGEMENT, VOUCHER: all.VOUCHER });
    const { unmount } = renderWithRouter(<Sidebar />, ['/home']);
    await waitFor(() => expect(links()).toHaveLength(1));
    expect(screen.queryByRole('link', { name: 'Home' })).not.toBeInTheDocument();
    unmount();
    permissionStore.clear();
    grant({ DATA_UPLOAD_MANAGEMENT: all.DATA_UPLOAD_MANAGEMENT, DATA_UPLOAD_LOGS: all.DATA_UPLOAD_LOGS });
    renderWithRouter(<Sidebar />, ['/home']);
    await waitFor(() => expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page'));
  });
});
