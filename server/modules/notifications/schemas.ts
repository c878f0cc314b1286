/** The header's notifications (NOTIF-05, NOTIF-08, NOTIF-09): their query, bodies and answers. */
import { dataAnswer, listAnswer, wholeObject } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';
import { idParams, pageQuery } from '../../http/requestSchemas.ts';

export const notificationQuery = pageQuery(
  { default: 8, maximum: 100 },
  { lastPage: 100_000, filters: { is_read: { type: 'boolean' } } },
);
/** The notification's id, shaped as a path's record id. */
export const notificationReadBody = idParams;
export const markAllReadBody = { type: 'object', additionalProperties: false, required: [], properties: {} } as const;

const NOTIFICATION = namedSchema(
  'Notification',
  wholeObject({
    id: { type: 'integer' },
    message: { type: 'string', description: 'HTML; the console sanitises it.' },
    link: {
      type: ['string', 'null'],
      description: 'The console path of the record it is about; null: about no one record.',
    },
    created_at: { type: 'string', format: 'date-time' },
    is_read: { type: 'boolean' },
  }),
);

export const notificationPageAnswer = listAnswer('A page of notifications.', NOTIFICATION);
export const notificationReadAnswer = dataAnswer('Marked read.', NOTIFICATION, { message: true });
export const allReadAnswer = dataAnswer('Marked read.', wholeObject({ updated: { type: 'integer' } }), {
  message: true,
});
