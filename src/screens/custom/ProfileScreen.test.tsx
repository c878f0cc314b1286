import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as profileAreaChunk from '../../generated/areas/profile-management.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import ProfileScreen from './ProfileScreen.tsx';
import { joinArea } from '../../routing/areaModule.ts';

const profileArea = joinArea(profileAreaChunk);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const profile = profileArea.resources.find((resource) => resource.module === 'USER_PROFILE')!;
const route = routeOf(profile, 'view', 'profile');

const ME = {
  id: 1,
  first_name: 'Asha',
  last_name: 'Admin',
  email: 'admin@example.com',
  mobile: '9876543210',
  role: 'Super Admin',
};

function serveProfile(onSave?: (body: Record<string, unknown>) => Response | Promise<Response>) {
  const saved: Record<string, unknown>[] = [];
  server.use(
    mock.get(api('user/profile'), () => HttpResponse.json({ data: ME })),
    mock.get(api('user/sessions'), () => HttpResponse.json({ data: [], meta: { total: 0, page: 1, page_size: 50 } })),
    mock.get(api('user/sign-ins'), () => HttpResponse.json({ data: [], meta: { total: 0, page: 1, page_size: 10 } })),
    mock.get(api('user/two-factor'), () =>
      HttpResponse.json({ data: { enabled: false, methods: [], recovery_codes_left: 0, enabled_at: null } }),
    ),
    mock.put(api('user/profile'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      saved.push(body);
      return onSave ? onSave(body) : HttpResponse.json({ data: { ...ME, ...body }, message: 'Profile updated.' });
    }),
  );
  return saved;
}

const errorOf = (field: HTMLElement) => document.getElementById(`${field.id}__error`);

describe('ProfileScreen', () => {
  it('ROUTE-11 shows who the user is at /profile-management/profile and saves their name and mobile', async () => {
    expect(route.path).toBe('/profile-management/profile');
    signInWith({ USER_PROFILE: ['view', 'edit'] });
    const saved = serveProfile();
    const user = userEvent.setup();
    const { history } = renderScreen(ProfileScreen, { resource: profile, route });
    expect(screen.getByRole('heading', { level: 1, name: 'My profile' })).toBeInTheDocument();
    const firstName = await screen.findByLabelText(/^First name/);
    expect(firstName).toHaveValue('Asha');
    expect(screen.getByLabelText(/^Last name/)).toHaveValue('Admin');
    expect(screen.getByLabelText(/^Mobile/)).toHaveValue('9876543210');
    expect(screen.getByText('Email', { selector: 'dt' }).nextElementSibling).toHaveTextContent('admin@example.com');
    expect(screen.getByText('Role', { selector: 'dt' }).nextElementSibling).toHaveTextContent('Super Admin');
    // The e-mail and the role are not the user's to change.
    expect(screen.queryByRole('textbox', { name: /Email/ })).not.toBeInTheDocument();

    await user.clear(screen.getByLabelText(/^Last name/));
    await user.type(screen.getByLabelText(/^Last name/), 'Rao');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(saved).toEqual([{ first_name: 'Asha', last_name: 'Rao', mobile: '9876543210' }]));
    // Saved: leaving asks nothing.
    await act(() => history.push('/elsewhere'));
    expect(history.location.pathname).toBe('/elsewhere');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('FORM-03 FORM-07 checks the fields in the browser and sends nothing while they are wrong', async () => {
    signInWith({ USER_PROFILE: ['view', 'edit'] });
    const saved = serveProfile();
    const user = userEvent.setup();
    renderScreen(ProfileScreen, { resource: profile, route });
    const firstName = await screen.findByLabelText(/^First name/);
    await user.clear(firstName);
    await user.clear(screen.getByLabelText(/^Mobile/));
    await user.type(screen.getByLabelText(/^Mobile/), '12345');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(errorOf(firstName)).toHaveTextContent('* This field is required'));
    await waitFor(() =>
      expect(errorOf(screen.getByLabelText(/^Mobile/))).toHaveTextContent('* Invalid mobile number.'),
    );
    expect(saved).toEqual([]);
  });

  it('FORM-12 puts a server field error on its field, prefixed with "* ", and keeps what was typed', async () => {
    signInWith({ USER_PROFILE: ['view', 'edit'] });
    serveProfile(() =>
      HttpResponse.json(
        {
          message: 'Mobile: This mobile number is already in use.',
          errors: { mobile: 'This mobile number is already in use.' },
        },
        { status: 400 },
      ),
    );
    const user = userEvent.setup();
    renderScreen(ProfileScreen, { resource: profile, route });
    const mobile = await screen.findByLabelText(/^Mobile/);
    await user.clear(mobile);
    await user.type(mobile, '9123456789');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(() =>
      expect(errorOf(screen.getByLabelText(/^Mobile/))).toHaveTextContent('* This mobile number is already in use.'),
    );
    expect(screen.getByLabelText(/^Mobile/)).toHaveValue('9123456789');
    expect(screen.getByLabelText(/^First name/)).toHaveValue('Asha');
    expect(screen.getByRole('button', { name: 'Save profile' })).toBeEnabled();
  });

  it('asks before leaving unsaved changes, and stays when told to', async () => {
    signInWith({ USER_PROFILE: ['view', 'edit'] });
    serveProfile();
    const user = userEvent.setup();
    const { history } = renderScreen(ProfileScreen, { resource: profile, route });
    await user.type(await screen.findByLabelText(/^First name/), 'ji');
    await act(() => history.push('/elsewhere'));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', { name: 'Stay' }),
    );
    expect(history.location.pathname).toBe('/profile-management/profile');
    expect(screen.getByLabelText(/^First name/)).toHaveValue('Ashaji');
  });
});
