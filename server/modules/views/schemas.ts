/** The request and answer schemas of a list's saved views and settings (docs/api.md, "Saved views and list settings"). */
import { SAVED_VIEW_LIMITS } from '../../../contract/savedViews.ts';
import { dataAnswer, json, LIST_META, type Answer, withETag, wholeObject } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';
import { MAX_INTEGER, pageQuery, recordId } from '../../http/requestSchemas.ts';
import type { EntityResource } from '../../registry.ts';
import { listableFields } from '../resources/schemas.ts';

const QUERY = namedSchema('ViewQuery', {
  type: 'object',
  maxProperties: 60,
  additionalProperties: { type: 'string', maxLength: 2000 },
  description: `The list's query as the console's address holds it: \`q\`, \`sort\` (a field, \`-\` first when descending), \`size\`, \`columns\` (field names, comma-separated) and the filters (docs/api.md, "Lists"), with \`<field>_range\` for a date preset (\`today\`, \`last_7_days\`, \`this_month\`, \`last_month\`). Written, at most ${SAVED_VIEW_LIMITS.definitionBytes.toLocaleString('en')} bytes as compact JSON (400 on \`query\` beyond).`,
});

export const VIEW_BODY = namedSchema('ViewWrite', {
  type: 'object',
  description: `A user keeps at most ${SAVED_VIEW_LIMITS.privatePerUser} private views of a list, and a role has at most ${SAVED_VIEW_LIMITS.sharedPerRole} views of a list shared with it, whoever shared them: a view beyond either is a 400 on \`shared_role_id\`.`,
  additionalProperties: false,
  required: ['name', 'query'],
  properties: {
    name: { title: 'Name', type: 'string', minLength: 1, maxLength: SAVED_VIEW_LIMITS.nameLength, pattern: '\\S' },
    query: { title: 'Search and filters', ...QUERY },
    shared_role_id: {
      title: 'Share with',
      type: ['integer', 'null'],
      minimum: 1,
      maximum: MAX_INTEGER,
      description: 'Shared with every user of this role; null or left out: private.',
    },
  },
});

const DROPPED = {
  type: 'array',
  items: { type: 'string' },
  description:
    'What the manifest no longer has and the answer leaves out: a filter key, a column, a sort field, or `<key>: <value>` for an enum value.',
};

export const VIEW = namedSchema(
  'SavedView',
  wholeObject({
    id: { type: 'integer' },
    name: { type: 'string' },
    owner_id: { type: 'integer' },
    owner_name: { type: 'string' },
    mine: { type: 'boolean', description: 'The caller owns it, so may rename, share or delete it.' },
    shared_role_id: { type: ['integer', 'null'] },
    shared_role_name: { type: ['string', 'null'] },
    query: QUERY,
    dropped: DROPPED,
    version: { type: 'integer' },
    updated_at: { type: 'string', format: 'date-time' },
  }),
);

export const PREFERENCES = namedSchema(
  'ListPreferences',
  wholeObject({
    columns: {
      type: ['array', 'null'],
      items: { type: 'string' },
      description: "The columns shown, in order; null: the manifest's.",
    },
    default_view_id: {
      type: ['integer', 'null'],
      description: 'The view the list opens with when its address names no query.',
    },
    dropped: DROPPED,
  }),
);

/** The body of `PUT <list>/list-preferences`: what it names changes, the rest stays. */
export function preferencesBody(resource: EntityResource) {
  return {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      columns: {
        type: ['array', 'null'],
        minItems: 1,
        maxItems: 200,
        uniqueItems: true,
        items: { type: 'string', enum: listableFields(resource).map((field) => field.name) },
      },
      default_view_id: { ...recordId, type: ['integer', 'null'] },
    },
  };
}

export const viewsQuery = pageQuery({
  default: SAVED_VIEW_LIMITS.pageSize,
  maximum: SAVED_VIEW_LIMITS.pageSize,
});

const VIEWS_PAGE = wholeObject({
  views: { type: 'array', items: VIEW, description: 'A page of them, by name.' },
  preferences: PREFERENCES,
  share_roles: {
    type: 'array',
    description:
      'The roles the caller may share a view with: their own; every active role for a user with full access.',
    items: wholeObject({ id: { type: 'integer' }, name: { type: 'string' } }),
  },
});

export const VIEWS_ANSWER: Answer = {
  description:
    'A page of the views the caller may open (their own and those shared with their role), and their settings of the list; `meta.total` counts every view they may open.',
  content: json(wholeObject({ data: VIEWS_PAGE, meta: LIST_META })),
};
export const VIEW_ANSWER = withETag(dataAnswer('The view.', VIEW));
export const VIEW_SAVED = withETag(dataAnswer('Saved.', VIEW, { message: true }));
export const PREFERENCES_SAVED = dataAnswer('Saved.', PREFERENCES);
