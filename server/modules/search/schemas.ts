/** Go anywhere's search: its query and its answer. */
import { dataAnswer, wholeObject } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LENGTH, SEARCH_MAX_LIMIT, SEARCH_MIN_LENGTH } from './search.ts';

export const searchQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['q'],
  properties: {
    q: {
      type: 'string',
      minLength: SEARCH_MIN_LENGTH,
      maxLength: SEARCH_MAX_LENGTH,
      // At least three characters that are not spaces: spaces around the words are trimmed.
      pattern: '\\S.*\\S.*\\S',
      description: `What the records' search text contains, ignoring case (${SEARCH_MIN_LENGTH} characters or more).`,
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: SEARCH_MAX_LIMIT,
      default: SEARCH_DEFAULT_LIMIT,
      description: 'Records per resource, at most.',
    },
  },
} as const;

const FOUND_RESOURCE = namedSchema(
  'FoundResource',
  wholeObject({
    resource: { type: 'string', description: "The resource's module key, e.g. SUBSCRIBERS." },
    label: { type: 'string', description: "The resource's name, e.g. Subscribers." },
    records: {
      type: 'array',
      items: wholeObject({
        id: { type: 'integer' },
        label: { type: 'string' },
        details: {
          type: 'array',
          items: { type: 'string' },
          description:
            "What tells the record from others with a like label (the resource's `describe` in the manifest), e.g. its e-mail and mobile; empty when the resource names none.",
        },
      }),
    },
  }),
);

export const searchAnswer = dataAnswer(
  'The matching records, grouped by resource; resources without a match are left out.',
  { type: 'array', items: FOUND_RESOURCE },
);
