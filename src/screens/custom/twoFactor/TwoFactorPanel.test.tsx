import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as profileAreaChunk from '../../../generated/areas/profile-management.ts';
import { joinArea } from '../../../routing/areaModule.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../../testing/renderScreen.tsx';
import { TwoFactorPanel } from './TwoFactorPanel.tsx';

const profileArea = joinArea(profileAreaChunk);
const profile = profileArea.resources.find((resource) => resource.module === 'USER_PROFILE')!;
const route = routeOf(profile, 'view', 'profile');
const CODES = Array.from({ length: 10 }, (_, index) => `abcd${index}-efghj`);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The server's two-factor routes over one user's state; answers `wrong` to the code "000000". */
function serve(enabled: boolean) {
  const calls: string[] = [];
  let on = enabled;
  const status = () => ({
    enabled: on,
    methods: on ? ['totp', 'recovery_code'] : [],
    recovery_codes_left: on ? 10 : 0,
    enabled_at: on ? '2026-05-03T08:00:00.000Z' : null,
  });
  const wrong = () =>
    HttpResponse.json({ message: 'The request has field errors.', errors: { code: 'Wrong' } }, { status: 400 });
  server.use(
    mock.get(api('user/two-factor'), () => HttpResponse.json({ data: status() })),
    mock.post(api('user/two-factor/totp'), () => {
      calls.push('start');
      return HttpResponse.json({
        data: { secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/x', qr_code: 'data:image/png;base64,AAAA' },
      });
    }),
    mock.post(api('user/two-factor/totp/confirm'), async ({ request }) => {
      const { code } = (await request.json()) as { code: string };
      calls.push(`confirm ${code}`);
      if (code === '000000') return wrong();
      on = true;
      return HttpResponse.json({ data: { recovery_codes: CODES }, message: 'Keep these.' });
    }),
    mock.post(api('user/two-factor/recovery-codes'), async ({ request }) => {
      calls.push(`renew ${((await request.json()) as { code: string }).code}`);
      return HttpResponse.json({ data: { recovery_codes: CODES.map((code) => `n${code}`) }, message: 'Keep these.' });
    }),
    mock.delete(api('user/two-factor'), async ({ request }) => {
      calls.push(`off ${((await request.json()) as { code: string }).code}`);
      on = false;
      return HttpResponse.json({ message: 'Two-factor sign-in is off.' });
    }),
  );
  return calls;
}

describe('two-factor sign-in on the profile', () => {
  it('enrols: the QR code and the key, a first code (a wrong one kept to fix), then the recovery codes once', async () => {
    signInWith({ USER_PROFILE: ['view', 'edit'] });
    const calls = serve(false);
    const user = userEvent.setup();
    renderScreen(TwoFactorPanel, { resource: profile, route });
    const panel = await screen.findByRole('region', { name: 'Two-factor sign-in' });
    expect(await within(panel).findByText(/^Off\./)).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Set up an authenticator app' }));
    expect(await within(panel).findByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute(
      'src',
      'data:image/png;base64,AAAA',
    );
    expect(within(panel).getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
    const field = within(panel).getByLabelText('Code from the app');
    await user.type(field, '000000');
    await user.click(within(panel).getByRole('button', { name: 'Turn on' }));
    await within(panel).findByRole('button', { name: 'Turn on' });
    expect(field).toHaveValue('000000');
    await user.clear(field);
    await user.type(field, '123456{Enter}');
    const list = await within(panel).findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(within(panel).getByRole('button', { name: 'Download' })).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'I have kept them' }));
    expect(await within(panel).findByText(/^On since 03 May 2026/)).toHaveTextContent('10 recovery codes left.');
    expect(within(panel).queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
    expect(calls).toEqual(['start', 'confirm 000000', 'confirm 123456']);
  });

  it('gives new recovery codes and turns off, each with a code', async () => {
    signInWith({ USER_PROFILE: ['view', 'edit'] });
    const calls = serve(true);
    const user = userEvent.setup();
    renderScreen(TwoFactorPanel, { resource: profile, route });
    const panel = await screen.findByRole('region', { name: 'Two-factor sign-in' });
    const field = await within(panel).findByLabelText('Code from the app, or a recovery code');
    await user.type(field, '111111');
    await user.click(within(panel).getByRole('button', { name: 'New recovery codes' }));
    expect(await within(panel).findByText('nabcd0-efghj')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'I have kept them' }));
    await user.type(await within(panel).findByLabelText('Code from the app, or a recovery code'), 'abcd1-efghj');
    await user.click(within(panel).getByRole('button', { name: 'Turn off' }));
    expect(await within(panel).findByText(/^Off\./)).toBeInTheDocument();
    expect(calls).toEqual(['renew 111111', 'off abcd1-efghj']);
  });
});
