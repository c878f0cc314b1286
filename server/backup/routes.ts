import type { FastifyInstance } from 'fastify';
import { dumpDatabase } from './backup.ts';

export const BACKUP_PATH = '/backup';

/**
 * `POST /backup`: the embedded database as a gzip'd tar, for `npm run backup` while this server holds the data folder.
 * At the root beside the probes; the `operator` access rule decides who may ask. PostgreSQL: 404 (its own tools back
 * it up).
 */
export async function backupRoutes(app: FastifyInstance): Promise<void> {
  app.post(BACKUP_PATH, {
    config: { access: 'operator' },
    schema: {
      operationId: 'backup',
      summary: 'A consistent backup of the embedded database',
      response: {
        200: {
          description: 'The PGlite data directory, a gzip-compressed tar.',
          content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
        },
      },
    },
    handler: async (_request, reply) => {
      const bytes = await dumpDatabase(app.db);
      if (!bytes) return reply.callNotFound();
      return reply
        .header('cache-control', 'no-store')
        .type('application/gzip')
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  });
}
