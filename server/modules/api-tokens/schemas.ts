/** The request and answer schemas of API tokens (docs/api.md, "API tokens"). */
import { API_TOKEN_LIMITS, API_TOKEN_PREFIX } from '../../../contract/apiTokens.ts';
import { dataAnswer, listAnswer, wholeObject } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';
import { pageQuery, exactObject } from '../../http/requestSchemas.ts';

const PERMISSIONS = {
  type: 'object',
  minProperties: 1,
  maxProperties: 200,
  propertyNames: { pattern: '^[A-Z][A-Z0-9_]*$', maxLength: 100 },
  additionalProperties: {
    type: 'array',
    minItems: 1,
    maxItems: 50,
    uniqueItems: true,
    items: { type: 'string', minLength: 1, maxLength: 100 },
  },
  description:
    'Module key → the actions of it the token may use, e.g. `{ "SUBSCRIBERS": ["view", "edit"] }`: only actions the creator\'s role has, of any module but API tokens. A token of an executive (SUBSCRIBERS `executive_access`) sees only what they see, whether it names that action or not.',
} as const;

export const TOKEN_BODY = namedSchema(
  'ApiTokenWrite',
  exactObject({
    name: { title: 'Name', type: 'string', minLength: 1, maxLength: API_TOKEN_LIMITS.nameLength, pattern: '\\S' },
    permissions: { title: 'Permissions', ...PERMISSIONS },
    expires_at: {
      title: 'Expires',
      type: 'string',
      format: 'date-time',
      description: `When the token stops working: in the future, at most ${API_TOKEN_LIMITS.maxDays} days from now.`,
    },
  }),
);

const TOKEN = namedSchema(
  'ApiToken',
  wholeObject({
    id: { type: 'integer' },
    name: { type: 'string' },
    prefix: { type: 'string', description: `The secret's first characters (\`${API_TOKEN_PREFIX}\` and four more).` },
    permissions: PERMISSIONS,
    created_by: { type: 'integer' },
    created_by_email: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    expires_at: { type: 'string', format: 'date-time' },
    last_used_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'Its last request, to the minute; null: never used.',
    },
    revoked_at: { type: ['string', 'null'], format: 'date-time' },
    status: { type: 'string', enum: ['active', 'expired', 'revoked'] },
  }),
);

export const TOKEN_CREATED = dataAnswer(
  'The token made, with its secret in `token`: shown this once, never again (only its hash is kept).',
  wholeObject({
    ...TOKEN.properties,
    token: {
      type: 'string',
      description: `The secret, \`${API_TOKEN_PREFIX}…\`: send it as \`Authorization: Bearer <token>\`.`,
    },
  }),
  { message: true },
);

export const TOKEN_REVOKED = dataAnswer('The token, revoked: its next request is refused.', TOKEN, { message: true });

export const TOKENS_ANSWER = listAnswer('A page of the tokens, live ones first, newest first.', TOKEN);

export const tokensQuery = pageQuery({ default: 50, maximum: 200 });
