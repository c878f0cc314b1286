import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntryAnswer } from '../../../contract/audit.ts';
import type { ActionName } from '../../generated/permissions.ts';
import DetailScreen from '../generic/DetailScreen.tsx';
import { subscribers, vouchers } from '../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const VIEWER: ActionName[] = ['view', 'view_detail'];
const EDITOR: ActionName[] = ['view', 'view_detail', 'edit'];

function entry(id: number, overrides: Partial<HistoryEntryAnswer> = {}): HistoryEntryAnswer {
  return {
    id,
    at: '2026-11-20T09:30:00Z',
    user_id: 1,
    user_email: 'admin@example.com',
    api_token: null,
    client_address: '127.0.0.1',
    request_id: `req-${id}`,
    module: 'VOUCHER',
    record_id: 9,
    action: 'update',
    changes: {},
    details: {},
    restorable: true,
    labels: {},
    ...overrides,
  };
}

/** A voucher with `total` history entries, newest first, and what the restore endpoint was sent. */
function serveVoucher({
  total = 1,
  version = 4,
  restore = () => HttpResponse.json({ data: {}, message: 'Version restored.' }),
} = {}) {
  const calls = { record: 0, history: [] as URLSearchParams[], restore: [] as (string | null)[] };
  let discount = 20;
  server.use(
    mock.get(api('vouchers/9'), () => {
      calls.record += 1;
      return HttpResponse.json({
        data: {
          id: 9,
          code: 'FLAT50',
          discount_type: 'flat',
          discount_value: discount,
          valid_to: '2026-12-31',
          is_active: true,
          version,
        },
      });
    }),
    mock.get(api('vouchers/9/history'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      calls.history.push(query);
      const page = Number(query.get('_page'));
      const pageSize = Number(query.get('_page_size'));
      const all = Array.from({ length: total }, (_, index) =>
        index === 0
          ? entry(100, {
              changes: {
                discount_type: { before: 'percent', after: 'flat' },
                discount_value: { before: 15, after: 20 },
                valid_to: { before: '2026-06-30', after: '2026-12-31' },
                is_active: { before: false, after: true },
                password_hash: { changed: true },
              },
            })
          : entry(100 - index, {
              action: index === total - 1 ? 'create' : 'update',
              changes: { code: { before: `OLD${index}`, after: `NEW${index}` } },
              restorable: index !== total - 1,
            }),
      );
      return HttpResponse.json({
        data: all.slice((page - 1) * pageSize, page * pageSize),
        meta: { total, page, page_size: pageSize },
      });
    }),
    mock.post(api('vouchers/9/history/:entry/restore'), ({ request }) => {
      calls.restore.push(request.headers.get('if-match'));
      discount = 15;
      return restore();
    }),
  );
  return calls;
}

const openVoucher = () =>
  renderScreen(DetailScreen, {
    resource: vouchers,
    route: routeOf(vouchers, 'view_detail', 'detail'),
    at: '/voucher-management/vouchers/9',
  });

async function openHistory(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByRole('heading', { level: 1, name: 'Voucher FLAT50' });
  await user.click(screen.getByRole('button', { name: 'History' }));
  return screen.findByRole('list');
}

describe('History on a detail screen', () => {
  it('loads only when opened, and reads as a person would: action, who, field titles, enum labels, dates, yes/no, a secret only "changed"', async () => {
    signInWith({ VOUCHER: VIEWER });
    const calls = serveVoucher();
    const user = userEvent.setup();
    openVoucher();
    await screen.findByRole('heading', { level: 1, name: 'Voucher FLAT50' });
    expect(screen.getByRole('button', { name: 'History' })).toHaveAttribute('aria-expanded', 'false');
    expect(calls.history).toHaveLength(0);
    const list = await openHistory(user);
    expect(screen.getByRole('button', { name: 'History' })).toHaveAttribute('aria-expanded', 'true');
    const item = within(list).getAllByRole('listitem')[0]!;
    expect(within(item).getByText('Updated')).toBeInTheDocument();
    expect(item).toHaveTextContent('by admin@example.com');
    const row = (title: string) => within(item).getByRole('rowheader', { name: title }).closest('tr')!;
    expect([...row('Discount type').cells].map((cell) => cell.textContent)).toEqual([
      'Discount type',
      'Percent',
      'Flat amount',
    ]);
    expect([...row('Discount value').cells].map((cell) => cell.textContent)).toEqual(['Discount value', '15', '20']);
    expect([...row('Valid to').cells].map((cell) => cell.textContent)).toEqual([
      'Valid to',
      '30 Jun 2026',
      '31 Dec 2026',
    ]);
    expect([...row('Active').cells].map((cell) => cell.textContent)).toEqual(['Active', 'Inactive', 'Active']);
    expect([...row('Password hash').cells].map((cell) => cell.textContent)).toEqual([
      'Password hash',
      'Changed (not shown)',
    ]);
    expect(calls.history[0]?.get('_page')).toBe('1');
    expect(screen.queryByRole('button', { name: /Restore this version/ })).not.toBeInTheDocument();
  });

  it("shows a relation by the related record's label the answer carries, not its id", async () => {
    signInWith({ SUBSCRIBERS: ['view', 'view_detail'] });
    const resource = {
      ...subscribers,
      routes: { ...subscribers.routes, view_detail: '/subscriber-management/subscribers/:id' },
    };
    server.use(
      mock.get(api('subscribers/5'), () =>
        HttpResponse.json({
          data: {
            id: 5,
            name: 'Meera',
            email: 'meera@example.com',
            country_id: 2,
            country_id_label: 'India',
            version: 2,
          },
        }),
      ),
      mock.get(api('subscribers/5/history'), () =>
        HttpResponse.json({
          data: [
            entry(7, {
              module: 'SUBSCRIBERS',
              record_id: 5,
              changes: { country_id: { before: 1, after: 2 } },
              labels: { country_id: { before: 'Nepal', after: 'India' } },
            }),
          ],
          meta: { total: 1, page: 1, page_size: 10 },
        }),
      ),
    );
    const user = userEvent.setup();
    renderScreen(DetailScreen, {
      resource,
      route: routeOf(resource, 'view_detail', 'detail'),
      at: '/subscriber-management/subscribers/5',
    });
    await screen.findByRole('heading', { level: 1, name: 'Subscriber Meera' });
    await user.click(screen.getByRole('button', { name: 'History' }));
    const country = (await screen.findByRole('rowheader', { name: 'Country' })).closest('tr')!;
    expect([...country.cells].map((cell) => cell.textContent)).toEqual(['Country', 'Nepal', 'India']);
  });

  it('pages older entries in with "Show older", newest first', async () => {
    signInWith({ VOUCHER: VIEWER });
    const calls = serveVoucher({ total: 13 });
    const user = userEvent.setup();
    openVoucher();
    const list = await openHistory(user);
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    await user.click(screen.getByRole('button', { name: 'Show older' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(13));
    expect(calls.history.at(-1)?.get('_page')).toBe('2');
    expect(within(within(list).getAllByRole('listitem').at(-1)!).getByText('Created')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument();
  });

  it('restores a version after confirming, at the version shown (If-Match), then reloads the record and its history', async () => {
    signInWith({ VOUCHER: EDITOR });
    const calls = serveVoucher({ total: 2 });
    const user = userEvent.setup();
    openVoucher();
    await openHistory(user);
    const restoreButtons = screen.getAllByRole('button', { name: /^Restore this version of / });
    expect(restoreButtons).toHaveLength(1);
    await user.click(restoreButtons[0]!);
    const dialog = screen.getByRole('dialog', { name: 'Restore this version?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.restore).toHaveLength(0);
    await user.click(restoreButtons[0]!);
    const historyReads = calls.history.length;
    const recordReads = calls.record;
    await user.click(
      within(screen.getByRole('dialog', { name: 'Restore this version?' })).getByRole('button', { name: 'Restore' }),
    );
    await waitFor(() => expect(calls.restore).toEqual(['"4"']));
    await waitFor(() => expect(calls.record).toBeGreaterThan(recordReads));
    await waitFor(() => expect(calls.history.length).toBeGreaterThan(historyReads));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const value = () => screen.getByText('Discount value', { selector: 'dt' }).nextElementSibling?.textContent;
    await waitFor(() => expect(value()).toBe('15'));
  });

  it("says why a restore was refused: the server's message naming the field, or that the record changed since", async () => {
    signInWith({ VOUCHER: EDITOR });
    serveVoucher({
      total: 2,
      restore: () =>
        HttpResponse.json(
          {
            message: 'Code: the value FLAT50 is already used by another voucher.',
            errors: { code: 'is already used by another voucher.' },
          },
          { status: 409 },
        ),
    });
    const user = userEvent.setup();
    openVoucher();
    await openHistory(user);
    await user.click(screen.getByRole('button', { name: /^Restore this version of / }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /could not be restored: Code: the value FLAT50 is already used/,
    );

    server.use(
      mock.post(api('vouchers/9/history/:entry/restore'), () =>
        HttpResponse.json({ message: 'Changed since.' }, { status: 412 }),
      ),
    );
    await user.click(screen.getByRole('button', { name: /^Restore this version of / }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'This voucher was changed by someone else since the page was loaded',
      ),
    );
  });

  it('is not offered where the manifest keeps no history', async () => {
    signInWith({ VOUCHER: VIEWER });
    serveVoucher();
    renderScreen(DetailScreen, {
      resource: { ...vouchers, entity: { ...vouchers.entity!, history: false } },
      route: routeOf(vouchers, 'view_detail', 'detail'),
      at: '/voucher-management/vouchers/9',
    });
    await screen.findByRole('heading', { level: 1, name: 'Voucher FLAT50' });
    expect(screen.queryByRole('button', { name: 'History' })).not.toBeInTheDocument();
  });
});
