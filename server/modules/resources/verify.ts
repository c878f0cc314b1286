import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { actorOf, fieldChanges, recordAudit } from '../audit/record.ts';
import { sendRecord, type ResourceContext } from './resourceContext.ts';

type Verification = { verified_by: number | null; verified_at: string | null };

/** POST /<resource>/:id/verify: records who verified the record, and when, with its entry. */
export function verifyRecord(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Params: { id: number } }>, reply: FastifyReply) => {
    const user = currentUser(request);
    const { id } = request.params;
    await resourceContext.load(id, user);
    await resourceContext.db.transaction(async (tx) => {
      const key = [resourceContext.resource.key, id];
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
        module: resourceContext.resource.key,
        recordId: id,
        action: 'verify',
        changes: fieldChanges(before ?? null, after ?? null),
      });
    });
    return sendRecord(reply, await resourceContext.load(id, user), `${resourceContext.singular} verified.`);
  };
}
