import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startRegistration } from '@simplewebauthn/browser';
import * as profileAreaChunk from '../../../generated/areas/profile-management.ts';
import { joinArea } from '../../../routing/areaModule.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../../testing/renderScreen.tsx';
import { PasskeysPanel } from './PasskeysPanel.tsx';

vi.mock('@simplewebauthn/browser', () => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));

const profileArea = joinArea(profileAreaChunk);
const profile = profileArea.resources.find((resource) => resource.module === 'USER_PROFILE')!;
const route = routeOf(profile, 'view', 'profile');
const OPTIONS = { challenge: 'challenge-1', rp: { id: 'localhost', name: 'Trade Data' } };
const ATTESTATION = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {} };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The passkey routes over one user's list; answers the calls made. */
function serve() {
  const calls: unknown[] = [];
  let passkeys = [
    { id: 1, name: 'Phone', created_at: '2026-05-03T08:00:00.000Z', last_used_at: null as string | null },
  ];
  server.use(
    mock.get(api('user/passkeys'), () => HttpResponse.json({ data: passkeys })),
    mock.post(api('user/passkeys/registration-options'), () => HttpResponse.json({ data: OPTIONS })),
    mock.post(api('user/passkeys'), async ({ request }) => {
      const body = (await request.json()) as { name: string };
      calls.push(['add', body]);
      passkeys = [...passkeys, { id: 2, name: body.name, created_at: '2026-05-04T08:00:00.000Z', last_used_at: null }];
      return HttpResponse.json({ data: passkeys[1], message: `Passkey "${body.name}" added.` });
    }),
    mock.patch(api('user/passkeys/:id'), async ({ request, params }) => {
      const { name } = (await request.json()) as { name: string };
      calls.push(['rename', params.id, name]);
      passkeys = passkeys.map((passkey) => (passkey.id === Number(params.id) ? { ...passkey, name } : passkey));
      return HttpResponse.json({ data: passkeys[0], message: 'Passkey renamed.' });
    }),
    mock.delete(api('user/passkeys/:id'), ({ params }) => {
      calls.push(['remove', params.id]);
      passkeys = passkeys.filter((passkey) => passkey.id !== Number(params.id));
      return HttpResponse.json({ message: 'Passkey removed.' });
    }),
  );
  return calls;
}

describe('passkeys on the profile', () => {
  it('lists, adds with a name through the browser, renames and removes', async () => {
    signInWith({ USER_PROFILE: ['view', 'edit'] });
    const calls = serve();
    vi.mocked(startRegistration).mockResolvedValue(ATTESTATION as never);
    const user = userEvent.setup();
    renderScreen(PasskeysPanel, { resource: profile, route });
    const panel = await screen.findByRole('region', { name: 'Passkeys' });
    const list = await within(panel).findByRole('list', { name: 'Your passkeys' });
    expect(within(list).getByText('Phone')).toBeInTheDocument();
    expect(within(list).getByText(/added 03 May 2026.*last used never/)).toBeInTheDocument();

    await user.type(within(panel).getByLabelText('Name of the new passkey'), 'Work laptop');
    await user.click(within(panel).getByRole('button', { name: 'Add a passkey' }));
    expect(await within(panel).findByText('Work laptop')).toBeInTheDocument();
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(within(panel).getByLabelText('Name of the new passkey')).toHaveValue('');

    await user.click(within(panel).getByRole('button', { name: 'Rename Phone' }));
    const field = within(panel).getByLabelText('New name');
    await user.clear(field);
    await user.type(field, 'Old phone{Enter}');
    expect(await within(panel).findByText('Old phone')).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Remove Work laptop' }));
    await within(panel).findByRole('button', { name: 'Remove Old phone' });
    expect(within(panel).queryByText('Work laptop')).not.toBeInTheDocument();
    expect(calls).toEqual([
      ['add', { name: 'Work laptop', response: ATTESTATION }],
      ['rename', '1', 'Old phone'],
      ['remove', '2'],
    ]);
  });
});
