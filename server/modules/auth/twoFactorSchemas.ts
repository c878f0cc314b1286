/** The bodies and answers of two-factor sign-in (docs/api.md, "Two-factor sign-in"). */
import { dataAnswer, wholeObject } from '../../http/answers.ts';
import { passkeySchema } from './passkeySchemas.ts';
import { exactObject } from '../../http/requestSchemas.ts';

const code = { title: 'Code', type: 'string', minLength: 1, maxLength: 40 } as const;

export const codeBody = exactObject({ code });

export const secondStepBody = exactObject({ mfa_token: { type: 'string', minLength: 1, maxLength: 200 }, code });

const methods = { type: 'array', items: { type: 'string', enum: ['totp', 'recovery_code', 'passkey'] } } as const;

/** What `POST login` answers instead of tokens when the account has a second factor. */
export const MFA_REQUIRED = wholeObject({
  mfa_required: { type: 'boolean', enum: [true] },
  mfa_token: { type: 'string', description: 'Single use, for `POST login/two-factor` within 5 minutes.' },
  methods,
});

/** The second factors a user whose role requires one may enrol right after the password. */
export const ENROL_METHODS = ['totp', 'passkey'] as const;

/**
 * What `POST login` answers a user whose role requires a second factor they have not enrolled: tokens of a session
 * that only the enrolment routes (access `enrolling`) accept until a factor is enrolled.
 */
export const ENROL_REQUIRED = wholeObject({
  access: { type: 'string', description: 'Accepted only by the enrolment routes until a second factor is enrolled.' },
  refresh: { type: 'string' },
  enrol_required: { type: 'boolean', enum: [true] },
  methods: { type: 'array', items: { type: 'string', enum: ENROL_METHODS } },
});

const status = wholeObject({
  enabled: { type: 'boolean', description: 'The authenticator app is on.' },
  methods,
  recovery_codes_left: { type: 'integer' },
  enabled_at: { type: ['string', 'null'], format: 'date-time' },
  required: { type: 'boolean', description: "The user's role requires a second factor." },
});

export const statusAnswer = dataAnswer('Whether two-factor sign-in is on.', status);

/** What an administrator sees of a user's second factors: the authenticator app, and every passkey. */
export const userStatusAnswer = dataAnswer(
  "The user's authenticator app and passkeys.",
  wholeObject({
    ...status.properties,
    passkeys: { type: 'array', items: passkeySchema, description: 'Oldest first.' },
  }),
);

export const enrolmentAnswer = dataAnswer(
  'A new secret, to be confirmed with a first code.',
  wholeObject({
    secret: { type: 'string', description: 'Base32, for typing into an authenticator app.' },
    otpauth_uri: { type: 'string' },
    qr_code: { type: 'string', description: 'The URI as a QR code: a PNG `data:` URL.' },
  }),
);

export const recoveryCodesAnswer = dataAnswer(
  'Ten single-use recovery codes, shown this once.',
  wholeObject({ recovery_codes: { type: 'array', items: { type: 'string' } } }),
  { message: true },
);
