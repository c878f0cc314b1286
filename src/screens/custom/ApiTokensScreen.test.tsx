import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTokenAnswer } from '../../../contract/apiTokens.ts';
import { customResource } from '../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import ApiTokensScreen from './ApiTokensScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const resource = customResource('API_TOKENS', 'api-tokens', ['view', 'add', 'delete'], '/user-management/api-tokens');
const route = routeOf(resource, 'view', 'api-tokens');

const billing: ApiTokenAnswer = {
  id: 3,
  name: 'Billing system',
  prefix: 'tda_Xk3f',
  permissions: { SUBSCRIBERS: ['view'], VOUCHER: ['view', 'add'] },
  created_by: 1,
  created_by_email: 'admin@example.com',
  created_at: '2026-11-02T09:00:00Z',
  expires_at: '2027-02-01T09:00:00Z',
  last_used_at: null,
  revoked_at: null,
  status: 'active',
};

/** The tokens as the API lists them, and what was posted or revoked. */
function serveTokens(tokens: ApiTokenAnswer[] = [billing]) {
  const posted: unknown[] = [];
  const revoked: string[] = [];
  server.use(
    mock.get(api('api-tokens'), () =>
      HttpResponse.json({ data: tokens, meta: { total: tokens.length, page: 1, page_size: 50 } }),
    ),
    mock.post(api('api-tokens'), async ({ request }) => {
      const body = (await request.json()) as { name: string; permissions: Record<string, string[]> };
      posted.push(body);
      if (body.name === 'Taken')
        return HttpResponse.json(
          { message: 'Invalid input', errors: { permissions: 'your role does not have VOUCHER add.' } },
          { status: 400 },
        );
      return HttpResponse.json(
        {
          data: { ...billing, id: 4, name: body.name, permissions: body.permissions, token: 'tda_the-secret-once' },
          message: `API token "${body.name}" made. Copy it now: it is not shown again.`,
        },
        { status: 201 },
      );
    }),
    mock.delete(api('api-tokens/:id'), ({ params }) => {
      revoked.push(String(params.id));
      return HttpResponse.json({
        data: { ...billing, status: 'revoked' },
        message: 'API token "Billing system" revoked.',
      });
    }),
  );
  return { posted, revoked };
}

describe('ApiTokensScreen', () => {
  it('lists each token with what it may do, who made it, its last use and expiry, never a secret', async () => {
    signInWith({ API_TOKENS: ['view'] });
    serveTokens([
      billing,
      { ...billing, id: 2, name: 'Old CRM', status: 'revoked', revoked_at: '2026-11-20T10:00:00Z' },
    ]);
    renderScreen(ApiTokensScreen, { resource, route });
    const row = (await screen.findByText('Billing system')).closest('tr')!;
    expect(row).toHaveTextContent('tda_Xk3f…');
    expect(row).toHaveTextContent('Subscribers: View · Vouchers: View, Add');
    expect(row).toHaveTextContent('admin@example.com');
    expect(row).toHaveTextContent('Never');
    expect(row).toHaveTextContent('Active');
    const old = screen.getByText('Old CRM').closest('tr')!;
    expect(old).toHaveTextContent('Revoked');
    expect(old).toHaveTextContent('on 20 Nov 2026');
    expect(row).toHaveTextContent('until 01 Feb 2027');
    // Without add and delete, neither making nor revoking is offered.
    expect(screen.queryByRole('button', { name: 'New API token' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
  });

  it("makes a token of the user's own permissions and shows its secret once; a refusal keeps what was typed", async () => {
    signInWith({ API_TOKENS: ['view', 'add'], VOUCHER: ['view', 'add'], SUBSCRIBERS: ['view', 'executive_access'] });
    const { posted } = serveTokens();
    const user = userEvent.setup();
    renderScreen(ApiTokensScreen, { resource, route });
    await user.click(await screen.findByRole('button', { name: 'New API token' }));
    const dialog = screen.getByRole('dialog', { name: 'New API token' });
    // Only what the user has is offered: not the tokens' own module, not the narrowing executive_access.
    expect(within(dialog).queryByRole('group', { name: 'API tokens' })).not.toBeInTheDocument();
    const subscribers = within(dialog).getByRole('group', { name: 'Subscribers' });
    expect(within(subscribers).getAllByRole('checkbox')).toHaveLength(1);
    // A module is found by its name; what was ticked stays in sight.
    await user.click(
      within(within(dialog).getByRole('group', { name: 'Vouchers' })).getByRole('checkbox', { name: 'View' }),
    );
    await user.type(within(dialog).getByRole('searchbox', { name: 'Find a module' }), 'subs');
    expect(
      within(dialog)
        .getAllByRole('group')
        .map((group) => group.getAttribute('aria-label')),
    ).toEqual(expect.arrayContaining(['Subscribers', 'Vouchers']));
    await user.clear(within(dialog).getByRole('searchbox', { name: 'Find a module' }));
    await user.type(within(dialog).getByRole('searchbox', { name: 'Find a module' }), 'nothing like it');
    expect(within(dialog).queryByRole('group', { name: 'Subscribers' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('group', { name: 'Vouchers' })).toBeInTheDocument();
    await user.clear(within(dialog).getByRole('searchbox', { name: 'Find a module' }));
    await user.click(
      within(within(dialog).getByRole('group', { name: 'Vouchers' })).getByRole('checkbox', { name: 'View' }),
    );
    const make = within(dialog).getByRole('button', { name: 'Make the token' });
    expect(make).toBeDisabled();

    await user.type(within(dialog).getByLabelText('Name'), 'Taken');
    await user.click(
      within(within(dialog).getByRole('group', { name: 'Vouchers' })).getByRole('checkbox', { name: 'Add' }),
    );
    await user.click(make);
    expect(await within(dialog).findByText('your role does not have VOUCHER add.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Taken');

    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Website');
    await user.click(
      within(within(dialog).getByRole('group', { name: 'Subscribers' })).getByRole('checkbox', { name: 'View' }),
    );
    await user.click(make);
    const secret = await screen.findByRole('dialog', { name: 'API token "Website" made' });
    expect(within(secret).getByLabelText('The token')).toHaveValue('tda_the-secret-once');
    expect(secret).toHaveTextContent('it is not shown again');
    expect(posted.at(-1)).toMatchObject({ name: 'Website', permissions: { VOUCHER: ['add'], SUBSCRIBERS: ['view'] } });
    const expiry = Date.parse((posted.at(-1) as { expires_at: string }).expires_at);
    expect(expiry - Date.now()).toBeGreaterThan(89 * 86_400_000);
    await user.click(within(secret).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('revokes a token after asking', async () => {
    signInWith({ API_TOKENS: ['view', 'delete'] });
    const { revoked } = serveTokens();
    const user = userEvent.setup();
    renderScreen(ApiTokensScreen, { resource, route });
    await user.click(await screen.findByRole('button', { name: 'Revoke Billing system' }));
    const question = screen.getByRole('dialog', { name: 'Revoke API token "Billing system"?' });
    expect(question).toHaveTextContent('refused from its next request on');
    await user.click(within(question).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(revoked).toEqual(['3']));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
