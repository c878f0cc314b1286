/** The requests and answers of sessions and sign-in history (docs/api.md, "Sessions and sign-in history"). */
import { SIGN_IN_OUTCOMES } from '../../../contract/signIns.ts';
import { listAnswer, wholeObject } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';
import { exactObject, recordId } from '../../http/requestSchemas.ts';

const sessionId = {
  type: 'string',
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
} as const;
const nullableString = { type: ['string', 'null'] } as const;

export const pageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    _page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
    _page_size: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
} as const;

export const ownSessionParams = exactObject({ sessionId });

export const userSessionParams = exactObject({ id: recordId, sessionId });

const SESSION = namedSchema(
  'Session',
  wholeObject({
    id: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    last_used_at: { type: 'string', format: 'date-time', description: 'When its refresh token was last used.' },
    client_address: nullableString,
    browser: { type: 'string', description: 'Read from the User-Agent: "Chrome 126 on Windows".' },
    user_agent: nullableString,
    current: { type: 'boolean', description: 'The session of the request that asked.' },
  }),
);

const SIGN_IN = namedSchema(
  'SignIn',
  wholeObject({
    id: { type: 'integer' },
    at: { type: 'string', format: 'date-time' },
    outcome: { type: 'string', enum: Object.keys(SIGN_IN_OUTCOMES) },
    client_address: nullableString,
    browser: { type: 'string' },
    user_agent: nullableString,
  }),
);

export const sessionListAnswer = listAnswer('Live sessions, the current one first, then newest first.', SESSION);
export const signInListAnswer = listAnswer('Sign-in attempts, newest first.', SIGN_IN);
