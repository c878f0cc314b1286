import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, server, signInWith } from '../../testing/renderScreen.tsx';
import { billing, delivered, renderWebhooks, serveWebhooks } from './testing/webhooksApi.ts';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('a webhook opened on the webhooks screen', () => {
  it('edits a webhook at the version read (If-Match)', async () => {
    signInWith({ WEBHOOKS: ['view', 'edit'] });
    const { sent } = serveWebhooks();
    const user = userEvent.setup();
    renderWebhooks(7);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit webhook "Billing system"' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Billing system');
    const vouchers = await within(dialog).findByRole('group', { name: 'Vouchers' });
    expect(within(vouchers).getByRole('checkbox', { name: 'All events of Vouchers' })).toHaveProperty(
      'indeterminate',
      true,
    );
    await user.click(within(vouchers).getByRole('checkbox', { name: 'Deleted' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent.find((call) => call.method === 'PUT')).toMatchObject({
      path: 'webhooks/7',
      ifMatch: '"3"',
      body: {
        name: 'Billing system',
        url: 'https://billing.example.com/hooks',
        events: ['vouchers.created', 'vouchers.updated', 'uploads.published', 'vouchers.deleted'],
        enabled: true,
      },
    });
  });

  it('says when someone changed the webhook meanwhile; Reload takes their change and keeps what was typed', async () => {
    signInWith({ WEBHOOKS: ['view', 'edit'] });
    serveWebhooks();
    const user = userEvent.setup();
    renderWebhooks(7);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit webhook "Billing system"' });
    const saves: { ifMatch: string | null; body: unknown }[] = [];
    // Someone renames it and pauses it while this dialog is open.
    const theirs = { ...billing, name: 'Billing (new)', enabled: false, version: 4 };
    server.use(
      mock.get(api('webhooks/7'), () => HttpResponse.json({ data: theirs })),
      mock.put(api('webhooks/7'), async ({ request }) => {
        const ifMatch = request.headers.get('if-match');
        saves.push({ ifMatch, body: await request.json() });
        return ifMatch === '"3"'
          ? HttpResponse.json({ message: 'Changed since you read it.' }, { status: 412 })
          : HttpResponse.json({ data: theirs, message: 'Webhook saved.' });
      }),
    );
    await user.clear(within(dialog).getByLabelText('URL'));
    await user.type(within(dialog).getByLabelText('URL'), 'https://billing.example.com/v2');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    const conflict = await within(dialog).findByRole('alert');
    expect(conflict).toHaveTextContent('This webhook was changed by someone else since you opened it');
    await user.click(within(conflict).getByRole('button', { name: 'Reload' }));
    expect(await within(dialog).findByText('Changed by someone else, now shown: Name, Enabled.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Billing (new)');
    expect(within(dialog).getByLabelText('URL')).toHaveValue('https://billing.example.com/v2');
    expect(within(dialog).getByRole('checkbox', { name: 'Enabled' })).not.toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(saves.map((save) => save.ifMatch)).toEqual(['"3"', '"4"']);
    expect(saves[1]?.body).toMatchObject({
      name: 'Billing (new)',
      url: 'https://billing.example.com/v2',
      enabled: false,
    });
  });

  it('says why the server paused a webhook whose deliveries kept failing, and how to send to it again', async () => {
    signInWith({ WEBHOOKS: ['view', 'edit'] });
    const reason =
      'A vouchers.updated event could not be delivered (Answered 500), and nothing got through since it was queued on 2026-11-01 09:00 UTC.';
    serveWebhooks([{ ...billing, enabled: false, paused_reason: reason }]);
    renderWebhooks(7);
    const settings = await screen.findByRole('region', { name: 'Settings' });
    expect(within(settings).getByText('Paused by the server: deliveries kept failing')).toBeInTheDocument();
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent(`Paused by the server: deliveries kept failing. ${reason}`);
    expect(notice).toHaveTextContent('Once its receiver answers again, Edit it and tick Enabled.');
  });

  it('says when a webhook is silent because its maker was deactivated or deleted', async () => {
    signInWith({ WEBHOOKS: ['view', 'edit'] });
    serveWebhooks([{ ...billing, maker_active: false }]);
    renderWebhooks(7);
    const settings = await screen.findByRole('region', { name: 'Settings' });
    expect(
      within(settings).getByText('Silent: its maker was deactivated or deleted, so no event is sent to it'),
    ).toBeInTheDocument();
  });

  it('lists the deliveries, filters them by state, shows one in full and sends one again', async () => {
    signInWith({ WEBHOOKS: ['view', 'edit'] });
    const { sent } = serveWebhooks();
    const user = userEvent.setup();
    renderWebhooks(7);
    const log = await screen.findByRole('region', { name: 'Deliveries table' });
    const failedRow = within(log).getByText('Failed').closest('tr')!;
    expect(failedRow).toHaveTextContent('vouchers.updated');
    expect(failedRow).toHaveTextContent('8');
    expect(failedRow).toHaveTextContent('500');
    expect(within(log).getByText('Delivered').closest('tr')).toHaveTextContent('200');

    await user.selectOptions(screen.getByLabelText('State'), 'Delivered');
    await waitFor(() => expect(within(log).queryByText('Failed')).not.toBeInTheDocument());
    expect(sent.filter((call) => call.path === 'webhooks/7/deliveries').at(-1)?.query).toContain('state=delivered');

    await user.click(within(log).getByRole('button', { name: 'Details of delivery #41' }));
    const details = screen.getByRole('dialog', { name: 'Delivery #41: vouchers.updated' });
    expect(within(details).getByRole('region', { name: 'The body sent' }).textContent).toBe(
      JSON.stringify(JSON.parse(delivered.body), null, 2),
    );
    expect(within(details).getByRole('region', { name: "The receiver's answer" })).toHaveTextContent('thanks');
    expect(details).toHaveTextContent('HTTP 200');
    await user.click(within(details).getByRole('button', { name: 'Close' }));

    await user.selectOptions(screen.getByLabelText('State'), 'All');
    await user.click(await within(log).findByRole('button', { name: 'Send again: delivery #42' }));
    await waitFor(() =>
      expect(sent.map((call) => `${call.method} ${call.path}`)).toContain('POST webhooks/7/deliveries/42/resend'),
    );
  });

  it('sends a test event, makes a new signing secret after asking, and deletes after asking', async () => {
    signInWith({ WEBHOOKS: ['view', 'edit', 'delete'] });
    const { sent } = serveWebhooks();
    const user = userEvent.setup();
    const { history } = renderWebhooks(7);
    await user.click(await screen.findByRole('button', { name: 'Send test event' }));
    await waitFor(() => expect(sent.map((call) => `${call.method} ${call.path}`)).toContain('POST webhooks/7/ping'));

    await user.click(screen.getByRole('button', { name: 'New signing secret' }));
    const question = screen.getByRole('dialog', { name: 'New signing secret of "Billing system"?' });
    expect(question).toHaveTextContent('the receiver refuses them until it is given the new one');
    await user.click(within(question).getByRole('button', { name: 'Make a new secret' }));
    const renewed = await screen.findByRole('dialog', { name: 'New signing secret of "Billing system"' });
    expect(within(renewed).getByLabelText('The signing secret')).toHaveValue('whsec_renewed');
    await user.click(within(renewed).getByRole('button', { name: 'Done' }));

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete webhook "Billing system"?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(history.location.search).toBe(''));
    expect(sent.map((call) => `${call.method} ${call.path}`)).toContain('DELETE webhooks/7');
  });

  it('offers no change to a role that may only view', async () => {
    signInWith({ WEBHOOKS: ['view'] });
    serveWebhooks();
    renderWebhooks(7);
    await screen.findByRole('region', { name: 'Deliveries table' });
    for (const name of ['Edit', 'Send test event', 'New signing secret', 'Delete', /again/]) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Details of delivery #41' })).toBeInTheDocument();
  });
});
