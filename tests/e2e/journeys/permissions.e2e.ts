import { describe, expect } from 'vitest';
import { ADMIN, OPERATOR, SALES, SEEDED_ACCOUNTS, VIEWER } from '../support/accounts.ts';
import { Api, decodeClaims } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { recordApiCalls, sidebarLink, waitForPath } from '../support/ui.ts';

useBrowser();

/** Spec section 2's sidebar: each link with the module whose access shows it (SIDEBAR-01..03). */
const SPEC_SIDEBAR = [
  { link: '/user-management', module: 'USER_MANAGEMENT' },
  { link: '/subscription-management', module: 'SUBSCRIPTION_MANAGEMENT' },
  { link: '/subscriber-management', module: 'SUBSCRIBER_MANAGEMENT' },
  { link: '/masters', module: 'MASTERS' },
  { link: '/data-upload-management', module: 'DATA_UPLOAD_MANAGEMENT' },
  { link: '/data-column', module: 'DATA_COLUMN_MANAGEMENT' },
  { link: '/subscribers-details-management', module: 'SUBSCRIBER_DETAILS_MANAGEMENT_MODULE' },
  { link: '/voucher-management', module: 'VOUCHER_MANAGEMENT' },
  { link: '/executive-profile-management', module: 'EXECUTIVE_PROFILE_MANAGEMENT' },
  { link: '/admin-reporting-management', module: 'ADMIN_REPORTING_MANAGEMENT', label: 'Admin Reporting' },
  { link: '/banner-management/list', module: 'BANNER_MANAGEMENT' },
  { link: '/category-management', module: 'CATEGORY_MANAGEMENT' },
  { link: '/employee-management', module: 'EMPLOYEE_MANAGEMENT' },
  { link: '/company-management/list', module: 'COMPANY_MANAGEMENT' },
  { link: '/country-management/list', module: 'COUNTRY_MANAGEMENT' },
  { link: '/company-employee-contacts-management/list', module: 'COMPANY_EMPLOYEE_CONTACTS_MANAGEMENT', fixed: true },
  { link: '/create-hs-code-management/list', module: 'CREATE_HS_CODE_MANAGEMENT', fixed: true },
  { link: '/related-product-management/list', module: 'CREATE_RELATED_PRODUCT_MANAGEMENT', fixed: true },
] as const;

const firstSegment = (path: string) => `/${path.split('/').filter(Boolean)[0] ?? ''}`;

type PermissionData = Record<
  string,
  { order: number; actions: Record<string, { is_routable: boolean; route_url: string }> }
>;

describe('permissions', () => {
  journey(
    'SIDEBAR-01 SIDEBAR-02 SIDEBAR-03 each seeded role sees exactly the sidebar entries its permissions allow',
    async ({ newContext, signIn, audit }) => {
      const shown = new Map<string, string[]>();
      for (const account of SEEDED_ACCOUNTS) {
        const context = await newContext();
        const tokens = await signIn(account, context);
        const permissions = (await new Api(tokens).get<{ data: PermissionData }>('user/permission')).data;
        const routable = new Set(
          Object.values(permissions).flatMap((module) =>
            Object.values(module.actions)
              .filter((action) => action.is_routable)
              .map((action) => action.route_url.replace(/\/$/, '')),
          ),
        );
        const page = await context.newPage();
        await page.goto(decodeClaims(tokens.access).default_url as string);
        const nav = page.getByRole('navigation', { name: 'Main' });
        await nav.waitFor();
        const expected = SPEC_SIDEBAR.filter((entry) => entry.module in permissions);
        // Home first: every seeded role has a card on the home screen.
        await expect.poll(() => nav.getByRole('link').count()).toBe(expected.length + 1);
        const [home, ...hrefs] = await nav
          .getByRole('link')
          .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
        expect(home, account.role).toBe('/home');
        expect(hrefs.map(firstSegment).sort(), account.role).toEqual(
          expected.map((entry) => firstSegment(entry.link)).sort(),
        );
        for (const entry of expected) {
          const href = hrefs.find((candidate) => firstSegment(candidate) === firstSegment(entry.link))!;
          if ('fixed' in entry) expect(href, entry.link).toBe(entry.link);
          // Each other link goes to a path the user may open in that module's area (the default route).
          else
            expect(
              routable.has(href.replace(/\/$/, '')) || href === entry.link,
              `${account.role}: ${entry.link} -> ${href}`,
            ).toBe(true);
          if ('label' in entry) await sidebarLink(page, entry.label).waitFor();
        }
        shown.set(account.role, hrefs);
        await audit(`landing of ${account.role}`, page);
      }
      // The seeded roles really differ, so the check above tells them apart.
      expect(shown.get(SALES.role)!.length).toBeLessThan(shown.get(ADMIN.role)!.length);
      expect(shown.get(OPERATOR.role)!.length).toBeLessThan(shown.get(ADMIN.role)!.length);
      expect(shown.get(ADMIN.role)).toHaveLength(SPEC_SIDEBAR.length);
    },
  );

  journey(
    'PERM-10 ERRPAGE-01 opening a forbidden module URL shows the 403 page and none of its data',
    async ({ page, signIn, audit }) => {
      const tokens = await signIn(SALES);
      const permissions = (await new Api(tokens).get<{ data: PermissionData }>('user/permission')).data;
      expect('VOUCHER' in permissions).toBe(false);
      expect('ROLES' in permissions).toBe(false);
      const calls = recordApiCalls(page);
      for (const path of [
        '/voucher-management/vouchers',
        '/user-management/roles',
        '/voucher-management/vouchers/add',
      ]) {
        await page.goto(path);
        await page.getByRole('heading', { name: /ERROR 403\s+ACCESS DENIED/ }).waitFor();
        expect(await page.getByRole('table').count()).toBe(0);
      }
      const goHome = page.getByRole('link', { name: 'Go To Homepage' });
      expect(await goHome.getAttribute('href')).toBe('/');
      expect(calls.filter((call) => /^(vouchers|roles)(\/|$|\?)/.test(call.path))).toEqual([]);
      await audit('403');
      await goHome.click();
      // "/" goes to /auth, which sends a logged-in user to their landing path.
      await waitForPath(page, decodeClaims(tokens.access).default_url as string);
    },
  );

  journey(
    'ROUTE-05 ERRPAGE-02 /403, /404 and an unknown path show the error pages',
    async ({ page, signIn, audit }) => {
      await page.goto('/no-such-area/anything');
      await page.getByRole('heading', { name: /ERROR 404\s+PAGE NOT FOUND/ }).waitFor();
      await audit('404');
      await signIn(VIEWER);
      for (const path of ['/404', '/definitely/not/a/page', '/voucher-management/vouchers/not-a-route/at-all']) {
        await page.goto(path);
        await page.getByRole('heading', { name: /ERROR 404\s+PAGE NOT FOUND/ }).waitFor();
        expect(await page.getByRole('link', { name: 'Go To Homepage' }).getAttribute('href')).toBe('/');
      }
      await page.goto('/403');
      await page.getByRole('heading', { name: /ERROR 403\s+ACCESS DENIED/ }).waitFor();
    },
  );
});
