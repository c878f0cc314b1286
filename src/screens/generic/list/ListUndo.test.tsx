import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ToastHost } from '../../../shell/ToastHost.tsx';
import { vouchers } from '../../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../../testing/renderScreen.tsx';
import ListScreen from '../ListScreen.tsx';

const route = routeOf(vouchers, 'view', 'list');

/** Three vouchers; a delete takes a row out and a restore puts it back, as the server's trash does. */
function serveVouchers() {
  const live = new Set([1, 2, 3]);
  const restored: number[] = [];
  const row = (id: number) => ({
    id,
    code: `CODE0${id}`,
    discount_type: 'percent',
    discount_value: 10,
    valid_to: '2026-12-31',
    used_count: 0,
    is_active: true,
    version: 1,
  });
  server.use(
    mock.get(api('vouchers'), () =>
      HttpResponse.json({ data: [...live].sort().map(row), meta: { total: live.size, page: 1, page_size: 20 } }),
    ),
    mock.delete(api('vouchers/:id'), ({ params }) => {
      live.delete(Number(params.id));
      return HttpResponse.json({ data: { id: Number(params.id) }, message: 'Voucher moved to the trash.' });
    }),
    mock.delete(api('vouchers'), async ({ request }) => {
      const { ids } = (await request.json()) as { ids: number[] };
      for (const id of ids) live.delete(id);
      return HttpResponse.json({ message: `${ids.length} vouchers moved to the trash.` });
    }),
    mock.post(api('vouchers/:id/restore'), ({ params }) => {
      live.add(Number(params.id));
      restored.push(Number(params.id));
      return HttpResponse.json({ data: row(Number(params.id)), message: 'Voucher restored.' });
    }),
  );
  return restored;
}

const toastWith = async (text: string) => (await screen.findByText(text)).closest('.Toastify__toast') as HTMLElement;

async function deleteFromMenu(user: ReturnType<typeof userEvent.setup>, label: string) {
  await user.click(await screen.findByRole('button', { name: `Actions for ${label}` }));
  await user.click(
    within(screen.getByRole('menu', { name: `Actions for ${label}` })).getByRole('menuitem', { name: 'Delete' }),
  );
  await user.click(
    within(screen.getByRole('dialog', { name: 'Delete voucher?' })).getByRole('button', { name: 'Delete' }),
  );
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('Undo after a delete', () => {
  it('a deleted row comes back from the trash with Undo in the toast, and the list shows it again', async () => {
    render(<ToastHost />);
    signInWith({ VOUCHER: ['view', 'delete'] });
    const restored = serveVouchers();
    const user = userEvent.setup();
    renderScreen(ListScreen, { resource: vouchers, route });
    await deleteFromMenu(user, 'CODE02');
    const toast = await toastWith('Voucher moved to the trash.');
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'CODE02' })).not.toBeInTheDocument());
    await user.click(within(toast).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Voucher restored.')).toBeInTheDocument();
    expect(restored).toEqual([2]);
    expect(await screen.findByRole('cell', { name: 'CODE02' })).toBeInTheDocument();
  });

  it('a bulk delete is undone as a whole', async () => {
    render(<ToastHost />);
    signInWith({ VOUCHER: ['view', 'delete'] });
    const restored = serveVouchers();
    const user = userEvent.setup();
    renderScreen(ListScreen, { resource: vouchers, route });
    await user.click(await screen.findByRole('checkbox', { name: 'Select CODE01' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select CODE03' }));
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete 2 vouchers?' })).getByRole('button', { name: 'Delete' }),
    );
    const toast = await toastWith('2 vouchers moved to the trash.');
    await user.click(within(toast).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('2 restored.')).toBeInTheDocument();
    expect(restored.sort()).toEqual([1, 3]);
    expect(await screen.findByRole('cell', { name: 'CODE03' })).toBeInTheDocument();
  });

  it('a record without a trash is deleted for good: its toast offers no Undo', async () => {
    render(<ToastHost />);
    signInWith({ VOUCHER: ['view', 'delete'] });
    serveVouchers();
    server.use(mock.delete(api('vouchers/:id'), () => HttpResponse.json({ message: 'Voucher deleted.' })));
    const user = userEvent.setup();
    renderScreen(ListScreen, { resource: { ...vouchers, entity: { ...vouchers.entity!, softDelete: false } }, route });
    await deleteFromMenu(user, 'CODE01');
    const toast = await toastWith('Voucher deleted.');
    expect(within(toast).queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });
});
