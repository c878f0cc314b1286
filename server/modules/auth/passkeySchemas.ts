/** The bodies and answers of passkeys (docs/api.md, "Passkeys"). */
import { dataAnswer, wholeObject } from '../../http/answers.ts';
import { exactObject } from '../../http/requestSchemas.ts';

const base64url = { type: 'string', minLength: 1, maxLength: 16_384, pattern: '^[A-Za-z0-9_-]*={0,2}$' } as const;
const name = { title: 'Name', type: 'string', minLength: 1, maxLength: 80, pattern: '\\S' } as const;

/**
 * What `navigator.credentials` answered, as @simplewebauthn/browser writes it. Browsers add fields of their own
 * (extension results, the public key again), so only the fields read are declared, and others pass.
 */
const credential = (response: Record<string, unknown>, required: string[]) =>
  ({
    title: 'Passkey',
    type: 'object',
    required: ['id', 'rawId', 'type', 'response'],
    properties: {
      id: base64url,
      rawId: base64url,
      type: { type: 'string', enum: ['public-key'] },
      response: { type: 'object', required, properties: response, additionalProperties: true },
    },
    additionalProperties: true,
  }) as const;

const registration = credential(
  {
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 40 } },
  },
  ['clientDataJSON', 'attestationObject'],
);
const assertion = credential(
  {
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: { type: ['string', 'null'], maxLength: 128, pattern: '^[A-Za-z0-9_-]*$' },
  },
  ['clientDataJSON', 'authenticatorData', 'signature'],
);
const mfaToken = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const registrationBody = exactObject({ name, response: registration });

export const renameBody = exactObject({ name });

export const passkeySignInBody = exactObject({ response: assertion });

export const mfaTokenBody = exactObject({ mfa_token: mfaToken });

export const passkeySecondStepBody = exactObject({ mfa_token: mfaToken, response: assertion });

/** A passkey as its owner's profile and an administrator see it. */
export const passkeySchema = wholeObject({
  id: { type: 'integer' },
  name: { type: 'string' },
  created_at: { type: 'string', format: 'date-time' },
  last_used_at: { type: ['string', 'null'], format: 'date-time' },
});

export const passkeyAnswer = dataAnswer('The passkey.', passkeySchema, { message: true });
export const passkeysAnswer = dataAnswer("The caller's passkeys, oldest first.", {
  type: 'array',
  items: passkeySchema,
});
export const optionsAnswer = dataAnswer(
  'Options for `navigator.credentials` (as @simplewebauthn/browser takes them), with a challenge usable once within 5 minutes.',
  { type: 'object', additionalProperties: true },
);
