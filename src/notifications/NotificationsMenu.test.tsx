import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Header } from '../header/Header.tsx';
import { http } from '../http/http.ts';
import { endSession, startSession } from '../session/sessionStore.ts';
import { renderWithRouter } from '../test/renderWithRouter.tsx';
import { TEST_PERMISSIONS } from '../test/testAreas.ts';
import { makeToken } from '../test/tokens.ts';
import { formatNotificationDate } from './formatNotificationDate.ts';
import { NotificationsMenu } from './NotificationsMenu.tsx';
import type { Notification } from './useNotifications.ts';

vi.mock('../http/http.ts', () => ({ http: { get: vi.fn(), post: vi.fn() } }));
const get = vi.mocked(http.get);
const post = vi.mocked(http.post);

const createdAt = new Date(2026, 10, 21, 16, 5).toISOString();
let unread: Notification[] = [];

const notificationCalls = () => get.mock.calls.filter(([path]) => path === 'notification');

beforeEach(() => {
  unread = [
    { id: 1, message: 'Upload <b>October exports</b> finished', created_at: createdAt, is_read: false },
    { id: 2, message: 'Already seen', created_at: createdAt, is_read: true },
  ];
  get.mockReset();
  post.mockReset();
  get.mockImplementation(((path: string) =>
    Promise.resolve(
      path === 'user/permission' ? { data: TEST_PERMISSIONS } : { data: unread, meta: { total: unread.length } },
    )) as typeof http.get);
  post.mockResolvedValue({ message: 'ok' });
  startSession(makeToken({ first_name: 'asha', last_name: 'verma' }), 'refresh-1');
});

afterEach(() => {
  vi.useRealTimers();
});

async function openNotifications() {
  const trigger = await screen.findByRole('button', { name: /notifications, 1 unread/i });
  await userEvent.click(trigger);
  return screen.getByRole('region', { name: /notifications/i });
}

describe('the notifications dropdown', () => {
  it('NOTIF-01 is titled "All Notifications" and has a "Mark All Read" action', async () => {
    renderWithRouter(<Header />);
    const panel = await openNotifications();
    expect(within(panel).getByRole('heading', { name: 'All Notifications' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Mark All Read' })).toBeInTheDocument();
  });

  it('NOTIF-02 lists the unread notifications with the message as HTML, the initials and a day-month 12-hour date', async () => {
    renderWithRouter(<Header />);
    const panel = await openNotifications();
    const items = within(panel).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(within(items[0]!).getByText('October exports').tagName).toBe('B');
    expect(within(items[0]!).getByText('AV')).toBeInTheDocument();
    expect(within(items[0]!).getByText('21 Nov, 04:05 PM')).toBeInTheDocument();
    expect(within(panel).queryByText('Already seen')).not.toBeInTheDocument();
    expect(formatNotificationDate(new Date(2026, 0, 3, 0, 7).toISOString())).toBe('03 Jan, 12:07 AM');
    expect(formatNotificationDate(new Date(2026, 5, 30, 12, 0).toISOString())).toBe('30 Jun, 12:00 PM');
  });

  it('NOTIF-03 says "No new notifications available." when nothing is unread', async () => {
    unread = [];
    renderWithRouter(<Header />);
    await act(() => Promise.resolve());
    await userEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(screen.getByText('No new notifications available.')).toBeInTheDocument();
  });

  it('NOTIF-04 a badge dot shows when at least one notification is unread, and not otherwise', async () => {
    const { unmount } = renderWithRouter(<Header />);
    expect(await screen.findByRole('img', { name: 'unread notifications' })).toBeInTheDocument();
    unmount();
    unread = [];
    renderWithRouter(<Header />);
    await act(() => Promise.resolve());
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'unread notifications' })).not.toBeInTheDocument();
  });

  it('NOTIF-05 fetches GET notification with is_read=false, _page=1, _page_size=8, without the loader', async () => {
    renderWithRouter(<Header />);
    await screen.findByRole('button', { name: /notifications, 1 unread/i });
    expect(notificationCalls()[0]).toEqual([
      'notification',
      expect.objectContaining({ params: { is_read: false, _page: 1, _page_size: 8 }, loader: false }),
    ]);
  });

  it('NOTIF-08 "Mark All Read" sends POST notification/mark-all-as-read with an empty body, then reloads the list', async () => {
    renderWithRouter(<Header />);
    const panel = await openNotifications();
    unread = [];
    await userEvent.click(within(panel).getByRole('button', { name: 'Mark All Read' }));
    expect(post).toHaveBeenCalledWith('notification/mark-all-as-read', {});
    expect(await within(panel).findByText('No new notifications available.')).toBeInTheDocument();
    expect(notificationCalls()).toHaveLength(2);
  });

  it('NOTIF-09 reading one notification sends POST notification with its id', async () => {
    renderWithRouter(<Header />);
    const panel = await openNotifications();
    unread = [];
    await userEvent.click(within(panel).getByRole('button', { name: 'Mark as read' }));
    expect(post).toHaveBeenCalledWith('notification', { id: 1 });
    expect(await within(panel).findByText('No new notifications available.')).toBeInTheDocument();
  });

  it('a notification about a record names it and opens it: a link to the record that also reads the notification', async () => {
    unread = [
      {
        id: 7,
        message: "<b>Ananya Iyer</b>'s subscription ends on 2026-12-20.",
        link: '/subscriber-management/subscribers/42/details',
        created_at: createdAt,
        is_read: false,
      },
    ];
    renderWithRouter(<Header />);
    const panel = await openNotifications();
    const link = within(panel).getByRole('link', { name: /subscription ends on 2026-12-20/ });
    expect(link).toHaveTextContent("Ananya Iyer's subscription ends on 2026-12-20.");
    expect(link).toHaveAttribute('href', '/subscriber-management/subscribers/42/details');
    await userEvent.click(link);
    expect(post).toHaveBeenCalledWith('notification', { id: 7 });
    expect(screen.queryByRole('region', { name: /notifications/i })).not.toBeInTheDocument();
  });

  it('NOTIF-10 the HTML is sanitised: no script, event handler or javascript: URL from the server runs', async () => {
    unread = [
      {
        id: 3,
        message:
          '<img src=x onerror="window.__notified=1"><a href="javascript:window.__notified=2">open</a><script>window.__notified=3</script>Report ready',
        created_at: createdAt,
        is_read: false,
      },
    ];
    renderWithRouter(<Header />);
    const panel = await openNotifications();
    expect(panel.querySelector('script')).toBeNull();
    expect(panel.querySelector('img')?.getAttribute('onerror')).toBeNull();
    // An image without a text alternative is marked decorative rather than read out as a file name.
    expect(panel.querySelector('img')?.getAttribute('alt')).toBe('');
    const link = within(panel).getByText('open');
    expect(link).not.toHaveAttribute('href');
    fireEvent.click(link);
    expect((window as { __notified?: number }).__notified).toBeUndefined();
  });
});

describe('notification polling', () => {
  const fakeTimers = () =>
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });

  it('NOTIF-06 polls every 30 000 ms while logged in', async () => {
    fakeTimers();
    renderWithRouter(<Header />);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(notificationCalls()).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(29_900));
    expect(notificationCalls()).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(notificationCalls()).toHaveLength(2);
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(notificationCalls()).toHaveLength(3);
  });

  it('NOTIF-06 never polls while logged out', async () => {
    endSession();
    fakeTimers();
    renderWithRouter(<Header />);
    // Even a menu that stayed mounted does not poll for a logged-out visitor.
    renderWithRouter(<NotificationsMenu initials="AV" />);
    await act(() => vi.advanceTimersByTimeAsync(95_000));
    expect(notificationCalls()).toHaveLength(0);
  });

  it('NOTIF-06 never runs two polls at once', async () => {
    fakeTimers();
    get.mockImplementation(((path: string) =>
      path === 'notification'
        ? new Promise(() => undefined)
        : Promise.resolve({ data: TEST_PERMISSIONS })) as typeof http.get);
    renderWithRouter(<Header />);
    await act(() => vi.advanceTimersByTimeAsync(95_000));
    expect(notificationCalls()).toHaveLength(1);
  });

  it('NOTIF-07 polling stops when the header is destroyed', async () => {
    fakeTimers();
    const { unmount } = renderWithRouter(<Header />);
    await act(() => vi.advanceTimersByTimeAsync(30_010));
    expect(notificationCalls()).toHaveLength(2);
    unmount();
    await act(() => vi.advanceTimersByTimeAsync(120_000));
    expect(notificationCalls()).toHaveLength(2);
  });

  it('NOTIF-07 polling stops on logout', async () => {
    fakeTimers();
    renderWithRouter(<Header />);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(notificationCalls()).toHaveLength(1);
    act(() => endSession());
    await act(() => vi.advanceTimersByTimeAsync(120_000));
    expect(notificationCalls()).toHaveLength(1);
  });
});
