import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { NOTIFICATION_POLL_MS, NOTIFICATION_QUERY } from '../config/constants.ts';
import { http } from '../http/http.ts';
import { useSession } from '../session/useSession.ts';

export interface Notification {
  id: number | string;
  /** HTML from the server; render it through sanitizeHtml only (NOTIF-10). */
  message: string;
  /** The console path of the record it is about (the subscriber whose subscription ends), if any. */
  link?: string | null;
  created_at: string;
  is_read: boolean;
}

interface NotificationPage {
  data: Notification[];
  meta?: { total?: number };
}

export interface UseNotificationsResult {
  unread: Notification[];
  markAllRead: () => Promise<void>;
  markRead: (id: Notification['id']) => Promise<void>;
}

const NOTIFICATIONS_KEY = ['notifications', NOTIFICATION_QUERY] as const;

/**
 * The unread notifications (NOTIF-05), polled every 30 s while logged in (NOTIF-06). The poll belongs to this
 * hook's component: it stops when the header unmounts or the session ends (NOTIF-07), and a poll never starts
 * while the previous one is still running (the query dedupes in-flight fetches).
 */
export function useNotifications(): UseNotificationsResult {
  const { loggedIn } = useSession();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: NOTIFICATIONS_KEY,
    queryFn: ({ signal }) =>
      http.get<NotificationPage>('notification', { params: NOTIFICATION_QUERY, loader: false, signal }),
    enabled: loggedIn,
    refetchInterval: loggedIn ? NOTIFICATION_POLL_MS : false,
    refetchIntervalInBackground: true,
  });
  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }), [queryClient]);
  const markAllRead = useCallback(async () => {
    await http.post('notification/mark-all-as-read', {});
    await reload();
  }, [reload]);
  const markRead = useCallback(
    async (id: Notification['id']) => {
      await http.post('notification', { id });
      await reload();
    },
    [reload],
  );
  return { unread: (query.data?.data ?? []).filter((notification) => !notification.is_read), markAllRead, markRead };
}
