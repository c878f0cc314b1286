import { screen, waitFor } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRERENDERED_SIGN_IN_ID, SIGN_IN_GUARD_SCRIPT } from '../../contract/signInPage.ts';
import { appRoutes } from '../routing/appRoutes.tsx';
import { tokenStore } from '../session/tokenStore.ts';
import { api, setupApiServer } from '../test/apiServer.ts';
import { renderRoutes } from '../test/renderWithRouter.tsx';
import { TEST_PERMISSIONS, testAreas } from '../test/testAreas.ts';
import { makeToken } from '../test/tokens.ts';
import { dropPrerenderedSignIn } from './prerenderedSignIn.ts';
import { signInMarkup } from './signInMarkup.tsx';

vi.mock('../screens/index.ts', async () => ({ SCREENS: (await import('../test/mockScreens.tsx')).MOCK_SCREENS }));

const server = setupApiServer();

/** The page of /auth/login as the server sends it: the built markup and its guard, before the console's root. */
function prerenderedPage() {
  const container = document.createElement('div');
  container.id = PRERENDERED_SIGN_IN_ID;
  container.innerHTML = signInMarkup();
  document.body.append(container);
  new Function(SIGN_IN_GUARD_SCRIPT)();
  const form = container.querySelector('form')!;
  const input = (name: string) => form.elements.namedItem(name) as HTMLInputElement;
  return { container, form, email: input('email'), password: input('password') };
}

afterEach(() => document.getElementById(PRERENDERED_SIGN_IN_ID)?.remove());

describe('the sign-in form the page carries before the console runs', () => {
  it('is the sign-in screen itself: its fields, its button, its links', () => {
    const { container, email, password } = prerenderedPage();
    expect(email.type).toBe('email');
    expect(email.hasAttribute('autofocus')).toBe(true);
    expect(password.type).toBe('password');
    const submit = container.querySelector('button[type="submit"]');
    expect(submit?.textContent).toBe('Sign in');
    expect(submit?.hasAttribute('disabled')).toBe(false);
    expect(container.querySelector('a[href="/auth/forgot-password"]')).not.toBeNull();
  });

  it('holds a submit until the console runs, which then signs in with what was typed there', async () => {
    const { container, form, email, password } = prerenderedPage();
    email.value = 'admin@example.com';
    password.value = 'Admin@12345';
    password.focus();
    const held = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(held);
    expect(held.defaultPrevented).toBe(true);
    expect(form.hasAttribute('data-submitted')).toBe(true);

    const bodies: unknown[] = [];
    server.use(
      mock.post(api('login'), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ data: { access: makeToken(), refresh: 'refresh-9' } });
      }),
      mock.get(api('user/permission'), () => HttpResponse.json({ data: TEST_PERMISSIONS })),
      mock.get(api('notification'), () => HttpResponse.json({ data: [], meta: { total: 0, page: 1, page_size: 8 } })),
    );
    const { history } = renderRoutes(appRoutes(testAreas()), ['/auth/login']);
    await waitFor(() => expect(bodies).toEqual([{ email: 'admin@example.com', password: 'Admin@12345' }]));
    expect(container.isConnected).toBe(false);
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers'));
    expect(tokenStore.refresh()).toBe('refresh-9');
  });

  it('hands the focus and the typed values to the live form, and sends nothing unasked', async () => {
    const { container, email } = prerenderedPage();
    email.value = 'asha@exam';
    email.focus();
    const bodies: unknown[] = [];
    server.use(
      mock.post(api('login'), () => {
        bodies.push('sent');
        return HttpResponse.json({});
      }),
    );
    renderRoutes(appRoutes(testAreas()), ['/auth/login']);
    const live = await screen.findByLabelText('Email');
    expect(container.isConnected).toBe(false);
    expect(live).toHaveValue('asha@exam');
    expect(live).toHaveFocus();
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(bodies).toEqual([]);
  });

  it('goes when the console shows another screen first', () => {
    const { container } = prerenderedPage();
    dropPrerenderedSignIn();
    expect(container.isConnected).toBe(false);
    expect(() => dropPrerenderedSignIn()).not.toThrow();
  });
});
