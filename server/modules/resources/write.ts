import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { expectedVersion, staleRecord, type ExpectedVersion } from '../../http/recordVersion.ts';
import { updateBodySchema } from '../../http/requestSchemas.ts';
import { RequestValidationError, validateBody } from '../../http/validation.ts';
import { validationError } from '../../http/errors.ts';
import { sendRecord, type Body, type ResourceContext } from './resourceContext.ts';
import { refusedValue } from './refusedValue.ts';
import { mergePatch, updateBodyFromAnswer, writableFields } from './roundTrip.ts';

/** POST /<resource>: a new record, through the record operations. */
export function createRecord(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Body: Body }>, reply: FastifyReply) => {
    const id = await resourceContext
      .write(request, (context) => resourceContext.records.create(context, request.body))
      .catch((error: unknown) =>
        refusedValue(resourceContext.db, request, resourceContext.resource.entity.table, request.body, error),
      );
    reply.code(201);
    return sendRecord(
      reply,
      await resourceContext.load(id, currentUser(request)),
      `${resourceContext.singular} created.`,
    );
  };
}

/**
 * PUT's preValidation: a body may be the record as GET answered it (docs/api.md, "Round trips and partial updates"),
 * so what the update cannot change is dropped when unchanged and refused by name when changed.
 */
export function acceptAnsweredRecord(resourceContext: ResourceContext) {
  const writable = resourceContext.resource.entity.updateSchema.properties ?? {};
  return async (request: FastifyRequest<{ Params: { id: number } }>) => {
    const body = request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
    // A body of writable fields only is judged as it is; the record is read only to judge the others.
    const id = Number(request.params.id);
    if (Object.keys(body).every((name) => Object.hasOwn(writable, name)) || !Number.isSafeInteger(id) || id < 1) return;
    const user = currentUser(request);
    const current = await resourceContext.table.get(resourceContext.db, id, resourceContext.scopeOf(user));
    // No such record (or none the caller may see): the body is judged as sent, then the handler answers 404.
    if (current) request.body = updateBodyFromAnswer(resourceContext.resource, current, body as Body);
  };
}

/** PUT /<resource>/:id: changes the record at the version the caller read (If-Match). */
export function updateRecord(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Params: { id: number }; Body: Body }>, reply: FastifyReply) =>
    applyUpdate(resourceContext, request, reply, request.body);
}

/**
 * PATCH /<resource>/:id: a JSON Merge Patch (RFC 7396) of the record at the version the caller read (If-Match),
 * judged as the record it makes by the update schema, then written as a PUT of that record would be.
 */
export function patchRecord(resourceContext: ResourceContext) {
  const updateSchema = updateBodySchema(resourceContext.resource.entity.updateSchema);
  return async (request: FastifyRequest<{ Params: { id: number }; Body: unknown }>, reply: FastifyReply) => {
    const patch = request.body;
    if (patch === null || typeof patch !== 'object' || Array.isArray(patch))
      throw validationError({ _: 'A merge patch is a JSON object of the fields to change.' });
    const { resource } = resourceContext;
    const expected = expectedVersion(request);
    const current = await resourceContext.load(request.params.id, currentUser(request));
    const version = Number(current.version);
    if (expected !== 'any' && !expected.versions.includes(version)) throw staleRecord(resourceContext.singular);
    const accepted = updateBodyFromAnswer(resource, current, patch as Body);
    const patched = mergePatch(writableFields(resource, current), accepted) as Body;
    // A member set to null empties its field: the update is told so by a null, which the schema takes when optional.
    for (const [name, value] of Object.entries(accepted)) if (value === null) patched[name] = null;
    const errors = validateBody(updateSchema, patched);
    if (errors) throw new RequestValidationError(errors);
    // Written at the version the patch was applied to: a change since then is a 412, not overwritten by its fields.
    return applyUpdate(resourceContext, request, reply, patched, { versions: [version] });
  };
}

async function applyUpdate(
  resourceContext: ResourceContext,
  request: FastifyRequest<{ Params: { id: number } }>,
  reply: FastifyReply,
  body: Body,
  expected: ExpectedVersion = expectedVersion(request),
) {
  const { id } = request.params;
  await resourceContext
    .write(request, (context) => resourceContext.records.update(context, id, body, expected))
    .catch((error: unknown) =>
      refusedValue(resourceContext.db, request, resourceContext.resource.entity.table, body, error),
    );
  return sendRecord(
    reply,
    await resourceContext.load(id, currentUser(request)),
    `${resourceContext.singular} updated.`,
  );
}
