import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../routing/appRoutes.tsx';
import { tokenStore } from '../session/tokenStore.ts';
import { ToastHost } from '../shell/ToastHost.tsx';
import { api, setupApiServer } from '../test/apiServer.ts';
import { renderRoutes } from '../test/renderWithRouter.tsx';
import { TEST_PERMISSIONS, testAreas } from '../test/testAreas.ts';
import { makeToken } from '../test/tokens.ts';

vi.mock('../screens/index.ts', async () => ({ SCREENS: (await import('../test/mockScreens.tsx')).MOCK_SCREENS }));

const server = setupApiServer();

/** A password that matched on an account with two-factor sign-in; the second step answers `secondStep`. */
function serve(secondStep: (body: { mfa_token: string; code: string }) => Response) {
  const codes: unknown[] = [];
  server.use(
    mock.post(api('login'), () =>
      HttpResponse.json({ data: { mfa_required: true, mfa_token: 'mfa-1', methods: ['totp', 'recovery_code'] } }),
    ),
    mock.post(api('login/two-factor'), async ({ request }) => {
      const body = (await request.json()) as { mfa_token: string; code: string };
      codes.push(body);
      return secondStep(body);
    }),
    mock.get(api('user/permission'), () => HttpResponse.json({ data: TEST_PERMISSIONS })),
    mock.get(api('notification'), () => HttpResponse.json({ data: [] })),
  );
  return codes;
}

async function passwordStep() {
  const history = renderRoutes(appRoutes(testAreas()), ['/auth/login'], (router) => (
    <>
      {router}
      <ToastHost />
    </>
  )).history;
  await userEvent.type(await screen.findByLabelText('Email'), 'tia@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'Secret#123{Enter}');
  expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();
  return history;
}

describe('the second step of signing in', () => {
  it('asks for the app code after the password, then stores the tokens and goes to the landing path', async () => {
    const access = makeToken({ default_url: '/voucher-management/vouchers' });
    const codes = serve(() => HttpResponse.json({ data: { access, refresh: 'refresh-2' } }));
    const history = await passwordStep();
    expect(tokenStore.access()).toBeNull();
    await userEvent.type(screen.getByLabelText('Authentication code'), '123456{Enter}');
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers'));
    expect(codes).toEqual([{ mfa_token: 'mfa-1', code: '123456' }]);
    expect(tokenStore.access()).toBe(access);
  });

  it('a wrong code is told once, in its toast, and the code typed stays', async () => {
    serve(() => HttpResponse.json({ message: 'Wrong code.' }, { status: 401 }));
    await passwordStep();
    await userEvent.type(screen.getByLabelText('Authentication code'), '654321{Enter}');
    const shown = await screen.findAllByText('Wrong code.');
    expect(shown).toHaveLength(1);
    expect(shown[0]!.closest('.toast-body')).not.toBeNull();
    expect(screen.getByLabelText('Authentication code')).toHaveValue('654321');
    expect(tokenStore.access()).toBeNull();
  });

  it('"Use a recovery code" asks for one and sends it', async () => {
    const codes = serve(() => HttpResponse.json({ data: { access: makeToken(), refresh: 'refresh-3' } }));
    await passwordStep();
    await userEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await userEvent.type(screen.getByLabelText('Recovery code'), ' abcde-fghjk {Enter}');
    await waitFor(() => expect(codes).toEqual([{ mfa_token: 'mfa-1', code: 'abcde-fghjk' }]));
  });

  it('"Start again" returns to the password form', async () => {
    serve(() => HttpResponse.json({}));
    await passwordStep();
    await userEvent.click(screen.getByRole('button', { name: 'Start again' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });
});
