import { describe, expect, it } from 'vitest';
import { ACTIONS, MODULES, MODULE_ACTIONS } from '../../src/generated/permissions.ts';
import { AREAS } from '../../src/generated/routes.ts';
import { SIDEBAR } from '../../src/generated/sidebar.ts';

// Rules provable from the tables generated from the real manifest.
describe('generated tables against the spec (docs/spec/seed-spec.md)', () => {
  it('ROUTE-09 module routes are named view (the index), add and edit', () => {
    const routes = AREAS.flatMap((area) => area.routes);
    // A resource's trash sits beside its list and needs what the list needs (view); it is not an index of its own.
    const trashes = routes.filter((route) => route.screen === 'trash');
    for (const trash of trashes) {
      expect(
        routes.some(
          (list) =>
            list.module === trash.module &&
            list.action === 'view' &&
            list.screen === 'list' &&
            trash.path === `${list.path}/trash`,
        ),
      ).toBe(true);
    }
    for (const route of routes.filter((r) => r.action === 'view' && r.screen !== 'trash')) {
      expect(
        routes.some(
          (other) =>
            other.module === route.module &&
            other.path.startsWith(`${route.path}/`) &&
            other.action === 'view' &&
            other.screen !== 'trash',
        ),
      ).toBe(false);
    }
    const roles = routes.filter((route) => route.module === 'ROLES');
    expect(roles).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'view', path: '/user-management/roles' }),
        expect.objectContaining({ action: 'add', path: '/user-management/roles/add', screen: 'role-permissions' }),
        expect.objectContaining({
          action: 'edit',
          path: '/user-management/roles/:id/edit',
          screen: 'role-permissions',
        }),
      ]),
    );
    const routedActions = new Set(routes.map((route) => route.action));
    // Beyond the routes of docs/spec/seed-spec.md, the import screen of the resources that offer it.
    expect(
      [...routedActions].every((action) =>
        ['view', 'add', 'edit', 'view_detail', 'SUBSCRIBER_DETAIL', 'import'].includes(action),
      ),
    ).toBe(true);
  });

  it('SIDEBAR-01 the sidebar links of spec section 2, in order, Admin Reporting labelled so', () => {
    const links = SIDEBAR.filter((entry) => !entry.fixed).map((entry) => entry.link);
    expect(links).toEqual([
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
    ]);
    expect(SIDEBAR.find((entry) => entry.link === '/admin-reporting-management')?.label).toBe('Admin Reporting');
  });

  it('SIDEBAR-02 three fixed links', () => {
    expect(SIDEBAR.filter((entry) => entry.fixed).map((entry) => entry.link)).toEqual([
      '/company-employee-contacts-management/list',
      '/create-hs-code-management/list',
      '/related-product-management/list',
    ]);
  });

  it('SIDEBAR-03 each sidebar entry is keyed by its module, as spec section 2 lists them', () => {
    expect(SIDEBAR.map((entry) => entry.module)).toEqual([
      'USER_MANAGEMENT',
      'SUBSCRIPTION_MANAGEMENT',
      'SUBSCRIBER_MANAGEMENT',
      'MASTERS',
      'DATA_UPLOAD_MANAGEMENT',
      'DATA_COLUMN_MANAGEMENT',
      'SUBSCRIBER_DETAILS_MANAGEMENT_MODULE',
      'VOUCHER_MANAGEMENT',
      'EXECUTIVE_PROFILE_MANAGEMENT',
      'ADMIN_REPORTING_MANAGEMENT',
      'BANNER_MANAGEMENT',
      'CATEGORY_MANAGEMENT',
      'EMPLOYEE_MANAGEMENT',
      'COMPANY_MANAGEMENT',
      'COUNTRY_MANAGEMENT',
      'COMPANY_EMPLOYEE_CONTACTS_MANAGEMENT',
      'CREATE_HS_CODE_MANAGEMENT',
      'CREATE_RELATED_PRODUCT_MANAGEMENT',
    ]);
  });

  it('SIDEBAR-01 every entry sits under a heading and has an icon of its own; no label repeats "Management"', () => {
    expect(SIDEBAR.every((entry) => entry.group !== null)).toBe(true);
    expect(new Set(SIDEBAR.map((entry) => entry.icon)).size).toBe(SIDEBAR.length);
    expect(new Set(SIDEBAR.map((entry) => entry.label)).size).toBe(SIDEBAR.length);
    expect(SIDEBAR.filter((entry) => /management/i.test(entry.label))).toEqual([]);
  });

  it('PERM-09 the action vocabulary and every module name of spec section 6', () => {
    expect([...ACTIONS]).toEqual([
      'view',
      'add',
      'edit',
      'delete',
      'ACTIVE_INACTIVE',
      'download',
      'view_detail',
      'verify',
      'refresh',
      'SUBSCRIBER_DETAIL',
      'ADD_SUBSCRIPTION',
      'ADD_TOP_UP',
      'executive_access',
      // Not in docs/spec/seed-spec.md: import from a file, after a dry run.
      'import',
    ]);
    const specModules =
      `AUTH, MASTERS, COUNTRIES, LOOKUP_TYPES, LOOKUPS, DATA_TYPES, HS_CODES, FEATURES, PROFILE_MANAGEMENT, USER_PROFILE,
      CHANGE_PASSWORD, USER_MANAGEMENT, USERS, ROLES, SUBSCRIBER_MANAGEMENT, SUBSCRIBERS, ICICI_SUBSCRIBERS, SUBSCRIPTION_MANAGEMENT,
      SUBSCRIPTIONS, POINT_CONSUMPTION_RULES, OFFER_MODULE, DATA_UPLOAD_MANAGEMENT, DATA_UPLOAD_LOGS, UPLOADED_DATA_REPORT,
      SYNC_TRENDING_DATA, DATA_COLUMN_MANAGEMENT, DATA_FIELDS_MODULE, SUBSCRIBER_DETAILS_MANAGEMENT_MODULE, SUBSCRIBERS_DETAILS,
      SUBSCRIBERS_LIST, EXECUTIVE_PROFILE_MANAGEMENT, EXECUTIVE_PROFILE, ADMIN_REPORTING_MANAGEMENT, ADMIN_REPORTING,
      CATEGORY_MANAGEMENT, CATEGORY, EMPLOYEE_MANAGEMENT, EMPLOYEES, COMPANY_MANAGEMENT, COMPANY, BANNER_MANAGEMENT, BANNER,
      MAINTENANCE, CREATE_HS_CODE_MANAGEMENT, CREATE_HS_CODE, CREATE_RELATED_PRODUCT_MANAGEMENT, CREATE_RELATED_PRODUCT,
      COMPANY_EMPLOYEE_CONTACTS_MANAGEMENT, COMPANY_EMPLOYEE_CONTACTS, COUNTRY_MANAGEMENT, COUNTRY, VOUCHER_MANAGEMENT, VOUCHER`
        .split(',')
        .map((name) => name.trim());
    expect(specModules).toHaveLength(53);
    for (const name of specModules) expect(MODULES).toContain(name);
    for (const actions of Object.values(MODULE_ACTIONS))
      for (const action of actions) expect(ACTIONS).toContain(action);
    expect(MODULE_ACTIONS.SUBSCRIBERS).toEqual(
      expect.arrayContaining(['SUBSCRIBER_DETAIL', 'ADD_SUBSCRIPTION', 'ADD_TOP_UP', 'executive_access']),
    );
  });

  it('ROUTE-11 the profile screen is at /profile-management/profile', () => {
    const profile = AREAS.flatMap((area) => area.routes).find(
      (route) => route.module === 'USER_PROFILE' && route.action === 'view',
    );
    expect(profile).toMatchObject({ path: '/profile-management/profile', screen: 'profile' });
  });

  it('ROUTE-03 ROUTE-04 the areas sit behind the guards the spec gives them', () => {
    const guard = (path: string) => AREAS.find((area) => area.path === path)?.guard;
    for (const path of [
      'user-management',
      'masters',
      'data-column',
      'data-upload-management',
      'subscription-management',
      'subscriber-management',
      'developers',
      'profile-management',
    ]) {
      expect(guard(path), path).toBe('authenticated');
    }
    for (const path of [
      'subscribers-details-management',
      'executive-profile-management',
      'voucher-management',
      'category-management',
      'company-management',
      'banner-management',
      'employee-management',
      'admin-reporting-management',
      'company-employee-contacts-management',
      'country-management',
      'create-hs-code-management',
      'related-product-management',
    ]) {
      expect(
        AREAS.find((area) => area.path === path),
        path,
      ).toMatchObject({ layout: 'admin' });
    }
    expect(AREAS.find((area) => area.path === 'auth')).toMatchObject({ guard: 'guest', layout: 'guest' });
  });
});
