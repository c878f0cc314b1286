import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTIONS, MODULES } from '../generated/permissions.ts';
import { http } from '../http/http.ts';
import { permissionsSignals } from '../http/permissionsSignal.ts';
import { endSession, startSession } from '../session/sessionStore.ts';
import { makeToken } from '../test/tokens.ts';
import { CanAccess } from './CanAccess.tsx';
import { canAccess } from './canAccess.ts';
import { defaultRoute, routablePaths } from './defaultRoute.ts';
import { permissionStore, requestPermissionsReload } from './permissionStore.ts';
import type { Permissions } from './types.ts';
import { useCanAccess } from './useCanAccess.ts';

vi.mock('../http/http.ts', () => ({ http: { get: vi.fn() } }));
const get = vi.mocked(http.get);

const PERMISSIONS: Permissions = {
  VOUCHER: {
    order: 8,
    actions: {
      view: { is_routable: true, route_url: '/voucher-management/vouchers' },
      add: { is_routable: true, route_url: '/voucher-management/vouchers/add' },
      edit: { is_routable: false, route_url: '/voucher-management/vouchers/:id/edit' },
    },
  },
  VOUCHER_MANAGEMENT: { order: 8, actions: { view: { is_routable: false, route_url: '/voucher-management' } } },
  COUNTRY: { order: 2, actions: { view: { is_routable: true, route_url: '/masters/countries/' } } },
  USER_PROFILE: { order: 20, actions: { view: { is_routable: true, route_url: '/profile-management/profile' } } },
};

const answer = (data: Permissions) => Promise.resolve({ data });

beforeEach(() => {
  get.mockReset();
  permissionStore.clear();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('loading permissions', () => {
  it('PERM-01 loads with GET user/permission: a data map keyed by module, with order and actions', async () => {
    get.mockReturnValue(answer(PERMISSIONS));
    await permissionStore.load();
    expect(get).toHaveBeenCalledWith('user/permission');
    expect(permissionStore.get()).toEqual({ permissions: PERMISSIONS, loaded: true, failed: false });
    // order sorts the modules: COUNTRY (2) before VOUCHER (8) before USER_PROFILE (20)
    expect(routablePaths(PERMISSIONS)[0]).toBe('/masters/countries');
    expect(routablePaths(PERMISSIONS).at(-1)).toBe('/profile-management/profile');
  });

  it('PERM-05 the logout event clears them', async () => {
    startSession(makeToken(), 'r');
    get.mockReturnValue(answer(PERMISSIONS));
    await permissionStore.load();
    endSession();
    expect(permissionStore.get()).toEqual({ permissions: null, loaded: false, failed: false });
  });

  it('PERM-06 a forced-permissions-change event clears and reloads them', async () => {
    get.mockReturnValueOnce(answer(PERMISSIONS));
    await permissionStore.load();
    let resolve!: (value: { data: Permissions }) => void;
    get.mockReturnValueOnce(new Promise((done) => (resolve = done)));
    const reloading = requestPermissionsReload();
    expect(permissionStore.get().loaded).toBe(false);
    expect(canAccess(permissionStore.get().permissions, 'VOUCHER')).toBe(false);
    resolve({ data: { COUNTRY: PERMISSIONS.COUNTRY! } });
    await reloading;
    expect(get).toHaveBeenCalledTimes(2);
    expect(permissionStore.get().permissions).toEqual({ COUNTRY: PERMISSIONS.COUNTRY });
  });

  it('PERM-07 concurrent loads share one request, forgotten about 100 ms after it succeeds', async () => {
    vi.useFakeTimers();
    get.mockReturnValue(answer(PERMISSIONS));
    const first = permissionStore.load();
    const second = permissionStore.load();
    expect(second).toBe(first);
    await first;
    await vi.advanceTimersByTimeAsync(99);
    expect(permissionStore.load()).toBe(first);
    expect(get).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    const third = permissionStore.load();
    expect(third).not.toBe(first);
    expect(get).toHaveBeenCalledTimes(2);
    await third;
  });

  it('PERM-08 a load failure clears the cached permissions', async () => {
    vi.useFakeTimers();
    get.mockReturnValueOnce(answer(PERMISSIONS));
    await permissionStore.load();
    await vi.advanceTimersByTimeAsync(100);
    get.mockReturnValueOnce(Promise.reject(new Error('500')));
    await permissionStore.load();
    expect(permissionStore.get()).toMatchObject({ permissions: null, loaded: false, failed: true });
    expect(canAccess(permissionStore.get().permissions, 'VOUCHER', 'view')).toBe(false);
  });
});

describe('permissions that change while signed in', () => {
  const loadedAt = async (version: string) => {
    startSession(makeToken(), 'r');
    get.mockReturnValueOnce(answer(PERMISSIONS));
    await permissionStore.load();
    permissionsSignals.report({ version, forbidden: false });
    vi.useFakeTimers();
    await vi.advanceTimersByTimeAsync(100);
    vi.useRealTimers();
  };

  it('an answer naming another permissions version reads them again, and the old ones stay in force until the answer', async () => {
    await loadedAt('3.7');
    permissionsSignals.report({ version: '3.7', forbidden: false });
    expect(get).toHaveBeenCalledTimes(1);
    let resolve!: (value: { data: Permissions }) => void;
    get.mockReturnValueOnce(new Promise((done) => (resolve = done)));
    permissionsSignals.report({ version: '3.8', forbidden: false });
    expect(get).toHaveBeenCalledTimes(2);
    expect(permissionStore.get()).toEqual({ permissions: PERMISSIONS, loaded: true, failed: false });
    resolve({ data: { COUNTRY: PERMISSIONS.COUNTRY! } });
    await waitFor(() => expect(permissionStore.get().permissions).toEqual({ COUNTRY: PERMISSIONS.COUNTRY }));
    expect(canAccess(permissionStore.get().permissions, 'VOUCHER', 'view')).toBe(false);
  });

  it('a refusal (403) reads them again; the same set read again changes nothing', async () => {
    await loadedAt('3.7');
    const before = permissionStore.get();
    get.mockReturnValueOnce(answer(structuredClone(PERMISSIONS)));
    permissionsSignals.report({ version: '3.7', forbidden: true });
    expect(get).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(get.mock.results[1]?.value).toBeDefined());
    await get.mock.results[1]!.value;
    expect(permissionStore.get()).toBe(before);
  });

  it('nothing is read before the first load, and a logout forgets the version', async () => {
    startSession(makeToken(), 'r');
    permissionsSignals.report({ version: '1.1', forbidden: true });
    expect(get).not.toHaveBeenCalled();
    endSession();
    // The first version heard after the logout is the next session's own, not a change.
    await loadedAt('3.7');
    expect(get).toHaveBeenCalledTimes(1);
  });
});

describe('canAccess', () => {
  it('PERM-02 with no module given, access is allowed', () => {
    expect(canAccess(null)).toBe(true);
    expect(canAccess(PERMISSIONS)).toBe(true);
  });

  it('PERM-03 while permissions are not loaded, module access is denied', () => {
    expect(canAccess(null, 'VOUCHER')).toBe(false);
    expect(canAccess(null, 'VOUCHER', 'view')).toBe(false);
  });

  it('PERM-03 the hook says loading and denies until the permissions arrive', async () => {
    startSession(makeToken(), 'r');
    let resolve!: (value: { data: Permissions }) => void;
    get.mockReturnValue(new Promise((done) => (resolve = done)));
    const { result } = renderHook(() => useCanAccess('VOUCHER', 'view'));
    expect(result.current).toEqual({ allowed: false, loading: true });
    act(() => resolve({ data: PERMISSIONS }));
    await waitFor(() => expect(result.current).toEqual({ allowed: true, loading: false }));
  });

  it('PERM-04 module access needs an entry for the module; action access needs the action within it', () => {
    expect(canAccess(PERMISSIONS, 'VOUCHER')).toBe(true);
    expect(canAccess(PERMISSIONS, 'BANNER')).toBe(false);
    expect(canAccess(PERMISSIONS, 'VOUCHER', 'add')).toBe(true);
    expect(canAccess(PERMISSIONS, 'VOUCHER', 'delete')).toBe(false);
    expect(canAccess({ VOUCHER: { order: 1, actions: {} } }, 'VOUCHER', 'toString' as never)).toBe(false);
  });

  it('PERM-09 the action and module vocabularies come from the generated constants', () => {
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
      // Beyond the specification's vocabulary: importing a file into a resource is its own permission.
      'import',
    ]);
    const section6 =
      'AUTH MASTERS COUNTRIES LOOKUP_TYPES LOOKUPS DATA_TYPES HS_CODES FEATURES PROFILE_MANAGEMENT USER_PROFILE CHANGE_PASSWORD USER_MANAGEMENT USERS ROLES SUBSCRIBER_MANAGEMENT SUBSCRIBERS ICICI_SUBSCRIBERS SUBSCRIPTION_MANAGEMENT SUBSCRIPTIONS POINT_CONSUMPTION_RULES OFFER_MODULE DATA_UPLOAD_MANAGEMENT DATA_UPLOAD_LOGS UPLOADED_DATA_REPORT SYNC_TRENDING_DATA DATA_COLUMN_MANAGEMENT DATA_FIELDS_MODULE SUBSCRIBER_DETAILS_MANAGEMENT_MODULE SUBSCRIBERS_DETAILS SUBSCRIBERS_LIST EXECUTIVE_PROFILE_MANAGEMENT EXECUTIVE_PROFILE ADMIN_REPORTING_MANAGEMENT ADMIN_REPORTING CATEGORY_MANAGEMENT CATEGORY EMPLOYEE_MANAGEMENT EMPLOYEES COMPANY_MANAGEMENT COMPANY BANNER_MANAGEMENT BANNER MAINTENANCE CREATE_HS_CODE_MANAGEMENT CREATE_HS_CODE CREATE_RELATED_PRODUCT_MANAGEMENT CREATE_RELATED_PRODUCT COMPANY_EMPLOYEE_CONTACTS_MANAGEMENT COMPANY_EMPLOYEE_CONTACTS COUNTRY_MANAGEMENT COUNTRY VOUCHER_MANAGEMENT VOUCHER'.split(
        ' ',
      );
    expect(MODULES).toEqual(expect.arrayContaining(section6));
    // @ts-expect-error an action outside the vocabulary does not type-check
    canAccess(PERMISSIONS, 'VOUCHER', 'approve');
    // @ts-expect-error a module outside the manifest does not type-check
    canAccess(PERMISSIONS, 'PAYROLL');
  });

  it('CanAccess renders its children, its loading slot or its denied slot', async () => {
    startSession(makeToken(), 'r');
    get.mockReturnValue(answer(PERMISSIONS));
    render(
      <>
        <CanAccess module="VOUCHER" action="add" loading={<p>Checking…</p>}>
          <button type="button">Add voucher</button>
        </CanAccess>
        <CanAccess module="VOUCHER" action="delete" denied={<p>No delete</p>}>
          <button type="button">Delete voucher</button>
        </CanAccess>
      </>,
    );
    expect(screen.getAllByText('Checking…')).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Add voucher' })).toBeInTheDocument();
    expect(screen.getByText('No delete')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete voucher' })).not.toBeInTheDocument();
  });
});

describe('the default-route rule', () => {
  it('ROUTE-10 routable paths come from the permissions: route_url of the actions with is_routable', () => {
    expect(routablePaths(PERMISSIONS)).toEqual([
      '/masters/countries',
      '/voucher-management/vouchers',
      '/voucher-management/vouchers/add',
      '/profile-management/profile',
    ]);
  });

  it('ROUTE-12 a routable path is returned as is, a trailing slash tolerated', () => {
    expect(defaultRoute(PERMISSIONS, '/voucher-management/vouchers/add')).toBe('/voucher-management/vouchers/add');
    expect(defaultRoute(PERMISSIONS, '/voucher-management/vouchers/add/')).toBe('/voucher-management/vouchers/add');
    expect(defaultRoute(PERMISSIONS, '/masters/countries')).toBe('/masters/countries');
  });

  it('ROUTE-13 otherwise the first routable path sharing its first segment', () => {
    expect(defaultRoute(PERMISSIONS, '/voucher-management')).toBe('/voucher-management/vouchers');
    expect(defaultRoute(PERMISSIONS, '/voucher-management/vouchers/5/edit')).toBe('/voucher-management/vouchers');
    expect(defaultRoute(PERMISSIONS, '/masters')).toBe('/masters/countries');
  });

  it('ROUTE-14 otherwise nothing', () => {
    expect(defaultRoute(PERMISSIONS, '/banner-management/list')).toBeNull();
    expect(defaultRoute(PERMISSIONS, '/')).toBeNull();
    expect(defaultRoute(null, '/voucher-management')).toBeNull();
  });
});
