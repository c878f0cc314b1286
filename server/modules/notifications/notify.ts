import type { Queryable } from '../../db/database.ts';

/** Adds a notification for a user; the message is HTML the console sanitises before showing (NOTIF-10). */
export async function notify(db: Queryable, userId: number, message: string): Promise<void> {
  await db.query('INSERT INTO notifications (user_id, message) VALUES ($1, $2)', [userId, message]);
}
