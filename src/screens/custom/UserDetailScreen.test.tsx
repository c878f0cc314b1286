import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as userAreaChunk from '../../generated/areas/user-management.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import UserDetailScreen from './UserDetailScreen.tsx';
import { joinArea } from '../../routing/areaModule.ts';

const userArea = joinArea(userAreaChunk);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const users = userArea.resources.find((resource) => resource.module === 'USERS')!;
const route = routeOf(users, 'view_detail', 'user-detail');
const NILA = {
  id: 12,
  first_name: 'Nila',
  last_name: 'New',
  email: 'nila@example.com',
  mobile: '9876500011',
  role_id: 4,
  role_id_label: 'Read Only',
  is_active: true,
  version: 1,
};
const UNVERIFIED = {
  email: 'nila@example.com',
  verified_at: null,
  last_link_sent_at: '2026-05-01T10:00:00.000Z',
  last_link_expires_at: '2026-05-08T10:00:00.000Z',
};

const PASSKEYS = [
  { id: 3, name: 'Work laptop', created_at: '2026-10-01T08:00:00.000Z', last_used_at: '2026-11-20T17:45:00.000Z' },
  { id: 5, name: 'YubiKey', created_at: '2026-10-02T08:00:00.000Z', last_used_at: null },
];

function serveUser(status: object) {
  const sent: unknown[] = [];
  server.use(
    mock.get(api('users/12'), () => HttpResponse.json({ data: NILA }, { headers: { etag: '"1"' } })),
    mock.get(api('users/12/email-verification'), () => HttpResponse.json({ data: status })),
    mock.get(api('users/12/sessions'), () =>
      HttpResponse.json({ data: [], meta: { total: 0, page: 1, page_size: 50 } }),
    ),
    mock.get(api('users/12/sign-ins'), () =>
      HttpResponse.json({ data: [], meta: { total: 0, page: 1, page_size: 10 } }),
    ),
    mock.get(api('users/12/two-factor'), () =>
      HttpResponse.json({
        data: { enabled: false, methods: [], recovery_codes_left: 0, enabled_at: null, required: false, passkeys: [] },
      }),
    ),
    mock.post(api('users/12/email-verification'), async ({ request }) => {
      sent.push(await request.json());
      return HttpResponse.json({
        data: {
          ...UNVERIFIED,
          last_link_sent_at: '2026-05-02T09:30:00.000Z',
          last_link_expires_at: '2026-05-09T09:30:00.000Z',
        },
        message: 'A new verification link was sent to nila@example.com.',
      });
    }),
  );
  return sent;
}

describe('UserDetailScreen', () => {
  it('shows a user not verified yet, and an administrator who may edit users sends the link again', async () => {
    expect(route.path).toBe('/user-management/users/:id');
    signInWith({ USERS: ['view', 'view_detail', 'edit'] });
    const sent = serveUser(UNVERIFIED);
    const user = userEvent.setup();
    renderScreen(UserDetailScreen, { resource: users, route, at: '/user-management/users/12' });
    expect(await screen.findByRole('heading', { level: 1, name: 'User Nila' })).toBeInTheDocument();
    const panel = await screen.findByRole('region', { name: 'Email verification' });
    expect(
      await within(panel).findByText(
        'nila@example.com is not verified yet: this user cannot sign in until they open the link sent to them.',
      ),
    ).toBeInTheDocument();
    expect(within(panel).getByText(/^Last link sent on 01 May 2026/)).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Send the verification link again' }));
    expect(await within(panel).findByText(/^Last link sent on 02 May 2026/)).toBeInTheDocument();
    expect(sent).toEqual([{}]);
  });

  it('a verified user shows when, with no button', async () => {
    signInWith({ USERS: ['view', 'view_detail', 'edit'] });
    serveUser({ ...UNVERIFIED, verified_at: '2026-05-01T11:00:00.000Z' });
    renderScreen(UserDetailScreen, { resource: users, route, at: '/user-management/users/12' });
    const panel = await screen.findByRole('region', { name: 'Email verification' });
    expect(await within(panel).findByText(/^nila@example\.com was verified on 01 May 2026/)).toBeInTheDocument();
    expect(within(panel).queryByRole('button')).not.toBeInTheDocument();
  });

  it('a role that may only view sees the state but no button', async () => {
    signInWith({ USERS: ['view', 'view_detail'] });
    serveUser(UNVERIFIED);
    renderScreen(UserDetailScreen, { resource: users, route, at: '/user-management/users/12' });
    const panel = await screen.findByRole('region', { name: 'Email verification' });
    await within(panel).findByText(/is not verified yet/);
    expect(within(panel).queryByRole('button')).not.toBeInTheDocument();
  });

  it("shows the user's sessions and sign-ins; an administrator who may edit users ends a session", async () => {
    signInWith({ USERS: ['view', 'view_detail', 'edit'] });
    serveUser({ ...UNVERIFIED, verified_at: '2026-05-01T11:00:00.000Z' });
    const ended: string[] = [];
    let live = [
      {
        id: 'a1b2c3d4-0000-4000-8000-000000000001',
        created_at: '2026-05-03T08:00:00.000Z',
        last_used_at: '2026-05-03T09:00:00.000Z',
        client_address: '203.0.113.7',
        browser: 'Firefox 128 on Linux',
        user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
        current: false,
      },
    ];
    server.use(
      mock.get(api('users/12/sessions'), () =>
        HttpResponse.json({ data: live, meta: { total: live.length, page: 1, page_size: 50 } }),
      ),
      mock.delete(api('users/12/sessions/:sessionId'), ({ params }) => {
        ended.push(String(params.sessionId));
        live = [];
        return HttpResponse.json({ message: 'The session has ended.' });
      }),
      mock.get(api('users/12/sign-ins'), () =>
        HttpResponse.json({
          data: [
            {
              id: 3,
              at: '2026-05-03T08:00:00.000Z',
              outcome: 'wrong_password',
              client_address: '203.0.113.7',
              browser: 'Firefox 128 on Linux',
              user_agent: null,
            },
          ],
          meta: { total: 1, page: 1, page_size: 10 },
        }),
      ),
    );
    const user = userEvent.setup();
    renderScreen(UserDetailScreen, { resource: users, route, at: '/user-management/users/12' });
    const sessions = await screen.findByRole('region', { name: 'Sessions' });
    expect(await within(sessions).findByText('Firefox 128 on Linux')).toBeInTheDocument();
    expect(within(sessions).getByText(/203\.0\.113\.7/)).toBeInTheDocument();
    expect(within(sessions).queryByRole('button', { name: 'Sign out everywhere else' })).not.toBeInTheDocument();
    const signIns = screen.getByRole('region', { name: 'Recent sign-ins' });
    expect(await within(signIns).findByText('Wrong password')).toBeInTheDocument();

    await user.click(within(sessions).getByRole('button', { name: /^End the session of Firefox 128 on Linux/ }));
    expect(await within(sessions).findByText('No live session.')).toBeInTheDocument();
    expect(ended).toEqual(['a1b2c3d4-0000-4000-8000-000000000001']);
  });

  it('a role that may only view users sees their sessions with no End', async () => {
    signInWith({ USERS: ['view', 'view_detail'] });
    serveUser(UNVERIFIED);
    server.use(
      mock.get(api('users/12/sessions'), () =>
        HttpResponse.json({
          data: [
            {
              id: 'a1b2c3d4-0000-4000-8000-000000000002',
              created_at: '2026-05-03T08:00:00.000Z',
              last_used_at: '2026-05-03T08:00:00.000Z',
              client_address: null,
              browser: 'Unknown browser',
              user_agent: null,
              current: false,
            },
          ],
          meta: { total: 1, page: 1, page_size: 50 },
        }),
      ),
    );
    renderScreen(UserDetailScreen, { resource: users, route, at: '/user-management/users/12' });
    const sessions = await screen.findByRole('region', { name: 'Sessions' });
    expect(await within(sessions).findByText('Unknown browser')).toBeInTheDocument();
    expect(within(sessions).queryByRole('button')).not.toBeInTheDocument();
  });

  it('an administrator sees the app and each passkey, and resets them all after confirming', async () => {
    signInWith({ USERS: ['view', 'view_detail', 'edit'] });
    serveUser(UNVERIFIED);
    let resets = 0;
    server.use(
      mock.get(api('users/12/two-factor'), () =>
        HttpResponse.json({
          data: {
            enabled: resets === 0,
            methods: resets === 0 ? ['totp', 'recovery_code', 'passkey'] : [],
            recovery_codes_left: resets === 0 ? 7 : 0,
            enabled_at: resets === 0 ? '2026-11-02T09:30:00.000Z' : null,
            required: false,
            passkeys: resets === 0 ? PASSKEYS : [],
          },
        }),
      ),
      mock.delete(api('users/12/two-factor'), () => {
        resets += 1;
        return HttpResponse.json({
          message: 'Two-factor sign-in was reset and the user signed out everywhere. They were told by e-mail.',
        });
      }),
    );
    const user = userEvent.setup();
    renderScreen(UserDetailScreen, { resource: users, route, at: '/user-management/users/12' });
    const panel = await screen.findByRole('region', { name: 'Two-factor sign-in' });
    expect(await within(panel).findByText(/7 recovery codes left/)).toBeInTheDocument();
    expect(within(panel).getByText(/2 passkeys:/)).toBeInTheDocument();
    const list = within(panel).getByRole('list', { name: 'Their passkeys' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('strong')?.textContent)).toEqual(['Work laptop', 'YubiKey']);
    expect(items[0]).toHaveTextContent(/added .*2026.*, last used .*2026/);
    expect(items[1]).toHaveTextContent(/last used never/);
    await user.click(within(panel).getByRole('button', { name: 'Reset two-factor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset two-factor sign-in?' });
    expect(dialog).toHaveTextContent(
      'This removes their authenticator app and recovery codes and all 2 of their passkeys',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(resets).toBe(0);
    await user.click(within(panel).getByRole('button', { name: 'Reset two-factor' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Reset two-factor sign-in?' })).getByRole('button', {
        name: 'Reset two-factor',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(resets).toBe(1);
    expect(await within(panel).findByText('Off: this user signs in with their password alone.')).toBeInTheDocument();
    expect(within(panel).queryByRole('list', { name: 'Their passkeys' })).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Reset two-factor' })).not.toBeInTheDocument();
  });

  it('a user with passkeys only: the reset is offered, and names the passkey alone', async () => {
    signInWith({ USERS: ['view', 'view_detail', 'edit'] });
    serveUser(UNVERIFIED);
    server.use(
      mock.get(api('users/12/two-factor'), () =>
        HttpResponse.json({
          data: {
            enabled: false,
            methods: [],
            recovery_codes_left: 0,
            enabled_at: null,
            required: true,
            passkeys: [PASSKEYS[1]],
          },
        }),
      ),
    );
    const user = userEvent.setup();
    renderScreen(UserDetailScreen, { resource: users, route, at: '/user-management/users/12' });
    const panel = await screen.findByRole('region', { name: 'Two-factor sign-in' });
    expect(await within(panel).findByText(/No authenticator app\. 1 passkey:/)).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Reset two-factor' }));
    expect(await screen.findByRole('dialog', { name: 'Reset two-factor sign-in?' })).toHaveTextContent(
      'This removes their passkey and signs this user out everywhere:',
    );
  });

  it('a role that may only view users sees the passkeys, and is offered no reset of the second factor', async () => {
    signInWith({ USERS: ['view', 'view_detail'] });
    serveUser(UNVERIFIED);
    server.use(
      mock.get(api('users/12/two-factor'), () =>
        HttpResponse.json({
          data: {
            enabled: false,
            methods: [],
            recovery_codes_left: 0,
            enabled_at: null,
            required: false,
            passkeys: PASSKEYS,
          },
        }),
      ),
    );
    renderScreen(UserDetailScreen, { resource: users, route, at: '/user-management/users/12' });
    await screen.findByRole('region', { name: 'Sessions' });
    const panel = await screen.findByRole('region', { name: 'Two-factor sign-in' });
    expect(await within(panel).findByRole('list', { name: 'Their passkeys' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reset two-factor' })).not.toBeInTheDocument();
  });
});
