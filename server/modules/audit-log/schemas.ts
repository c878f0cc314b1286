/** The audit log's query and answers (docs/api.md, "Audit log"). */
import { AUDIT_ACTIONS } from '../../../contract/audit.ts';
import { dataAnswer, json, type Answer, wholeObject } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';
import { AUDIT_ENTRY_PROPERTIES } from '../audit/answers.ts';
import { pageQuery, recordId } from '../../http/requestSchemas.ts';

/** The audit screen's largest page. */
export const AUDIT_MAX_PAGE_SIZE = 100;

const dateOrDateTime = (description: string) => ({
  type: 'string',
  anyOf: [{ format: 'date' }, { format: 'date-time' }],
  description,
});

const filterProperties = {
  user_id: { ...recordId, description: "Entries of this user's actions." },
  module: {
    type: 'string',
    minLength: 1,
    maxLength: 100,
    description: 'A module key (`SUBSCRIBERS`, `USERS`, `NOTIFICATIONS`, ...).',
  },
  action: { type: 'string', enum: Object.keys(AUDIT_ACTIONS) },
  record_id: { ...recordId, description: 'With `module`: the entries of one record.' },
  from: dateOrDateTime('From this date (its first moment) or date-time.'),
  to: dateOrDateTime('To this date (its last moment, inclusive) or date-time.'),
} as const;

export const auditExportQuery = { type: 'object', additionalProperties: false, properties: filterProperties } as const;

export const auditPageQuery = pageQuery(
  { default: 25, maximum: AUDIT_MAX_PAGE_SIZE },
  { lastPage: 100_000, filters: filterProperties, formerNames: true },
);

const AUDIT_ENTRY = namedSchema('AuditEntry', wholeObject(AUDIT_ENTRY_PROPERTIES, { additionalProperties: false }));

const ESTIMATE = 'Past 10,000 matching entries the total is an estimate.';

/** A page's meta as every list answers it, whether its total is an estimate, and the former names (deprecated). */
const AUDIT_META = namedSchema('AuditPageMeta', {
  type: 'object',
  required: ['total', 'page', 'page_size', 'pageSize'],
  properties: {
    total: { type: 'integer' },
    page: { type: 'integer' },
    page_size: { type: 'integer' },
    total_is_estimate: { type: 'boolean', description: ESTIMATE },
    pageSize: { type: 'integer', deprecated: true, description: 'The former name of `page_size`.' },
    totalIsEstimate: { type: 'boolean', deprecated: true, description: 'The former name of `total_is_estimate`.' },
  },
});

export const auditPageAnswer: Answer = {
  description: 'A page of entries, newest first.',
  content: json(wholeObject({ data: { type: 'array', items: AUDIT_ENTRY }, meta: AUDIT_META })),
};

const choice = (key: { type: string }) => wholeObject({ key, label: { type: 'string' } });

export const auditFiltersAnswer = dataAnswer(
  'What the filters offer.',
  wholeObject({
    users: { type: 'array', items: choice({ type: 'integer' }) },
    modules: { type: 'array', items: choice({ type: 'string' }) },
    actions: { type: 'array', items: choice({ type: 'string' }) },
  }),
);
