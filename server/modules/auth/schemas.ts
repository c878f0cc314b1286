/** The request bodies and answers of sign-in, tokens and the e-mail link flows (docs/spec/seed-spec.md section 7). */
import { dataAnswer, ERROR_BODY, json, messageAnswer, wholeObject } from '../../http/answers.ts';
import type { JsonSchema } from '../../../contract/description.ts';
import { namedSchema } from '../../http/components.ts';

function body(properties: Record<string, JsonSchema>, required: string[]) {
  return { type: 'object', additionalProperties: false, required, properties } as const;
}

/** The OpenAPI tag of the sign-in, token and e-mail link routes. */
export const sessionTags = ['Session'];

const linkToken = { type: 'string', minLength: 16, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' } as const;
const refreshToken = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const loginBody = body(
  {
    email: { title: 'Email', type: 'string', minLength: 1, maxLength: 254 },
    password: { title: 'Password', type: 'string', minLength: 1, maxLength: 128 },
  },
  ['email', 'password'],
);
export const refreshBody = body({ refresh: refreshToken }, ['refresh']);
export const logoutBody = body({ refresh: refreshToken }, []);
export const forgetPasswordBody = body({ email: { title: 'Email', type: 'string', format: 'email', maxLength: 254 } }, [
  'email',
]);
export const checkLinkBody = body({ token: linkToken }, ['token']);
const newPassword = {
  password: { title: 'Password', type: 'string', format: 'password', maxLength: 128 },
  confirm_password: { title: 'Confirm password', type: 'string', maxLength: 128, compareTo: 'password' },
} as const;
export const resetPasswordBody = body({ token: linkToken, ...newPassword }, ['token', 'password', 'confirm_password']);
/** The password is for an account created without one (an invitation): its owner chooses it as they verify. */
export const emailVerifyBody = {
  ...body({ token: linkToken, ...newPassword }, ['token']),
  dependentRequired: { password: ['confirm_password'] },
} as const;
/** "Send the link again" on the sign-in screen: the credentials just refused for an unverified address. @alias */
export const resendVerificationBody = loginBody;

export const TOKEN_PAIR = namedSchema(
  'TokenPair',
  wholeObject({
    access: {
      type: 'string',
      description: 'JWT (HS256) with sub, role, exp, iat, first_name, last_name, default_url.',
    },
    refresh: { type: 'string' },
  }),
);

export const tokensAnswer = dataAnswer('A new access and refresh token.', TOKEN_PAIR);
export const validLinkAnswer = dataAnswer(
  'The link is valid.',
  wholeObject({ valid: { type: 'boolean', enum: [true] }, email: { type: 'string' } }),
);
export const verifyLinkAnswer = dataAnswer(
  'The verification link is valid; an account without a password chooses one with it.',
  wholeObject({
    valid: { type: 'boolean', enum: [true] },
    email: { type: 'string' },
    password_set: { type: 'boolean' },
  }),
);
export const loggedOutAnswer = messageAnswer('Logged out.');
export const linkSentAnswer = messageAnswer('A link was sent if the account exists.');
export const passwordChangedAnswer = messageAnswer('Password changed.');
export const emailVerifiedAnswer = messageAnswer('Address verified.');
export const verificationResentAnswer = messageAnswer('Sent, or the address is already verified.');
export const emailNotVerifiedAnswer = {
  description:
    'The password is right but the e-mail address is not verified yet: open the e-mailed link, or `POST email-verify/resend`.',
  content: json(ERROR_BODY),
};
