import { screen, waitFor, within } from '@testing-library/react';
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

/** The balance wherever the screen shows it: the summary figure and the profile field. */
const balancesShown = () =>
  screen.getAllByText('Points balance', { selector: 'dt' }).map((term) => term.nextElementSibling?.textContent);

describe('subscriber top-up against the real API', () => {
  it('a top-up confirmed with a double click credits the points once', async () => {
    const admin = await signInAs('Super Admin');
    const summary = async () =>
      (await callApi(admin.access, 'GET', 'subscribers/5/summary')).body.data as {
        points_balance: number;
        subscriber: { name: string };
      };
    const ledger = async () =>
      (await callApi(admin.access, 'GET', 'subscribers/5/ledger')).body.data as { kind: string; points: number }[];
    const before = await summary();
    const entriesBefore = (await ledger()).length;

    const user = userEvent.setup();
    renderConsole('/subscriber-management/subscribers/5/details');
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: `Subscriber ${before.subscriber.name}` },
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    const shown = (points: number) => new Intl.NumberFormat('en-IN').format(points);
    expect(balancesShown()).toEqual([shown(before.points_balance), shown(before.points_balance)]);
    await user.click(screen.getByRole('button', { name: 'Add top-up' }));
    const dialog = screen.getByRole('dialog', { name: 'Add top-up' });
    await user.type(within(dialog).getByLabelText(/^Points/), '500');
    await user.type(within(dialog).getByLabelText(/^Amount paid/), '999');
    await user.dblClick(within(dialog).getByRole('button', { name: 'Credit points' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 10_000 });

    const expected = before.points_balance + 500;
    await waitFor(() => expect(balancesShown()).toEqual([shown(expected), shown(expected)]), { timeout: 10_000 });
    expect((await summary()).points_balance).toBe(expected);
    const entries = await ledger();
    expect(entries).toHaveLength(entriesBefore + 1);
    expect(entries.filter((entry) => entry.points === 500)).toHaveLength(1);
  });
});
