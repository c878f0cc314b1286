import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { actorOf, fieldChanges, recordAudit } from '../audit/record.ts';
import { sendRecord, type ResourceEndpoint } from './endpoint.ts';

type Verification = { verified_by: number | null; verified_at: string | null };

/** POST /<resource>/:id/verify: records who verified the record, and when, with its entry. */
export function verifyRecord(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Params: { id: number } }>, reply: FastifyReply) => {
    const user = currentUser(request);
    const { id } = request.params;
    await endpoint.load(id, user);
    await endpoint.db.transaction(async (tx) => {
      const key = [endpoint.resource.key, id];
      const [before] = await tx.query<Verification>(
        'SELECT verified_by, verified_at FROM verifications WHERE module = $1 AND record_id = $2 FOR UPDATE',
        key,
      );
      const [after] = await tx.query<Verification>(
        `INSERT INTO verifications (module, record_id, verified_by) VALUES ($1, $2, $3)
         ON CONFLICT (module, record_id) DO UPDATE SET verified_by = excluded.verified_by, verified_at = now()
         RETURNING verified_by, verified_at`,
        [...key, user.id],
      );
      await recordAudit(tx, actorOf(request), {
        module: endpoint.resource.key,
        recordId: id,
        action: 'verify',
        changes: fieldChanges(before ?? null, after ?? null),
      });
    });
    return sendRecord(reply, await endpoint.load(id, user), `${endpoint.singular} verified.`);
  };
}
