import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { presetRange } from '../../../../contract/listFilters.ts';
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

const VOUCHER = { id: 1, code: 'FLAT50', discount_type: 'flat', discount_value: 50, is_active: true, version: 2 };

/** Opens the Filter dialog and picks a field and a condition. */
async function startFilter(user: UserEvent, field: string, condition: string) {
  await user.click(screen.getByRole('button', { name: 'Filter' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add a filter' });
  await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Field' }), field);
  await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Condition' }), condition);
  return dialog;
}

const chipTexts = () =>
  within(screen.getByRole('list', { name: 'Search and filters in force' }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.filter-chip__text')?.textContent ?? item.textContent);

describe('the Filter control', () => {
  it('is closed by default; an enum filter, "is any of" two values, becomes one chip of field, operator and values, in the address and the query', async () => {
    signInWith({ VOUCHER: ['view'] });
    const queries = serveRows('vouchers', [VOUCHER]);
    const user = userEvent.setup();
    const { history } = renderScreen(ListScreen, { resource: vouchers, route: routeOf(vouchers, 'view', 'list') });
    await screen.findByRole('cell', { name: 'FLAT50' });
    const button = screen.getByRole('button', { name: 'Filter' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Discount type' })).not.toBeInTheDocument();

    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Add a filter' });
    const field = within(dialog).getByRole('combobox', { name: 'Field' });
    await waitFor(() => expect(field).toHaveFocus());
    expect(
      within(field)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Discount type', 'Active', 'Valid to']);
    const condition = within(dialog).getByRole('combobox', { name: 'Condition' });
    expect(
      within(condition)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['is', 'is any of', 'is empty', 'is not empty']);
    await user.selectOptions(condition, 'is any of');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Percent' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Flat amount' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));

    await waitFor(() => expect(queries.at(-1)?.get('discount_type')).toBe('percent,flat'));
    expect(history.location.search).toBe('?discount_type=percent%2Cflat');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    expect(chipTexts()).toEqual(['Discount type is any of Percent, Flat amount', 'Clear all']);
  });

  it('a relation filter searches every record on the server; its chip reopens the dialog to add another', async () => {
    signInWith({ SUBSCRIBERS: ['view'] });
    const queries = serveRows('subscribers', [
      {
        id: 1,
        name: 'Meera',
        email: 'meera@example.com',
        country_id: 276,
        country_id_label: 'Germany',
        is_active: true,
        version: 1,
      },
    ]);
    const searches: string[] = [];
    const countries = [
      { value: 276, label: 'Germany' },
      { value: 4, label: 'Afghanistan' },
    ];
    server.use(
      mock.get(api('countries/options'), ({ request }) => {
        const params = new URL(request.url).searchParams;
        const id = params.get('id');
        if (id) return HttpResponse.json({ data: countries.filter((country) => String(country.value) === id) });
        const q = params.get('q') ?? '';
        searches.push(q);
        // Germany is far past the first page of countries: only a search finds it.
        return HttpResponse.json({ data: q.toLowerCase().startsWith('ger') ? [countries[0]] : [countries[1]] });
      }),
    );
    const user = userEvent.setup();
    const { history } = renderScreen(ListScreen, {
      resource: subscribers,
      route: routeOf(subscribers, 'view', 'list'),
    });
    await screen.findByRole('cell', { name: 'Meera' });
    const dialog = await startFilter(user, 'Country', 'is');
    await user.type(within(dialog).getByRole('combobox', { name: 'Country' }), 'Ger');
    await user.click(await within(dialog).findByRole('option', { name: 'Germany' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(queries.at(-1)?.get('country_id')).toBe('276'));
    expect(searches).toContain('Ger');
    expect(history.location.search).toBe('?country_id=276');
    await waitFor(() => expect(chipTexts()).toEqual(['Country is Germany', 'Clear all']));

    await user.click(screen.getByRole('button', { name: 'Country is Germany' }));
    const change = await screen.findByRole('dialog', { name: 'Change filter' });
    expect(within(change).getByRole('combobox', { name: 'Field' })).toHaveValue('country_id');
    await user.selectOptions(within(change).getByRole('combobox', { name: 'Condition' }), 'is any of');
    expect(
      within(within(change).getByRole('list', { name: 'Country: chosen' })).getByText('Germany'),
    ).toBeInTheDocument();
    await user.click(within(change).getByRole('combobox', { name: 'Country' }));
    await user.click(await within(change).findByRole('option', { name: 'Afghanistan' }));
    await user.click(within(change).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(queries.at(-1)?.get('country_id')).toBe('276,4'));
    await waitFor(() => expect(chipTexts()).toEqual(['Country is any of Germany, Afghanistan', 'Clear all']));
  });

  it('a date filter by preset keeps the preset in the address and sends its days; by dates, a range', async () => {
    signInWith({ VOUCHER: ['view'] });
    const queries = serveRows('vouchers', [VOUCHER]);
    const user = userEvent.setup();
    const { history } = renderScreen(ListScreen, { resource: vouchers, route: routeOf(vouchers, 'view', 'list') });
    await screen.findByRole('cell', { name: 'FLAT50' });
    let dialog = await startFilter(user, 'Valid to', 'is');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Valid to' }), 'Last 7 days');
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    const week = presetRange('last_7_days', new Date());
    await waitFor(() => expect(queries.at(-1)?.get('valid_to_from')).toBe(week.from));
    expect(queries.at(-1)?.get('valid_to_to')).toBe(week.to);
    // The address keeps the preset's name, so the range moves on with the calendar.
    expect(history.location.search).toBe('?valid_to_range=last_7_days');
    expect(chipTexts()).toEqual(['Valid to is last 7 days', 'Clear all']);

    dialog = await startFilter(user, 'Valid to', 'is between');
    fireEvent.change(within(dialog).getByLabelText('From'), { target: { value: '2026-01-01' } });
    fireEvent.change(within(dialog).getByLabelText('To'), { target: { value: '2026-01-31' } });
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(history.location.search).toBe('?valid_to_from=2026-01-01&valid_to_to=2026-01-31'));
    expect(chipTexts()).toEqual(['Valid to is between 01 Jan 2026 and 31 Jan 2026', 'Clear all']);
  });

  it('a field a record may leave empty offers "is empty" and "is not empty"; a text value applies with Enter and replaces it', async () => {
    signInWith({ VOUCHER: ['view'] });
    const note = {
      ...vouchers.entity!.fields.find((candidate) => candidate.name === 'code')!,
      name: 'note',
      title: 'Note',
      required: false,
    };
    const withNotes = {
      ...vouchers,
      entity: { ...vouchers.entity!, fields: [...vouchers.entity!.fields, note] },
      list: { ...vouchers.list!, filters: ['note'] },
    };
    const queries = serveRows('vouchers', [VOUCHER]);
    const user = userEvent.setup();
    const { history } = renderScreen(ListScreen, { resource: withNotes, route: routeOf(withNotes, 'view', 'list') });
    await screen.findByRole('cell', { name: 'FLAT50' });
    let dialog = await startFilter(user, 'Note', 'is empty');
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(queries.at(-1)?.get('note_empty')).toBe('true'));
    expect(history.location.search).toBe('?note_empty=true');
    expect(chipTexts()).toEqual(['Note is empty', 'Clear all']);

    dialog = await startFilter(user, 'Note', 'is');
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Choose a value first.');
    await user.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'gift{Enter}');
    await waitFor(() => expect(queries.at(-1)?.get('note')).toBe('gift'));
    expect(queries.at(-1)?.has('note_empty')).toBe(false);
    expect(chipTexts()).toEqual(['Note is gift', 'Clear all']);
  });

  it('works from the keyboard: focus moves into the dialog, Escape closes it and gives focus back to the Filter button', async () => {
    signInWith({ VOUCHER: ['view'] });
    serveRows('vouchers', [VOUCHER]);
    const user = userEvent.setup();
    const { history } = renderScreen(ListScreen, { resource: vouchers, route: routeOf(vouchers, 'view', 'list') });
    await screen.findByRole('cell', { name: 'FLAT50' });
    const button = screen.getByRole('button', { name: 'Filter' });
    button.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Add a filter' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Field' })).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    expect(history.location.search).toBe('');
  });
});
