import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { subscribers, vouchers } from '../../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../../testing/renderScreen.tsx';
import ListScreen from '../ListScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A list endpoint answering these rows, recording each query. */
function serveRows(path: string, rows: Record<string, unknown>[], queries: URLSearchParams[] = []) {
  server.use(
    mock.get(api(path), ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json({ data: rows, meta: { total: rows.length, page: 1, page_size: 20 } });
    }),
  );
  return queries;
}

describe('list filters and cells in people’s words', () => {
  it('an enum column and its filter read as the manifest labels them, and the filter sends the code', async () => {
    signInWith({ VOUCHER: ['view'] });
    const queries = serveRows('vouchers', [{ id: 1, code: 'FLAT50', discount_type: 'flat', discount_value: 50, is_active: true, version: 2 }]);
    const user = userEvent.setup();
    const { history } = renderScreen(ListScreen, { resource: vouchers, route: routeOf(vouchers, 'view', 'list') });
    const row = (await screen.findByRole('cell', { name: 'FLAT50' })).closest('tr')!;
    expect(within(row).getByRole('cell', { name: 'Flat amount' })).toBeInTheDocument();
    const filter = screen.getByRole('combobox', { name: 'Discount type' });
    expect(within(filter).getAllByRole('option').map((option) => option.textContent)).toEqual(['All', 'Percent', 'Flat amount', 'Is empty', 'Is not empty']);
    await user.selectOptions(filter, 'Percent');
    await waitFor(() => expect(queries.at(-1)?.get('discount_type')).toBe('percent'));
    expect(history.location.search).toContain('discount_type=percent');
  });

  it('a relation filter searches every record on the server as the user types, not only the first page of options', async () => {
    signInWith({ SUBSCRIBERS: ['view'] });
    const queries = serveRows('subscribers', [{ id: 1, name: 'Meera', email: 'meera@example.com', country_id: 276, country_id_label: 'Germany', is_active: true, version: 1 }]);
    const searches: string[] = [];
    server.use(
      mock.get(api('countries/options'), ({ request }) => {
        const q = new URL(request.url).searchParams.get('q') ?? '';
        searches.push(q);
        // Germany is far past the first page of countries: only a search finds it.
        return HttpResponse.json({ data: q.toLowerCase().startsWith('ger') ? [{ value: 276, label: 'Germany' }] : [{ value: 4, label: 'Afghanistan' }] });
      }),
    );
    const user = userEvent.setup();
    const { history } = renderScreen(ListScreen, { resource: subscribers, route: routeOf(subscribers, 'view', 'list') });
    await screen.findByRole('cell', { name: 'Meera' });
    const country = screen.getByRole('combobox', { name: 'Country' });
    await user.type(country, 'Ger');
    await user.click(await screen.findByRole('option', { name: 'Germany' }));
    await waitFor(() => expect(queries.at(-1)?.get('country_id')).toBe('276'));
    expect(searches).toContain('Ger');
    expect(history.location.search).toContain('country_id=276');
    // Emptied, the filter is off again.
    await user.clear(country);
    await user.tab();
    await waitFor(() => expect(queries.at(-1)?.has('country_id')).toBe(false));
  });
  it('a text filter a record may leave empty offers "is empty" and "is not empty" beside it; typing clears the choice', async () => {
    signInWith({ VOUCHER: ['view'] });
    const note = { ...vouchers.entity!.fields.find((candidate) => candidate.name === 'code')!, name: 'note', title: 'Note', required: false };
    const withNotes = { ...vouchers, entity: { ...vouchers.entity!, fields: [...vouchers.entity!.fields, note] }, list: { ...vouchers.list!, filters: ['note'] } };
    const queries = serveRows('vouchers', [{ id: 1, code: 'FLAT50', discount_type: 'flat', discount_value: 50, is_active: true, version: 2 }]);
    const user = userEvent.setup();
    const { history } = renderScreen(ListScreen, { resource: withNotes, route: routeOf(withNotes, 'view', 'list') });
    await screen.findByRole('cell', { name: 'FLAT50' });
    const emptiness = screen.getByRole('combobox', { name: 'Note: empty or not' });
    expect(within(emptiness).getAllByRole('option').map((option) => option.textContent)).toEqual(['Either', 'Is empty', 'Is not empty']);
    await user.selectOptions(emptiness, 'Is empty');
    await waitFor(() => expect(queries.at(-1)?.get('note_empty')).toBe('true'));
    expect(history.location.search).toContain('note_empty=true');
    expect(await screen.findByRole('button', { name: /Note: is empty/ })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'gift{Enter}');
    await waitFor(() => expect(queries.at(-1)?.get('note')).toBe('gift'));
    expect(queries.at(-1)?.has('note_empty')).toBe(false);
  });
});
