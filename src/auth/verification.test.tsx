import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../routing/appRoutes.tsx';
import { api, setupApiServer } from '../test/apiServer.ts';
import { ToastHost } from '../shell/ToastHost.tsx';
import { renderRoutes } from '../test/renderWithRouter.tsx';
import { testAreas } from '../test/testAreas.ts';

vi.mock('../screens/index.ts', async () => ({ SCREENS: (await import('../test/mockScreens.tsx')).MOCK_SCREENS }));

const server = setupApiServer();
const NOT_VERIFIED =
  'Your email address is not verified yet. Open the link in the email we sent you, or send the link again.';

function renderAt(path: string) {
  return renderRoutes(appRoutes(testAreas()), [path], (router) => (
    <>
      {router}
      <ToastHost />
    </>
  )).history;
}

/** One message per event: the text shows once, in the "Error" toast (ERR-01), and not again on the screen. */
async function toldOnceByToast(text: string) {
  const shown = await screen.findAllByText(text);
  expect(shown).toHaveLength(1);
  expect(shown[0]!.closest('.toast-body')).not.toBeNull();
}

afterEach(() => vi.useRealTimers());

describe('signing in with an address not verified yet', () => {
  const refuseUnverified = () => {
    const resent: unknown[] = [];
    server.use(
      mock.post(api('login'), () => HttpResponse.json({ message: NOT_VERIFIED }, { status: 403 })),
      mock.post(api('email-verify/resend'), async ({ request }) => {
        resent.push(await request.json());
        return HttpResponse.json({
          message: 'A new verification link was sent to nila@example.com. It expires in 7 days.',
        });
      }),
    );
    return resent;
  };
  const signIn = async (user: ReturnType<typeof userEvent.setup>) => {
    await user.type(await screen.findByLabelText('Email'), 'nila@example.com');
    await user.type(screen.getByLabelText('Password'), 'Nila@13579{Enter}');
  };

  it('says so once, in its toast, and "Send the link again" sends the typed credentials, then rests for a minute, counting down', async () => {
    const resent = refuseUnverified();
    const user = userEvent.setup();
    const history = renderAt('/auth/login');
    await signIn(user);
    await toldOnceByToast(NOT_VERIFIED);
    expect(
      await screen.findByText('Did the verification e-mail not arrive, or has its link expired?'),
    ).toBeInTheDocument();
    expect(history.location.pathname).toBe('/auth/login');

    await user.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(
      await screen.findByText('A new verification link was sent to nila@example.com. It expires in 7 days.'),
    ).toHaveAttribute('role', 'status');
    expect(resent).toEqual([{ email: 'nila@example.com', password: 'Nila@13579' }]);
    const resting = screen.getByRole('button', { name: /^Send the link again \(in (60|59) s\)$/ });
    expect(resting).toBeDisabled();
  });

  it('the countdown ends and the link can be asked for again', async () => {
    refuseUnverified();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderAt('/auth/login');
    await signIn(user);
    await user.click(await screen.findByRole('button', { name: 'Send the link again' }));
    await screen.findByRole('button', { name: /^Send the link again \(in \d+ s\)$/ });
    await act(async () => {
      vi.advanceTimersByTime(61_000);
    });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send the link again' })).toBeEnabled());
  });

  it("shows the server's refusal of a link asked for too soon once, in its toast, and rests as long as it asked", async () => {
    server.use(
      mock.post(api('login'), () => HttpResponse.json({ message: NOT_VERIFIED }, { status: 403 })),
      mock.post(api('email-verify/resend'), () =>
        HttpResponse.json(
          { message: 'A verification link was sent to you a moment ago. Try again in 42 second(s).' },
          { status: 429, headers: { 'retry-after': '42' } },
        ),
      ),
    );
    const user = userEvent.setup();
    renderAt('/auth/login');
    await signIn(user);
    await user.click(await screen.findByRole('button', { name: 'Send the link again' }));
    // The wait the server asked for (Retry-After) is counted down on the button.
    expect(await screen.findByRole('button', { name: /^Send the link again \(in (42|41) s\)$/ })).toBeDisabled();
    await toldOnceByToast('A verification link was sent to you a moment ago. Try again in 42 second(s).');
  });

  it('a wrong password offers no link: only the refusal, in its toast', async () => {
    server.use(
      mock.post(api('login'), () => HttpResponse.json({ message: 'Invalid email or password.' }, { status: 401 })),
    );
    const user = userEvent.setup();
    renderAt('/auth/login');
    await signIn(user);
    await toldOnceByToast('Invalid email or password.');
    expect(screen.queryByRole('button', { name: /Send the link again/ })).not.toBeInTheDocument();
  });
});

describe('the development mailbox from the auth screens (development builds)', () => {
  it('the sign-in screen links to it, and so does the forgot-password answer', async () => {
    server.use(
      mock.post(api('forget_password'), () =>
        HttpResponse.json({
          message: 'If an account exists for this email, a link to reset the password has been sent.',
        }),
      ),
      mock.get(api('dev/mailbox'), () => HttpResponse.json({ data: [], meta: { delivery: 'console' } })),
    );
    const user = userEvent.setup();
    const history = renderAt('/auth/login');
    expect(await screen.findByRole('link', { name: 'Development mailbox' })).toHaveAttribute('href', '/dev/mailbox');
    await user.click(screen.getByRole('link', { name: 'Forgot password?' }));
    await user.type(await screen.findByLabelText('Email'), 'viewer@example.com{Enter}');
    await user.click(await screen.findByRole('link', { name: 'development mailbox' }));
    await waitFor(() => expect(history.location.pathname).toBe('/dev/mailbox'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Development mailbox' })).toBeInTheDocument();
  });
});
