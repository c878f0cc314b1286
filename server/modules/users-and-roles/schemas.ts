/** The caller's permissions and a role's permission set (PERM-01): their request body and answers. */
import { dataAnswer, withETag, wholeObject } from '../../http/answers.ts';
import type { JsonSchema } from '../../../contract/description.ts';
import { namedSchema } from '../../http/components.ts';
import { exactObject } from '../../http/requestSchemas.ts';
type ModuleActions = ReadonlyArray<{ key: string; actions: readonly string[] }>;

const ROUTED_ACTION = wholeObject({ is_routable: { type: 'boolean' }, route_url: { type: 'string' } });

export const permissionMapAnswer = dataAnswer('Built from the role on every call.', {
  type: 'object',
  description: 'Module → its order and the granted actions with their routes.',
  additionalProperties: wholeObject({
    order: { type: 'integer' },
    actions: { type: 'object', additionalProperties: ROUTED_ACTION },
  }),
});

/** A role's permission set: each module, with the actions it offers (an area offers `view`). */
export function permissionSetSchema(modules: ModuleActions): JsonSchema {
  return namedSchema('PermissionSet', {
    type: 'object',
    additionalProperties: false,
    description: 'Module → the actions granted.',
    properties: Object.fromEntries(
      modules.map((module) => [
        module.key,
        { type: 'array', uniqueItems: true, items: { type: 'string', enum: [...module.actions] } },
      ]),
    ),
  });
}

export function rolePermissionsBody(permissionSet: JsonSchema): JsonSchema {
  return exactObject({ permissions: permissionSet });
}

export function permissionSetAnswers(permissionSet: JsonSchema) {
  return {
    read: withETag(
      dataAnswer("The granted actions by module; `ETag` is the role's version, which the set shares.", permissionSet),
    ),
    saved: withETag(dataAnswer("Saved; `ETag` is the role's new version.", permissionSet, { message: true })),
  };
}

const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };

/** Whether a user has verified their address, and the last verification link sent to it. */
const EMAIL_VERIFICATION = namedSchema(
  'EmailVerification',
  wholeObject({
    email: { type: 'string' },
    verified_at: nullableDateTime,
    last_link_sent_at: nullableDateTime,
    last_link_expires_at: nullableDateTime,
  }),
);

/** An administrator's "send the verification link again": nothing to say beyond the user in the path. */
export const verificationLinkBody = { type: 'object', additionalProperties: false, properties: {} } as const;

export const emailVerificationAnswers = {
  read: dataAnswer('The address, when it was verified, and the last link sent.', EMAIL_VERIFICATION),
  sent: dataAnswer('Sent; the new state.', EMAIL_VERIFICATION, { message: true }),
};
