import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../routing/appRoutes.tsx';
import { enrolmentStore } from '../session/enrolmentStore.ts';
import { startSession } from '../session/sessionStore.ts';
import { tokenStore } from '../session/tokenStore.ts';
import { ToastHost } from '../shell/ToastHost.tsx';
import { api, setupApiServer } from '../test/apiServer.ts';
import { renderRoutes } from '../test/renderWithRouter.tsx';
import { TEST_PERMISSIONS, testAreas } from '../test/testAreas.ts';
import { makeToken } from '../test/tokens.ts';

vi.mock('../screens/index.ts', async () => ({ SCREENS: (await import('../test/mockScreens.tsx')).MOCK_SCREENS }));

const server = setupApiServer();
const REFUSAL = {
  message: 'Your role requires two-factor sign-in. Add an authenticator app or a passkey before you continue.',
  code: 'two_factor_enrolment_required',
};
const CODES = Array.from({ length: 10 }, (_, index) => `abcd${index}-efghj`);

/**
 * A signed-in user whose role has come to require a second factor: every route but the enrolment ones refuses the
 * session until `enrolled` is set. Answers the calls made, in order.
 */
function serve(access: string) {
  const state = { enrolled: false, calls: [] as string[] };
  const guarded = (answer: () => Response) => () =>
    state.enrolled ? answer() : HttpResponse.json(REFUSAL, { status: 403 });
  server.use(
    mock.get(
      api('user/permission'),
      guarded(() => HttpResponse.json({ data: TEST_PERMISSIONS })),
    ),
    mock.get(
      api('notification'),
      guarded(() => HttpResponse.json({ data: [] })),
    ),
    mock.post(api('user/two-factor/totp'), ({ request }) => {
      state.calls.push(`start ${request.headers.get('authorization')}`);
      return HttpResponse.json({
        data: { secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/x', qr_code: 'data:image/png;base64,AAAA' },
      });
    }),
    mock.post(api('user/two-factor/totp/confirm'), ({ request }) => {
      state.calls.push(`confirm ${request.headers.get('authorization')}`);
      state.enrolled = true;
      return HttpResponse.json({ data: { recovery_codes: CODES }, message: 'Keep these.' });
    }),
    mock.post(api('logout'), () => {
      state.calls.push('logout');
      return HttpResponse.json({ message: 'Logged out.' });
    }),
  );
  startSession(access, 'refresh-1');
  return state;
}

function render(path: string) {
  return renderRoutes(appRoutes(testAreas()), [path], (router) => (
    <>
      {router}
      <ToastHost />
    </>
  )).history;
}

describe('a signed-in user whose role comes to require a second factor', () => {
  it('is shown the enrolment of the sign-in screen, with no "Error" toast, and taken back once enrolled', async () => {
    const access = makeToken();
    const state = serve(access);
    const history = render('/voucher-management/vouchers/add');
    expect(await screen.findByRole('heading', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
    expect(await screen.findByText(/Your role requires two-factor sign-in/)).toBeInTheDocument();
    expect(history.location.pathname).toBe('/auth/login');
    expect(screen.queryByText(REFUSAL.message)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(tokenStore.access()).toBe(access);

    await userEvent.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));
    await userEvent.type(await screen.findByLabelText('Code from the app'), '123456{Enter}');
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    await userEvent.click(screen.getByRole('button', { name: 'I have kept them' }));
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers/add'));
    expect(await screen.findByRole('heading', { name: 'form screen: Vouchers add' })).toBeInTheDocument();
    expect(enrolmentStore.get()).toBe(false);
    expect(tokenStore.access()).toBe(access);
    expect(state.calls).toEqual([`start Bearer ${access}`, `confirm Bearer ${access}`]);
    expect(screen.queryByText(REFUSAL.message)).not.toBeInTheDocument();
  });

  it('"Sign out" ends the session and leaves the sign-in form', async () => {
    const state = serve(makeToken());
    render('/voucher-management/vouchers');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(tokenStore.access()).toBeNull();
    expect(enrolmentStore.get()).toBe(false);
    expect(state.calls).toEqual(['logout']);
  });
});
