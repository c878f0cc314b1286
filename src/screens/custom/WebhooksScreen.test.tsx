import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { server, signInWith } from '../testing/renderScreen.tsx';
import { billing, CHOICES, renderWebhooks, serveWebhooks } from './webhooks/testing/webhooksApi.ts';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('WebhooksScreen', () => {
  it('lists each webhook with its receiver, events, status and deliveries, and says what a webhook is', async () => {
    signInWith({ WEBHOOKS: ['view'] });
    serveWebhooks([
      billing,
      { ...billing, id: 9, name: 'CRM', enabled: false, last_delivery: null, pending: 0, failed: 0 },
    ]);
    renderWebhooks();
    const row = (await screen.findByRole('link', { name: 'Billing system' })).closest('tr')!;
    expect(row).toHaveTextContent('https://billing.example.com/hooks');
    await waitFor(() => expect(row).toHaveTextContent('Vouchers: created, changed · uploads.published'));
    expect(row).toHaveTextContent('Enabled');
    expect(row).toHaveTextContent('Failed');
    expect(row).toHaveTextContent('HTTP 500');
    expect(row).toHaveTextContent('2 pending · 1 failed');
    const crm = screen.getByRole('link', { name: 'CRM' }).closest('tr')!;
    expect(crm).toHaveTextContent('Paused');
    expect(crm).toHaveTextContent('Nothing sent yet');
    expect(screen.getByText(/signed with its secret so that the receiver can check it came from here/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'New webhook' })).not.toBeInTheDocument();
  });

  it('counts the rest of a long list of events', async () => {
    signInWith({ WEBHOOKS: ['view'] });
    const everything = CHOICES.map((choice) => choice.name);
    serveWebhooks([{ ...billing, events: everything }]);
    renderWebhooks();
    const row = (await screen.findByRole('link', { name: 'Billing system' })).closest('tr')!;
    await waitFor(() =>
      expect(row).toHaveTextContent(
        `Vouchers: every change · Subscribers: every change · Companies: every change · and 6 more (${everything.length} events in all)`,
      ),
    );
  });

  it('says when there are no webhooks yet', async () => {
    signInWith({ WEBHOOKS: ['view', 'add'] });
    serveWebhooks([]);
    renderWebhooks();
    expect(await screen.findByText('No webhooks yet: no other system is told of changes.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New webhook' })).toBeInTheDocument();
  });

  it('makes a webhook and shows its signing secret once; a refusal keeps what was typed', async () => {
    signInWith({ WEBHOOKS: ['view', 'add'] });
    const { sent } = serveWebhooks([]);
    const user = userEvent.setup();
    renderWebhooks();
    await user.click(await screen.findByRole('button', { name: 'New webhook' }));
    const dialog = screen.getByRole('dialog', { name: 'New webhook' });
    const vouchers = await within(dialog).findByRole('group', { name: 'Vouchers' });
    await user.click(within(vouchers).getByRole('checkbox', { name: 'Changed' }));
    // All of a module's events at once, and cleared again.
    const subscribers = within(dialog).getByRole('group', { name: 'Subscribers' });
    await user.click(within(subscribers).getByRole('checkbox', { name: 'All events of Subscribers' }));
    expect(within(subscribers).getByRole('checkbox', { name: 'Restored from trash' })).toBeChecked();
    await user.click(within(subscribers).getByRole('checkbox', { name: 'All events of Subscribers' }));
    expect(within(subscribers).getByRole('checkbox', { name: 'Created' })).not.toBeChecked();
    // A module is found by its name; the ticked ones stay in sight.
    await user.type(within(dialog).getByRole('searchbox', { name: 'Find a module' }), 'count');
    expect(within(dialog).getByRole('group', { name: 'Countries' })).toBeInTheDocument();
    expect(within(dialog).getByRole('group', { name: 'Vouchers' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('group', { name: 'Banners' })).not.toBeInTheDocument();
    await user.clear(within(dialog).getByRole('searchbox', { name: 'Find a module' }));
    const other = within(dialog).getByRole('group', { name: 'Other events' });
    const published = within(other).getByRole('checkbox', { name: 'uploads.published' });
    expect(published).toHaveAccessibleDescription("A month's trade data was published.");
    await user.click(published);

    await user.type(within(dialog).getByLabelText('Name'), 'Refused');
    await user.type(within(dialog).getByLabelText('URL'), 'https://receiver.example.com/in');
    await user.click(within(dialog).getByRole('button', { name: 'Make the webhook' }));
    expect(await within(dialog).findByText('The URL must start with https://.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Refused');
    expect(within(dialog).getByLabelText('URL')).toHaveValue('https://receiver.example.com/in');
    expect(within(dialog).getByRole('checkbox', { name: 'uploads.published' })).toBeChecked();

    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Website');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Enabled' }));
    await user.click(within(dialog).getByRole('button', { name: 'Make the webhook' }));
    const secret = await screen.findByRole('dialog', { name: 'Webhook "Website" made' });
    expect(within(secret).getByLabelText('The signing secret')).toHaveValue('whsec_the-secret-once');
    expect(secret).toHaveTextContent('it is not shown again');
    expect(secret).toHaveTextContent('timestamp + "." + body');
    expect(sent.at(-1)).toMatchObject({
      method: 'POST',
      path: 'webhooks',
      body: {
        name: 'Website',
        url: 'https://receiver.example.com/in',
        events: ['vouchers.updated', 'uploads.published'],
        enabled: false,
      },
    });
    await user.click(within(secret).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('whsec_the-secret-once');
    await user.click(within(secret).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText('whsec_the-secret-once')).not.toBeInTheDocument();
  });

  it('opens a webhook from its name and goes back to the list', async () => {
    signInWith({ WEBHOOKS: ['view'] });
    serveWebhooks();
    const user = userEvent.setup();
    const { history } = renderWebhooks();
    await user.click(await screen.findByRole('link', { name: 'Billing system' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Webhook "Billing system"' })).toBeInTheDocument();
    expect(history.location.search).toBe('?webhook=7');
    const settings = screen.getByRole('region', { name: 'Settings' });
    expect(settings).toHaveTextContent('whsec_Ab12…');
    await waitFor(() => expect(settings).toHaveTextContent('Vouchers: created, changed'));
    await user.click(screen.getByRole('link', { name: 'Back to webhooks' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'WEBHOOKS' })).toBeInTheDocument();
  });

  it('says so when the webhook opened is not there', async () => {
    signInWith({ WEBHOOKS: ['view'] });
    serveWebhooks();
    renderWebhooks(99);
    expect(await screen.findByText('There is no webhook #99: it may have been deleted.')).toBeInTheDocument();
  });
});
