import type { Queryable } from '../../db/database.ts';
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
