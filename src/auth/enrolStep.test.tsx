import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { startRegistration } from '@simplewebauthn/browser';
import { appRoutes } from '../routing/appRoutes.tsx';
import { tokenStore } from '../session/tokenStore.ts';
import { ToastHost } from '../shell/ToastHost.tsx';
import { api, setupApiServer } from '../test/apiServer.ts';
import { renderRoutes } from '../test/renderWithRouter.tsx';
import { TEST_PERMISSIONS, testAreas } from '../test/testAreas.ts';
import { makeToken } from '../test/tokens.ts';

vi.mock('../screens/index.ts', async () => ({ SCREENS: (await import('../test/mockScreens.tsx')).MOCK_SCREENS }));
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));
// In braces: a function a beforeEach returns is called after the test (mockReset answers the mock itself).
beforeEach(() => {
  vi.mocked(startRegistration).mockReset();
});

const server = setupApiServer();
const REGISTRATION_OPTIONS = { challenge: 'challenge-1', rp: { id: 'localhost', name: 'Console' } };
const REGISTRATION = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {} };
const CODES = Array.from({ length: 10 }, (_, index) => `abcd${index}-efghj`);

/** A password that matched for a user whose role requires a second factor they have not enrolled. */
function serve(access: string, methods = ['totp']) {
  const calls: string[] = [];
  server.use(
    mock.post(api('login'), () =>
      HttpResponse.json({ data: { access, refresh: 'refresh-1', enrol_required: true, methods } }),
    ),
    mock.post(api('user/passkeys/registration-options'), ({ request }) => {
      calls.push(`options ${request.headers.get('authorization')}`);
      return HttpResponse.json({ data: REGISTRATION_OPTIONS });
    }),
    mock.post(api('user/passkeys'), async ({ request }) => {
      calls.push(`add ${JSON.stringify(await request.json())} ${request.headers.get('authorization')}`);
      return HttpResponse.json({ data: {}, message: 'Passkey "Passkey" added. You can sign in with it.' });
    }),
    mock.post(api('user/two-factor/totp'), ({ request }) => {
      calls.push(`start ${request.headers.get('authorization')}`);
      return HttpResponse.json({
        data: { secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/x', qr_code: 'data:image/png;base64,AAAA' },
      });
    }),
    mock.post(api('user/two-factor/totp/confirm'), async ({ request }) => {
      const { code } = (await request.json()) as { code: string };
      calls.push(`confirm ${code} ${request.headers.get('authorization')}`);
      if (code === '000000')
        return HttpResponse.json({ message: 'Wrong code.', errors: { code: 'Wrong' } }, { status: 400 });
      return HttpResponse.json({ data: { recovery_codes: CODES }, message: 'Keep these.' });
    }),
    mock.get(api('user/permission'), () => HttpResponse.json({ data: TEST_PERMISSIONS })),
    mock.get(api('notification'), () => HttpResponse.json({ data: [] })),
  );
  return calls;
}

async function passwordStep() {
  const history = renderRoutes(appRoutes(testAreas()), ['/auth/login'], (router) => (
    <>
      {router}
      <ToastHost />
    </>
  )).history;
  await userEvent.type(await screen.findByLabelText('Email'), 'rhea@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'Secret#123{Enter}');
  expect(await screen.findByRole('heading', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
  return history;
}

describe('enrolling the second factor a role requires, right after the password', () => {
  it('enrols an app with the limited token, shows the recovery codes once, then starts the session', async () => {
    const access = makeToken({ default_url: '/voucher-management/vouchers' });
    const calls = serve(access);
    const history = await passwordStep();
    expect(await screen.findByText(/Your role requires two-factor sign-in/)).toBeInTheDocument();
    expect(tokenStore.access()).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeInTheDocument();
    const field = screen.getByLabelText('Code from the app');
    await userEvent.type(field, '000000{Enter}');
    expect(await screen.findByText('Wrong code.')).toBeInTheDocument();
    expect(field).toHaveValue('000000');
    await userEvent.clear(field);
    await userEvent.type(field, '123456{Enter}');
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(tokenStore.access()).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'I have kept them' }));
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers'));
    expect(tokenStore.access()).toBe(access);
    expect(calls).toEqual([
      `start Bearer ${access}`,
      `confirm 000000 Bearer ${access}`,
      `confirm 123456 Bearer ${access}`,
    ]);
  });

  it('"Add a passkey" registers one with the limited token, then starts the session', async () => {
    vi.mocked(startRegistration).mockResolvedValue(REGISTRATION as never);
    const access = makeToken({ default_url: '/voucher-management/vouchers' });
    const calls = serve(access, ['totp', 'passkey']);
    const history = await passwordStep();
    expect(await screen.findByRole('button', { name: 'Set up an authenticator app' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('Passkey "Passkey" added. You can sign in with it.')).toBeInTheDocument();
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers'));
    expect(tokenStore.access()).toBe(access);
    expect(tokenStore.refresh()).toBe('refresh-1');
    expect(vi.mocked(startRegistration)).toHaveBeenCalledWith({ optionsJSON: REGISTRATION_OPTIONS });
    expect(calls).toEqual([
      `options Bearer ${access}`,
      `add ${JSON.stringify({ name: 'Passkey', response: REGISTRATION })} Bearer ${access}`,
    ]);
  });

  it('a dismissed passkey prompt says so and starts no session; the enrolment stays', async () => {
    vi.mocked(startRegistration).mockRejectedValue(new DOMException('The operation was aborted.', 'NotAllowedError'));
    const calls = serve(makeToken(), ['totp', 'passkey']);
    await passwordStep();
    const add = await screen.findByRole('button', { name: 'Add a passkey' });
    await userEvent.click(add);
    expect(await screen.findByText(/No passkey was used/)).toBeInTheDocument();
    await waitFor(() => expect(add).toBeEnabled());
    expect(screen.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
    expect(tokenStore.access()).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('offers only what the role accepts: no passkey button for an app-only answer', async () => {
    serve(makeToken());
    await passwordStep();
    expect(await screen.findByRole('button', { name: 'Set up an authenticator app' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).not.toBeInTheDocument();
  });

  it('"Start again" returns to the password form without a session', async () => {
    serve(makeToken());
    await passwordStep();
    await userEvent.click(await screen.findByRole('button', { name: 'Start again' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(tokenStore.access()).toBeNull();
  });
});
