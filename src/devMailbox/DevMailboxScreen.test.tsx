import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../routing/appRoutes.tsx';
import { api, setupApiServer } from '../test/apiServer.ts';
import { renderRoutes } from '../test/renderWithRouter.tsx';
import { testAreas } from '../test/testAreas.ts';
import type { MailboxEntry } from '../../contract/mailbox.ts';

vi.mock('../screens/index.ts', async () => ({ SCREENS: (await import('../test/mockScreens.tsx')).MOCK_SCREENS }));

const server = setupApiServer();

const RESET: MailboxEntry = {
  id: 7,
  recipient: 'viewer@example.com',
  subject: 'Reset your password for the Trade Data administration console',
  text: 'Hello Vera,\n\nChoose a new password: http://localhost:8080/auth/reset-password?token=abcdefghijklmnop1234\n\nThe link works once and expires in 30 minutes.',
  links: ['http://localhost:8080/auth/reset-password?token=abcdefghijklmnop1234'],
  state: 'sent',
  attempts: 1,
  created_at: '2026-05-01T10:00:00.000Z',
  sent_at: '2026-05-01T10:00:01.000Z',
  sent_via: 'console',
  last_error: null,
};
const FAILED: MailboxEntry = {
  ...RESET,
  id: 6,
  recipient: 'gone@example.com',
  subject: 'Verify your e-mail address for the Trade Data administration console',
  links: [],
  state: 'failed',
  sent_at: null,
  sent_via: null,
  last_error: '550 5.1.1 <gone@example.com>: mailbox unavailable',
};

function renderMailbox(messages: MailboxEntry[], delivery = 'console') {
  server.use(mock.get(api('dev/mailbox'), () => HttpResponse.json({ data: messages, meta: { delivery } })));
  return renderRoutes(appRoutes(testAreas()), ['/dev/mailbox']).history;
}

describe('the development mailbox', () => {
  it('lists the messages newest first with their delivery, and a console link opens on this origin', async () => {
    const user = userEvent.setup();
    const history = renderMailbox([RESET, FAILED]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Development mailbox' })).toBeInTheDocument();
    expect(
      await screen.findByText(/nothing leaves it: each message is printed on its console and listed here/),
    ).toBeInTheDocument();
    const messages = within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('article');
    expect(messages.map((message) => within(message).getByRole('heading').textContent)).toEqual([
      RESET.subject,
      FAILED.subject,
    ]);
    expect(within(messages[0]!).getByText('Printed on the server console')).toBeInTheDocument();
    expect(
      within(messages[1]!).getByText('Not delivered: 550 5.1.1 <gone@example.com>: mailbox unavailable'),
    ).toBeInTheDocument();

    server.use(
      mock.post(api('check-link'), () => HttpResponse.json({ data: { valid: true, email: 'viewer@example.com' } })),
    );
    const link = within(messages[0]!).getByRole('link', { name: RESET.links[0] });
    expect(link).toHaveAttribute('href', '/auth/reset-password?token=abcdefghijklmnop1234');
    await user.click(link);
    await waitFor(() =>
      expect(`${history.location.pathname}${history.location.search}`).toBe(
        '/auth/reset-password?token=abcdefghijklmnop1234',
      ),
    );
    expect(await screen.findByRole('heading', { level: 1, name: /password/i })).toBeInTheDocument();
  });

  it('says where to start when there is no e-mail yet', async () => {
    renderMailbox([], 'smtp');
    expect(await screen.findByText(/No e-mail yet/)).toHaveAttribute('role', 'status');
    expect(screen.getByText(/also sends them through its mail server/)).toBeInTheDocument();
  });
});
