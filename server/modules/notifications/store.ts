// A user's notifications (`notifications`): added where something happens, listed and marked read by their user.
import type { Queryable, Row } from '../../db/database.ts';
import { resource } from '../../registry.ts';

/**
 * Adds a notification for a user; the message is HTML the console sanitises before showing (NOTIF-10). `link` is the
 * console path of the record it is about, which the console opens when it is clicked.
 */
export async function notify(
  db: Queryable,
  userId: number,
  message: string,
  link: string | null = null,
): Promise<void> {
  await db.query('INSERT INTO notifications (user_id, message, link) VALUES ($1, $2, $3)', [userId, message, link]);
}

/** The console path of a record's screen for an action (its detail screen), or null when the manifest has none. */
export function recordLink(module: string, action: string, id: number): string | null {
  const route = resource(module)?.routes[action];
  return route ? route.path.replace(':id', String(id)) : null;
}

/** A page of a user's notifications, newest first, only the read or unread ones when `isRead` says so; with their total. */
export async function notificationPage(
  db: Queryable,
  userId: number,
  page: { isRead: boolean | null; page: number; pageSize: number },
): Promise<{ rows: Row[]; total: number }> {
  const [rows, counted] = await Promise.all([
    db.query(
      `SELECT id, message, link, created_at, is_read FROM notifications
        WHERE user_id = $1 AND ($2::boolean IS NULL OR is_read = $2)
        ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
      [userId, page.isRead, page.pageSize, (page.page - 1) * page.pageSize],
    ),
    db.query<{ total: number }>(
      'SELECT count(*) AS total FROM notifications WHERE user_id = $1 AND ($2::boolean IS NULL OR is_read = $2)',
      [userId, page.isRead],
    ),
  ]);
  return { rows, total: counted[0]?.total ?? 0 };
}

/** Marks one of a user's notifications read and answers it; undefined when the user has no such notification. */
export async function markRead(tx: Queryable, userId: number, id: number): Promise<Row | undefined> {
  const [read] = await tx.query(
    'UPDATE notifications SET is_read = true WHERE id = $1 AND user_id = $2 RETURNING id, message, link, created_at, is_read',
    [id, userId],
  );
  return read;
}

/** Marks every unread notification of a user read; answers how many there were. */
export async function markAllRead(tx: Queryable, userId: number): Promise<number> {
  const read = await tx.query(
    'UPDATE notifications SET is_read = true WHERE user_id = $1 AND NOT is_read RETURNING id',
    [userId],
  );
  return read.length;
}
