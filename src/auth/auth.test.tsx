import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { StrictMode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { GuestLayout } from '../layout/GuestLayout.tsx';
import { appRoutes } from '../routing/appRoutes.tsx';
import { tokenStore } from '../session/tokenStore.ts';
import { ToastHost } from '../shell/ToastHost.tsx';
import { api, setupApiServer } from '../test/apiServer.ts';
import { renderRoutes } from '../test/renderWithRouter.tsx';
import { TEST_PERMISSIONS, testAreas } from '../test/testAreas.ts';
import { makeToken } from '../test/tokens.ts';

vi.mock('../screens/index.ts', async () => ({ SCREENS: (await import('../test/mockScreens.tsx')).MOCK_SCREENS }));

const server = setupApiServer();

function renderAt(path: string) {
  return renderRoutes(appRoutes(testAreas()), [path], (router) => (
    <StrictMode>
      {router}
      <ToastHost />
    </StrictMode>
  )).history;
}

/** One message per event: the text shows once, in the "Error" toast (ERR-01), and not again on the screen. */
async function toldOnceByToast(text: string) {
  const shown = await screen.findAllByText(text);
  expect(shown).toHaveLength(1);
  expect(shown[0]!.closest('.toast-body')).not.toBeNull();
}

function recordPosts(path: string, reply: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    mock.post(api(path), async ({ request }) => {
      bodies.push(await request.json());
      return reply();
    }),
  );
  return bodies;
}

describe('signing in again', () => {
  const signIn = async () => {
    server.use(
      mock.post(api('login'), () => HttpResponse.json({ data: { access: makeToken(), refresh: 'refresh-9' } })),
      mock.get(api('user/permission'), () => HttpResponse.json({ data: TEST_PERMISSIONS })),
      mock.get(api('notification'), () => HttpResponse.json({ data: [], meta: { total: 0, page: 1, page_size: 8 } })),
      mock.post(api('logout'), () => HttpResponse.json({})),
    );
    await userEvent.type(await screen.findByLabelText('Email'), 'admin@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Admin@12345{Enter}');
  };
  const at = (history: ReturnType<typeof renderAt>) => `${history.location.pathname}${history.location.search}`;

  it('returns the user to the page they asked for, path and query, after signing in', async () => {
    const history = renderAt('/user-management/users?q=asha&_page=2');
    await waitFor(() => expect(history.location.pathname).toBe('/auth/login'));
    expect(new URLSearchParams(history.location.search).get('next')).toBe('/user-management/users?q=asha&_page=2');
    expect(screen.queryByText('Your session expired, sign in again.')).not.toBeInTheDocument();
    await signIn();
    await waitFor(() => expect(at(history)).toBe('/user-management/users?q=asha&_page=2'));
  });

  it.each([
    ['an external address', 'https://evil.example.com/x'],
    ['a protocol-relative address', '//evil.example.com/x'],
    ['a backslashed one', '/\\evil.example.com'],
    ['an encoded one', '%2F%2Fevil.example.com'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['the login screen', '/auth/login'],
    ['another auth screen', '/auth/reset-password?token=x'],
    ['the root, which bounces to the auth screens', '/'],
  ])('never returns to %s: the landing path instead', async (_what, next) => {
    const history = renderAt(`/auth/login?next=${encodeURIComponent(next)}`);
    await signIn();
    await waitFor(() => expect(at(history)).toBe('/voucher-management/vouchers'));
  });

  it('says the session expired when an expired token sent the user to sign in, and returns them after', async () => {
    localStorage.setItem(tokenStore.accessKey, makeToken({ exp: Math.floor(Date.now() / 1000) - 5 }));
    const history = renderAt('/user-management/users?q=asha');
    expect(await screen.findByText('Your session expired, sign in again.')).toHaveAttribute('role', 'status');
    expect(history.location.pathname).toBe('/auth/login');
    await signIn();
    await waitFor(() => expect(at(history)).toBe('/user-management/users?q=asha'));
  });

  it('says nothing, and starts afresh, after a plain logout', async () => {
    const history = renderAt('/auth/login');
    await signIn();
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers'));
    await act(() => history.push('/user-management/users?q=asha'));
    await userEvent.click(await screen.findByRole('button', { name: /account menu$/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(at(history)).toBe('/auth/login'));
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.queryByText('Your session expired, sign in again.')).not.toBeInTheDocument();
  });
});

describe('the login screen', () => {
  it('SESSION-06 POST login stores data.access and data.refresh, then goes to the landing path', async () => {
    const access = makeToken({ default_url: '/voucher-management/vouchers' });
    const bodies = recordPosts('login', () => HttpResponse.json({ data: { access, refresh: 'refresh-9' } }));
    server.use(
      mock.get(api('user/permission'), () => HttpResponse.json({ data: TEST_PERMISSIONS })),
      mock.get(api('notification'), () => HttpResponse.json({ data: [] })),
    );
    const history = renderAt('/auth/login');
    await userEvent.type(await screen.findByLabelText('Email'), 'admin@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Secret#123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers'));
    expect(bodies).toEqual([{ email: 'admin@example.com', password: 'Secret#123' }]);
    expect(tokenStore.access()).toBe(access);
    expect(tokenStore.refresh()).toBe('refresh-9');
    expect(await screen.findByRole('heading', { name: 'list screen: Vouchers view' })).toBeInTheDocument();
  });

  it('shows the shared validation messages and sends nothing while the form is invalid', async () => {
    const bodies = recordPosts('login', () => HttpResponse.json({}));
    renderAt('/auth/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(screen.getAllByText('* This field is required')).toHaveLength(2);
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    expect(await screen.findByText('* Invalid Email.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('* Invalid Email.');
    expect(bodies).toEqual([]);
  });

  it('shows a field error only after it stood for 200 ms, and hides it as soon as the value is fixed', async () => {
    renderAt('/auth/login');
    const email = await screen.findByLabelText('Email');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fireEvent.change(email, { target: { value: 'not-an-email' } });
      fireEvent.blur(email);
      await act(() => vi.advanceTimersByTimeAsync(150));
      expect(screen.queryByText('* Invalid Email.')).not.toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(60));
      expect(screen.getByText('* Invalid Email.')).toBeInTheDocument();
      fireEvent.change(email, { target: { value: 'admin@example.com' } });
      expect(screen.queryByText('* Invalid Email.')).not.toBeInTheDocument();
      // The password was never touched: its "required" stays hidden even on a blur right after typing.
      fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'x' } });
      fireEvent.blur(screen.getByLabelText('Password'));
      expect(screen.queryByText('* This field is required')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the server error once, in its toast, the field error on its field, and keeps what was typed', async () => {
    recordPosts('login', () =>
      HttpResponse.json(
        { message: 'Invalid email or password.', errors: { password: 'Wrong password' } },
        { status: 400 },
      ),
    );
    renderAt('/auth/login');
    await userEvent.type(await screen.findByLabelText('Email'), 'admin@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Secret#123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await toldOnceByToast('Invalid email or password.');
    expect(await screen.findByText('* Wrong password')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('admin@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('Secret#123');
    expect(tokenStore.access()).toBeNull();
  });
});

describe('the other auth screens', () => {
  it('SESSION-10 forgot password sends POST forget_password and shows the answer', async () => {
    const bodies = recordPosts('forget_password', () =>
      HttpResponse.json({ message: 'If the email is registered, a reset link was sent.' }),
    );
    renderAt('/auth/forgot-password');
    await userEvent.type(await screen.findByLabelText('Email'), 'admin@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('If the email is registered, a reset link was sent.')).toHaveAttribute(
      'role',
      'status',
    );
    expect(bodies).toEqual([{ email: 'admin@example.com' }]);
    expect(screen.getByLabelText('Email')).toHaveValue('admin@example.com');
  });

  it('SESSION-10 reset password verifies the link with POST check-link, then sends POST reset_password', async () => {
    const checks = recordPosts('check-link', () =>
      HttpResponse.json({ data: { valid: true, email: 'admin@example.com' } }),
    );
    const resets = recordPosts('reset_password', () => HttpResponse.json({ message: 'Password updated.' }));
    renderAt('/auth/reset-password?token=link-1');
    expect(await screen.findByText('Choose a new password for admin@example.com.')).toBeInTheDocument();
    expect(checks).toEqual([{ token: 'link-1' }]);
    await userEvent.type(screen.getByLabelText('New password'), 'Better#2026');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Better#2025');
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText('* Password does not match.')).toBeInTheDocument();
    expect(resets).toEqual([]);
    await userEvent.clear(screen.getByLabelText('Confirm password'));
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Better#2026');
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByRole('heading', { name: 'Password changed' })).toBeInTheDocument();
    expect(resets).toEqual([{ token: 'link-1', password: 'Better#2026', confirm_password: 'Better#2026' }]);
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth/login');
  });

  it('SESSION-10 reset password says when the link has expired: the reason in its toast once, a new link offered', async () => {
    recordPosts('check-link', () =>
      HttpResponse.json({ message: 'This link has expired or was already used.' }, { status: 400 }),
    );
    renderAt('/auth/reset-password?token=link-2');
    expect(await screen.findByRole('heading', { name: 'This link has expired' })).toBeInTheDocument();
    await toldOnceByToast('This link has expired or was already used.');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/auth/forgot-password');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('a reset link without its token says so on the screen, having called nothing', async () => {
    renderAt('/auth/reset-password');
    expect(await screen.findByText('This reset link is incomplete. Ask for a new one.')).toHaveAttribute(
      'role',
      'alert',
    );
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/auth/forgot-password');
  });

  it('forgot password: a refusal shows once, in its toast, and no confirmation', async () => {
    recordPosts('forget_password', () =>
      HttpResponse.json({ message: 'Email: Invalid Email.', errors: { email: 'Invalid Email.' } }, { status: 400 }),
    );
    renderAt('/auth/forgot-password');
    await userEvent.type(await screen.findByLabelText('Email'), 'admin@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await toldOnceByToast('Email: Invalid Email.');
    expect(await screen.findByText('* Invalid Email.')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('a new password refused by the server shows once, in its toast, with the field error on its field', async () => {
    recordPosts('check-link', () => HttpResponse.json({ data: { valid: true, email: 'admin@example.com' } }));
    recordPosts('reset_password', () =>
      HttpResponse.json({ message: 'This link has expired or was already used.' }, { status: 400 }),
    );
    renderAt('/auth/reset-password?token=link-3');
    await userEvent.type(await screen.findByLabelText('New password'), 'Better#2026');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Better#2026');
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    await toldOnceByToast('This link has expired or was already used.');
    expect(screen.getByLabelText('New password')).toHaveValue('Better#2026');
  });

  it('a verification link the server refuses: the reason once, in its toast, and where a new link comes from', async () => {
    recordPosts('email-verify/check', () =>
      HttpResponse.json({ message: 'This link has expired or was already used.' }, { status: 400 }),
    );
    renderAt('/auth/verify-email?token=verify-2');
    await toldOnceByToast('This link has expired or was already used.');
    expect(
      await screen.findByText('An address not verified yet can have a new link sent from the sign-in screen.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/auth/login');
  });

  it('SESSION-10 email verification sends POST email-verify once, even under StrictMode', async () => {
    const checks = recordPosts('email-verify/check', () =>
      HttpResponse.json({ data: { valid: true, email: 'ana@example.com', password_set: true } }),
    );
    const bodies = recordPosts('email-verify', () => HttpResponse.json({ message: 'Email verified.' }));
    renderAt('/auth/verify-email?token=verify-1');
    expect(await screen.findByText('Email verified.')).toHaveAttribute('role', 'status');
    expect(checks).toEqual([{ token: 'verify-1' }]);
    expect(bodies).toEqual([{ token: 'verify-1' }]);
  });

  it('an invited user chooses their password with the verification link, which verifies the address with it', async () => {
    recordPosts('email-verify/check', () =>
      HttpResponse.json({ data: { valid: true, email: 'ana@example.com', password_set: false } }),
    );
    const bodies = recordPosts('email-verify', () =>
      HttpResponse.json({ message: 'Your password is set and your email address verified. You can sign in now.' }),
    );
    const user = userEvent.setup();
    renderAt('/auth/verify-email?token=invite-1');
    expect(await screen.findByRole('heading', { name: 'Choose your password' })).toBeInTheDocument();
    expect(screen.getByText('Choose the password you will sign in with as ana@example.com.')).toBeInTheDocument();
    // Nothing is spent before the password is chosen.
    expect(bodies).toEqual([]);
    await user.type(screen.getByLabelText('New password'), 'Chosen@2468');
    await user.type(screen.getByLabelText('Confirm password'), 'Chosen@2468');
    await user.click(screen.getByRole('button', { name: 'Save password and verify' }));
    expect(
      await screen.findByText('Your password is set and your email address verified. You can sign in now.'),
    ).toBeInTheDocument();
    expect(bodies).toEqual([{ token: 'invite-1', password: 'Chosen@2468', confirm_password: 'Chosen@2468' }]);
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/auth/login');
  });
});

describe('the guest layout', () => {
  it('LAYOUT-01 shows the header unless the route turns it off', async () => {
    const routes = [
      {
        element: <GuestLayout />,
        children: [{ path: 'with', element: <p>Plain page</p> }],
      },
      { element: <GuestLayout header={false} />, children: [{ path: 'without', element: <p>Bare page</p> }] },
    ];
    const { history } = renderRoutes(routes, ['/with']);
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveTextContent('Plain page');
    await act(() => history.push('/without'));
    expect(await screen.findByText('Bare page')).toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
  });
});
