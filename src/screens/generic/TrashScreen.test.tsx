import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { trashPath } from '../../../contract/trashPath.ts';
import type { TrashEntryAnswer } from '../../../contract/audit.ts';
import type { ModuleRoute } from '../../generated/types.ts';
import { vouchers } from '../testing/fixtures.ts';
import { api, renderScreen, server, signInWith } from '../testing/renderScreen.tsx';
import TrashScreen from './TrashScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const route: ModuleRoute = {
  module: 'VOUCHER',
  action: 'view',
  path: trashPath(vouchers.routes.view!),
  routable: false,
  screen: 'trash',
};

function deleted(id: number, label: string | null): TrashEntryAnswer {
  return {
    id,
    label,
    deleted_at: '2026-11-21T08:00:00Z',
    deleted_by: 1,
    deleted_by_email: 'admin@example.com',
    record: { id, code: label },
  };
}

/** The trash as the API answers it; restoring or deleting permanently takes the record out. */
function serveTrash(entries: TrashEntryAnswer[]) {
  const calls = { pages: [] as URLSearchParams[], restored: [] as string[], purged: [] as string[] };
  let current = [...entries];
  server.use(
    mock.get(api('vouchers/trash'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      calls.pages.push(query);
      const page = Number(query.get('_page'));
      const pageSize = Number(query.get('_page_size'));
      return HttpResponse.json({
        data: current.slice((page - 1) * pageSize, page * pageSize),
        meta: { total: current.length, page, page_size: pageSize },
      });
    }),
    mock.post(api('vouchers/:id/restore'), ({ params }) => {
      calls.restored.push(String(params.id));
      current = current.filter((entry) => String(entry.id) !== params.id);
      return HttpResponse.json({ data: { id: Number(params.id) }, message: 'Voucher restored.' });
    }),
    mock.delete(api('vouchers/:id/permanent'), ({ params }) => {
      calls.purged.push(String(params.id));
      current = current.filter((entry) => String(entry.id) !== params.id);
      return HttpResponse.json({ message: 'Voucher deleted permanently.' });
    }),
  );
  return calls;
}

describe('TrashScreen', () => {
  it('lists deleted records with who deleted them and when, and restores one', async () => {
    signInWith({ VOUCHER: ['view', 'delete'] });
    const calls = serveTrash([deleted(3, 'SPRING10'), deleted(4, null)]);
    const user = userEvent.setup();
    renderScreen(TrashScreen, { resource: vouchers, route });
    expect(await screen.findByRole('heading', { level: 1, name: 'Trash: Vouchers' })).toBeInTheDocument();
    const row = (await screen.findByRole('cell', { name: 'SPRING10' })).closest('tr')!;
    expect(row).toHaveTextContent('admin@example.com');
    expect(screen.getByRole('cell', { name: 'Voucher #4' })).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Restore SPRING10' }));
    await waitFor(() => expect(calls.restored).toEqual(['3']));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'SPRING10' })).not.toBeInTheDocument());
  });

  it('deletes permanently only after a confirmation that names the record', async () => {
    signInWith({ VOUCHER: ['view', 'delete'] });
    const calls = serveTrash([deleted(3, 'SPRING10')]);
    const user = userEvent.setup();
    renderScreen(TrashScreen, { resource: vouchers, route });
    await user.click(await screen.findByRole('button', { name: 'Delete permanently SPRING10' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete voucher permanently?' });
    expect(dialog).toHaveTextContent('SPRING10 will be deleted for good');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.purged).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Delete permanently SPRING10' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete permanently' }));
    await waitFor(() => expect(calls.purged).toEqual(['3']));
    expect(await screen.findByText('The trash is empty: no deleted vouchers.')).toBeInTheDocument();
  });

  it('pages on the server with the page in the URL; without the delete permission it only lists', async () => {
    signInWith({ VOUCHER: ['view'] });
    const calls = serveTrash(Array.from({ length: 25 }, (_, index) => deleted(index + 1, `CODE${index + 1}`)));
    const user = userEvent.setup();
    const { history } = renderScreen(TrashScreen, { resource: vouchers, route });
    await screen.findByRole('cell', { name: 'CODE1' });
    expect(screen.queryByRole('button', { name: /Restore/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete permanently/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('cell', { name: 'CODE21' })).toBeInTheDocument();
    expect(history.location.search).toBe('?page=2');
    expect(calls.pages.at(-1)?.get('_page_size')).toBe('20');
  });
});
