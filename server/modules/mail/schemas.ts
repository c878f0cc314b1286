/** The development mailbox's answer. */
import { json, type Answer, wholeObject } from '../../http/answers.ts';

const nullableString = { type: ['string', 'null'] };

const MAILBOX_MESSAGE = wholeObject({
  id: { type: 'integer' },
  recipient: { type: 'string' },
  subject: { type: 'string' },
  text: { type: 'string' },
  links: { type: 'array', items: { type: 'string' } },
  state: { type: 'string', enum: ['pending', 'sending', 'sent', 'failed'] },
  attempts: { type: 'integer' },
  created_at: { type: 'string', format: 'date-time' },
  sent_at: { type: ['string', 'null'], format: 'date-time' },
  sent_via: { type: ['string', 'null'], enum: ['smtp', 'console', null] },
  last_error: nullableString,
});

export const mailboxAnswer: Answer = {
  description: 'The newest messages of the outbox, newest first, and how this server delivers them.',
  content: json(
    wholeObject({
      data: { type: 'array', items: MAILBOX_MESSAGE },
      meta: wholeObject({ delivery: { type: 'string', enum: ['smtp', 'console', 'none'] } }),
    }),
  ),
};
