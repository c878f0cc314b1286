import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionAnswer, SignInAnswer } from '../../../../contract/signIns.ts';
import * as profileAreaChunk from '../../../generated/areas/profile-management.ts';
import { joinArea } from '../../../routing/areaModule.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../../testing/renderScreen.tsx';
import { SessionsPanel } from './SessionsPanel.tsx';
import { SignInsPanel } from './SignInsPanel.tsx';

const profileArea = joinArea(profileAreaChunk);
const profile = profileArea.resources.find((resource) => resource.module === 'USER_PROFILE')!;
const route = routeOf(profile, 'view', 'profile');

/** The two panels as the profile screen places them (the screen's form is tested in ProfileScreen.test.tsx). */
function OwnSessions() {
  return (
    <>
      <SessionsPanel owner="user" title="Your sessions" canEnd everywhereElse />
      <SignInsPanel owner="user" title="Recent sign-ins" />
    </>
  );
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const session = (id: string, browser: string, current: boolean): SessionAnswer => ({
  id,
  created_at: '2026-05-03T08:00:00.000Z',
  last_used_at: '2026-05-03T09:30:00.000Z',
  client_address: '198.51.100.4',
  browser,
  user_agent: null,
  current,
});
const signIn = (id: number, outcome: SignInAnswer['outcome']): SignInAnswer => ({
  id,
  at: '2026-05-03T08:00:00.000Z',
  outcome,
  client_address: '198.51.100.4',
  browser: 'Chrome 126 on Windows',
  user_agent: null,
});

function serve(sessions: SessionAnswer[], signIns: SignInAnswer[], total = signIns.length) {
  const calls: string[] = [];
  let live = sessions;
  server.use(
    mock.get(api('user/sessions'), () =>
      HttpResponse.json({ data: live, meta: { total: live.length, page: 1, page_size: 50 } }),
    ),
    mock.delete(api('user/sessions/:id'), ({ params }) => {
      calls.push(`end ${String(params.id)}`);
      live = live.filter((one) => one.id !== params.id);
      return HttpResponse.json({ message: 'The session has ended.' });
    }),
    mock.delete(api('user/sessions'), () => {
      calls.push('everywhere else');
      live = live.filter((one) => one.current);
      return HttpResponse.json({ message: 'Signed out everywhere else: 1 other session ended.' });
    }),
    mock.get(api('user/sign-ins'), ({ request }) => {
      const page = Number(new URL(request.url).searchParams.get('_page'));
      calls.push(`sign-ins page ${page}`);
      return HttpResponse.json({ data: signIns, meta: { total, page, page_size: 10 } });
    }),
  );
  return calls;
}

describe("the profile's sessions and sign-ins", () => {
  it('marks this session, ends another, and signs out everywhere else', async () => {
    signInWith({ USER_PROFILE: ['view', 'edit'] });
    const calls = serve(
      [
        session('00000000-0000-4000-8000-00000000000a', 'Chrome 126 on Windows', true),
        session('00000000-0000-4000-8000-00000000000b', 'Firefox 128 on Linux', false),
        session('00000000-0000-4000-8000-00000000000c', 'Safari 17 on iOS', false),
      ],
      [],
    );
    const user = userEvent.setup();
    renderScreen(OwnSessions, { resource: profile, route });
    const panel = await screen.findByRole('region', { name: 'Your sessions' });
    const items = await within(panel).findAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByText('This session')).toBeInTheDocument();
    expect(within(items[0]!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(items[1]!).getByText(/^Signed in 03 May 2026/)).toHaveTextContent('198.51.100.4');

    await user.click(within(items[1]!).getByRole('button', { name: /^End the session of Firefox 128 on Linux/ }));
    await within(panel).findByText((_text, element) => element?.tagName === 'UL' && element.children.length === 2);
    await user.click(within(panel).getByRole('button', { name: 'Sign out everywhere else' }));
    await within(panel).findByText((_text, element) => element?.tagName === 'UL' && element.children.length === 1);
    expect(within(panel).queryByRole('button', { name: 'Sign out everywhere else' })).not.toBeInTheDocument();
    expect(calls.filter((call) => !call.startsWith('sign-ins'))).toEqual([
      'end 00000000-0000-4000-8000-00000000000b',
      'everywhere else',
    ]);
  });

  it('lists recent sign-ins with their outcome in words, a page at a time', async () => {
    signInWith({ USER_PROFILE: ['view', 'edit'] });
    const calls = serve(
      [],
      [signIn(4, 'success'), signIn(3, 'wrong_password'), signIn(2, 'throttled'), signIn(1, 'unverified')],
      14,
    );
    const user = userEvent.setup();
    renderScreen(OwnSessions, { resource: profile, route });
    const panel = await screen.findByRole('region', { name: 'Recent sign-ins' });
    expect(await within(panel).findByText('Signed in')).toBeInTheDocument();
    for (const words of ['Wrong password', 'Refused: too many attempts', 'Refused: e-mail address not verified'])
      expect(within(panel).getByText(words)).toBeInTheDocument();
    expect(within(panel).getAllByText('Chrome 126 on Windows · 198.51.100.4')).toHaveLength(4);
    expect(within(panel).getByText('Page 1 of 2')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Older' }));
    expect(await within(panel).findByText('Page 2 of 2')).toBeInTheDocument();
    expect(calls).toEqual(['sign-ins page 1', 'sign-ins page 2']);
    expect(screen.getByRole('region', { name: 'Your sessions' })).toHaveTextContent('No live session.');
  });
});
