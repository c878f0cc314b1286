import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { actorOf, fieldChanges, recordAudit } from '../audit/record.ts';
import { sendRecord, type ResourceContext } from './resourceContext.ts';
import { markVerified } from './verifications.ts';

/** POST /<resource>/:id/verify: records who verified the record, and when, with its entry. */
export function verifyRecord(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Params: { id: number } }>, reply: FastifyReply) => {
    const user = currentUser(request);
    const { id } = request.params;
    await resourceContext.load(id, user);
    await resourceContext.db.transaction(async (tx) => {
      const { before, after } = await markVerified(tx, resourceContext.resource.key, id, user.id);
      await recordAudit(tx, actorOf(request), {
        module: resourceContext.resource.key,
        recordId: id,
        action: 'verify',
        changes: fieldChanges(before, after),
      });
    });
    return sendRecord(reply, await resourceContext.load(id, user), `${resourceContext.singular} verified.`);
  };
}
