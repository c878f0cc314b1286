import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { startAuthentication } from '@simplewebauthn/browser';
import { appRoutes } from '../routing/appRoutes.tsx';
import { tokenStore } from '../session/tokenStore.ts';
import { ToastHost } from '../shell/ToastHost.tsx';
import { api, setupApiServer } from '../test/apiServer.ts';
import { renderRoutes } from '../test/renderWithRouter.tsx';
import { TEST_PERMISSIONS, testAreas } from '../test/testAreas.ts';
import { makeToken } from '../test/tokens.ts';

vi.mock('../screens/index.ts', async () => ({ SCREENS: (await import('../test/mockScreens.tsx')).MOCK_SCREENS }));
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));

const server = setupApiServer();
const OPTIONS = { challenge: 'challenge-1', rpId: 'localhost', allowCredentials: [] };
const ASSERTION = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {} };

/** The passkey routes; answers the calls made, in order. */
function serve(access: string, login?: object) {
  const calls: unknown[] = [];
  const answer = (path: string, body: object) =>
    mock.post(api(path), async ({ request }) => {
      calls.push([path, await request.json()]);
      return HttpResponse.json(body);
    });
  server.use(
    answer('login/passkey-options', { data: OPTIONS }),
    answer('login/passkey', { data: { access, refresh: 'refresh-1' } }),
    answer('login/two-factor/passkey-options', { data: OPTIONS }),
    answer('login/two-factor/passkey', { data: { access, refresh: 'refresh-2' } }),
    ...(login ? [answer('login', { data: login })] : []),
    mock.get(api('user/permission'), () => HttpResponse.json({ data: TEST_PERMISSIONS })),
    mock.get(api('notification'), () => HttpResponse.json({ data: [] })),
  );
  return calls;
}

function render() {
  return renderRoutes(appRoutes(testAreas()), ['/auth/login'], (router) => (
    <>
      {router}
      <ToastHost />
    </>
  )).history;
}

beforeEach(() => vi.mocked(startAuthentication).mockReset());

describe('signing in with a passkey', () => {
  it('"Sign in with a passkey" asks the browser, sends its answer, then starts the session', async () => {
    const access = makeToken({ default_url: '/voucher-management/vouchers' });
    const calls = serve(access);
    vi.mocked(startAuthentication).mockResolvedValue(ASSERTION as never);
    const history = render();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers'));
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(calls).toEqual([
      ['login/passkey-options', {}],
      ['login/passkey', { response: ASSERTION }],
    ]);
    expect(tokenStore.access()).toBe(access);
  });

  it('a refused passkey is told in its toast and leaves the sign-in form as it was', async () => {
    serve(makeToken());
    server.use(
      mock.post(api('login/passkey'), () =>
        HttpResponse.json({ message: 'This passkey was not accepted.' }, { status: 401 }),
      ),
    );
    vi.mocked(startAuthentication).mockResolvedValue(ASSERTION as never);
    render();
    await userEvent.type(await screen.findByLabelText('Email'), 'pia@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText('This passkey was not accepted.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('pia@example.com');
    expect(await screen.findByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
    expect(tokenStore.access()).toBeNull();
  });

  it('after the password, a user whose only second factor is a passkey is offered it alone', async () => {
    const access = makeToken({ default_url: '/voucher-management/vouchers' });
    const calls = serve(access, { mfa_required: true, mfa_token: 'mfa-1', methods: ['passkey'] });
    vi.mocked(startAuthentication).mockResolvedValue(ASSERTION as never);
    const history = render();
    await userEvent.type(await screen.findByLabelText('Email'), 'pia@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Secret#123{Enter}');
    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Use a passkey' }));
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers'));
    expect(calls.slice(1)).toEqual([
      ['login/two-factor/passkey-options', { mfa_token: 'mfa-1' }],
      ['login/two-factor/passkey', { mfa_token: 'mfa-1', response: ASSERTION }],
    ]);
  });

  it('with both an app and a passkey, the code form offers the passkey too', async () => {
    serve(makeToken(), { mfa_required: true, mfa_token: 'mfa-1', methods: ['totp', 'recovery_code', 'passkey'] });
    render();
    await userEvent.type(await screen.findByLabelText('Email'), 'pia@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Secret#123{Enter}');
    expect(await screen.findByLabelText('Authentication code')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use a passkey' })).toBeInTheDocument();
  });
});
