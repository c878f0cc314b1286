import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderConsole, signInAs } from './consoleApp.tsx';
import { callApi, startRealApi, type RealApi } from './realApi.ts';

let api: RealApi;
beforeAll(async () => {
  api = await startRealApi();
});
afterAll(async () => {
  await api?.close();
});

/** The codes of the voucher rows on screen, top to bottom. */
function codesShown(): string[] {
  const table = screen.getByRole('table');
  const codeColumn = within(table)
    .getAllByRole('columnheader')
    .findIndex((header) => /^Code/.test(header.textContent ?? ''));
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.children[codeColumn]?.textContent ?? '');
}

describe('the generic list against the real API', () => {
  it('search and sort go into the URL, and the rows are the ones the server returns for them', async () => {
    const admin = await signInAs('Super Admin');
    const user = userEvent.setup();
    const { history } = renderConsole('/voucher-management/vouchers');
    expect(await screen.findByRole('heading', { level: 1, name: 'Vouchers' }, { timeout: 10_000 })).toBeInTheDocument();
    await screen.findByText(/of 50 ·/, {}, { timeout: 10_000 });

    await user.type(screen.getByLabelText('Search vouchers'), 'SAVE04');
    await waitFor(() => expect(history.location.search).toBe('?q=SAVE04'));
    await screen.findByText('1–10 of 10 · Page 1 of 1', {}, { timeout: 10_000 });
    const searched = await callApi(admin.access, 'GET', 'vouchers?q=SAVE04&_page_size=20');
    expect(searched.body.meta.total).toBe(10);
    expect([...codesShown()].sort()).toEqual((searched.body.data as { code: string }[]).map((row) => row.code).sort());

    await user.click(screen.getByRole('button', { name: /^Code/ }));
    await waitFor(() => expect(history.location.search).toBe('?q=SAVE04&sort=code'));
    await waitFor(() => expect(codesShown()[0]).toBe('SAVE040'));
    await user.click(screen.getByRole('button', { name: /^Code/ }));
    await waitFor(() => expect(history.location.search).toBe('?q=SAVE04&sort=-code'));
    const descending = await callApi(admin.access, 'GET', 'vouchers?q=SAVE04&_sort=code&_order=desc&_page_size=20');
    await waitFor(() =>
      expect(codesShown()).toEqual((descending.body.data as { code: string }[]).map((row) => row.code)),
    );
    expect(codesShown()).toEqual([
      'SAVE049',
      'SAVE048',
      'SAVE047',
      'SAVE046',
      'SAVE045',
      'SAVE044',
      'SAVE043',
      'SAVE042',
      'SAVE041',
      'SAVE040',
    ]);
    expect(screen.getByRole('columnheader', { name: /^Code/ })).toHaveAttribute('aria-sort', 'descending');

    // Back restores the previous sort from the URL, and the server's rows for it.
    act(() => history.go(-1));
    await waitFor(() => expect(history.location.search).toBe('?q=SAVE04&sort=code'));
    await waitFor(() => expect(codesShown()[0]).toBe('SAVE040'));
  });
});
