import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { customResource } from '../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import ChangePasswordScreen from './ChangePasswordScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const resource = customResource(
  'CHANGE_PASSWORD',
  'user/change-password',
  ['view'],
  '/profile-management/change-password',
);

describe('ChangePasswordScreen', () => {
  it('refuses a confirmation that does not match, then changes the password', async () => {
    signInWith({ CHANGE_PASSWORD: ['view'] });
    let body: unknown;
    server.use(
      mock.post(api('user/change-password'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ message: 'Password changed.' });
      }),
    );
    const user = userEvent.setup();
    renderScreen(ChangePasswordScreen, { resource, route: routeOf(resource, 'view', 'change-password') });
    await user.type(screen.getByLabelText(/^Current password/), 'old#pass1');
    await user.type(screen.getByLabelText(/^New password/), 'new#pass12');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'new#pass13');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('* New password does not match.')).toBeInTheDocument();
    expect(body).toBeUndefined();
    await user.clear(screen.getByLabelText(/^Confirm new password/));
    await user.type(screen.getByLabelText(/^Confirm new password/), 'new#pass12');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(body).toEqual({ current_password: 'old#pass1', password: 'new#pass12', confirm_password: 'new#pass12' }),
    );
  });
});
