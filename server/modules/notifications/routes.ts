import type { FastifyInstance } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { actorOf, recordAudit } from '../audit/record.ts';
import { NOTIFICATIONS_MODULE } from '../../../contract/audit.ts';
import { errorAnswers } from '../../http/answers.ts';
import { notFound } from '../../http/errors.ts';
import { markAllRead, markRead, notificationPage } from './store.ts';
import {
  allReadAnswer,
  markAllReadBody,
  notificationPageAnswer,
  notificationQuery,
  notificationReadAnswer,
  notificationReadBody,
} from './schemas.ts';

const tags = ['Notifications'];

/** The header's notifications (NOTIF-05, NOTIF-08, NOTIF-09): only ever the caller's own. */
export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<{ Querystring: { is_read?: boolean; _page: number; _page_size: number } }>('/notification', {
    config: { access: 'signed-in' },
    schema: {
      tags,
      operationId: 'listNotifications',
      summary: "The caller's notifications",
      description: 'Newest first.',
      querystring: notificationQuery,
      response: { 200: notificationPageAnswer, ...errorAnswers(400, 401) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const { is_read: isRead, _page: page, _page_size: pageSize } = request.query;
      const readFilter = isRead === undefined ? null : isRead;
      const { rows, total } = await notificationPage(db, user.id, { isRead: readFilter, page, pageSize });
      return { data: rows, meta: { total, page, page_size: pageSize } };
    },
  });

  app.post<{ Body: { id: number } }>('/notification', {
    config: { access: 'signed-in', audit: { action: 'notification_read' } },
    schema: {
      tags,
      operationId: 'markNotificationRead',
      summary: 'Mark a notification read',
      body: notificationReadBody,
      response: { 200: notificationReadAnswer, ...errorAnswers(400, 401, 404) },
    },
    handler: async (request) => {
      const row = await db.transaction(async (tx) => {
        const read = await markRead(tx, currentUser(request).id, request.body.id);
        if (!read) throw notFound('Notification');
        await recordAudit(tx, actorOf(request), {
          module: NOTIFICATIONS_MODULE,
          recordId: request.body.id,
          action: 'notification_read',
        });
        return read;
      });
      return { data: row, message: 'Notification marked as read.' };
    },
  });

  app.post('/notification/mark-all-as-read', {
    config: { access: 'signed-in', audit: { action: 'notification_read' } },
    schema: {
      tags,
      operationId: 'markAllNotificationsRead',
      summary: 'Mark every notification read',
      body: markAllReadBody,
      response: { 200: allReadAnswer, ...errorAnswers(400, 401) },
    },
    handler: async (request) => {
      const updated = await db.transaction(async (tx) => {
        const count = await markAllRead(tx, currentUser(request).id);
        await recordAudit(tx, actorOf(request), {
          module: NOTIFICATIONS_MODULE,
          action: 'notification_read',
          details: { all: true, count },
        });
        return count;
      });
      return { data: { updated }, message: 'All notifications marked as read.' };
    },
  });
}
