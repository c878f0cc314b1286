import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { sendRecord, type ResourceEndpoint } from './endpoint.ts';

/** POST /<resource>/:id/verify: records who verified the record, and when. */
export function verifyRecord(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Params: { id: number } }>, reply: FastifyReply) => {
    const user = currentUser(request);
    await endpoint.load(request.params.id, user);
    await endpoint.db.query(
      `INSERT INTO verifications (module, record_id, verified_by) VALUES ($1, $2, $3)
       ON CONFLICT (module, record_id) DO UPDATE SET verified_by = excluded.verified_by, verified_at = now()`,
      [endpoint.resource.key, request.params.id, user.id],
    );
    return sendRecord(reply, await endpoint.load(request.params.id, user), `${endpoint.singular} verified.`);
  };
}
