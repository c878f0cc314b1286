/** The header's notifications (NOTIF-05, NOTIF-08, NOTIF-09): their query, bodies and answers. */
import { dataAnswer, listAnswer } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';
import { MAX_INTEGER } from '../../http/requestSchemas.ts';

export const notificationQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    is_read: { type: 'boolean' },
    _page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
    _page_size: { type: 'integer', minimum: 1, maximum: 100, default: 8 },
  },
} as const;
export const notificationReadBody = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: MAX_INTEGER } },
} as const;
export const markAllReadBody = { type: 'object', additionalProperties: false, required: [], properties: {} } as const;

const NOTIFICATION = namedSchema('Notification', {
  type: 'object',
  required: ['id', 'message', 'link', 'created_at', 'is_read'],
  properties: {
    id: { type: 'integer' },
    message: { type: 'string', description: 'HTML; the console sanitises it.' },
    link: {
      type: ['string', 'null'],
      description: 'The console path of the record it is about; null: about no one record.',
    },
    created_at: { type: 'string', format: 'date-time' },
    is_read: { type: 'boolean' },
  },
});

export const notificationPageAnswer = listAnswer('A page of notifications.', NOTIFICATION);
export const notificationReadAnswer = dataAnswer('Marked read.', NOTIFICATION, { message: true });
export const allReadAnswer = dataAnswer(
  'Marked read.',
  { type: 'object', required: ['updated'], properties: { updated: { type: 'integer' } } },
  { message: true },
);
