import type { FastifyInstance } from 'fastify';
import { errorAnswers } from '../../http/answers.ts';
import { recentMail } from './outbox.ts';
import { mailboxAnswer } from './schemas.ts';

/** How many messages the development mailbox lists, newest first. */
const MAILBOX_SIZE = 50;

/**
 * The development mailbox (`GET dev/mailbox`): the outbox's newest messages, for a developer to open a reset or verify
 * link without a mail server. Its access rule makes it answer only on a server not in production (docs/api.md, "E-mail").
 */
export async function devMailboxRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dev/mailbox', {
    config: { access: 'development' },
    schema: {
      tags: ['Development'],
      operationId: 'getDevMailbox',
      summary: 'The development mailbox',
      description: `The newest ${MAILBOX_SIZE} messages of the outbox, with the links in each.`,
      response: { 200: mailboxAnswer, ...errorAnswers(404) },
    },
    handler: async () => ({
      data: await recentMail(app.db, MAILBOX_SIZE),
      meta: { delivery: app.mail?.transportKind ?? 'none' },
    }),
  });
}
