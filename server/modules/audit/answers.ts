/**
 * The answers of a record's history and a resource's trash (contract/audit.ts), as the routes declare them, named
 * once for the OpenAPI document. An entry's changed values are whatever the fields hold, so they are left untyped.
 */
import type { JsonSchema } from '../../../contract/description.ts';
import { dataAnswer, listAnswer, wholeObject } from '../../http/answers.ts';
import { namedAnswer, namedSchema } from '../../http/components.ts';
import { pageQuery, type PageQuery } from '../../http/requestSchemas.ts';

const nullable = (type: string, extra: JsonSchema = {}): JsonSchema => ({ type: [type, 'null'], ...extra });

const FIELD_CHANGE = namedSchema('FieldChange', {
  type: 'object',
  description: 'The value before and after the change; a secret only as `{ "changed": true }`.',
  properties: { before: {}, after: {}, changed: { type: 'boolean' } },
});

/** An entry as `GET <resource>/:id/history` and the audit log answer it (`AuditEntryAnswer`). */
export const AUDIT_ENTRY_PROPERTIES: Record<string, JsonSchema> = {
  id: { type: 'integer' },
  at: { type: 'string', format: 'date-time' },
  user_id: nullable('integer'),
  user_email: nullable('string'),
  api_token: nullable('string', { description: 'The API token the change was made with, by name; null: none.' }),
  client_address: nullable('string'),
  request_id: nullable('string'),
  module: { type: 'string' },
  record_id: nullable('integer'),
  action: { type: 'string', description: 'What was done (contract/audit.ts, `AUDIT_ACTIONS`).' },
  changes: { type: 'object', description: 'The changed fields, by name.', additionalProperties: FIELD_CHANGE },
  details: {
    type: 'object',
    description: "What else the action records: a bulk request's `ids` and `count`, the version an entry restored.",
    additionalProperties: true,
  },
};

const HISTORY_ENTRY = namedSchema(
  'HistoryEntry',
  wholeObject({
    ...AUDIT_ENTRY_PROPERTIES,
    restorable: {
      type: 'boolean',
      description:
        "The entry holds a version of the record other than its current state, which the caller's role may restore.",
    },
    labels: {
      type: 'object',
      description:
        'For the relation fields among `changes`: the labels of the related records named before and after, as they read now.',
      additionalProperties: wholeObject({ before: nullable('string'), after: nullable('string') }),
    },
  }),
);

const TRASH_ENTRY = namedSchema(
  'TrashEntry',
  wholeObject({
    id: { type: 'integer', description: "The record's id, which a restore gives it back." },
    label: nullable('string'),
    deleted_at: { type: 'string', format: 'date-time' },
    deleted_by: nullable('integer'),
    deleted_by_email: nullable('string'),
    record: {
      type: 'object',
      description: "The record's stored fields, secrets left out.",
      additionalProperties: true,
    },
  }),
);

/** A page's meta as every list answers it, with `pageSize`, the name these lists answered before (deprecated). */
export const ENTRIES_PAGE_META = namedSchema(
  'EntriesPageMeta',
  wholeObject({
    total: { type: 'integer' },
    page: { type: 'integer' },
    page_size: { type: 'integer' },
    pageSize: { type: 'integer', deprecated: true, description: 'The former name of `page_size`.' },
  }),
);

/** `?_page=&_page_size=` of a paged answer of entries (`page` and `pageSize` still accepted). */
export const ENTRIES_PAGE_QUERY = pageQuery({ default: 20, maximum: 100 }, { formerNames: true });

/** The meta of a page of entries: `ENTRIES_PAGE_META`. */
export function entriesPageMeta({ _page: page, _page_size: size }: PageQuery, total: number) {
  return { total, page, page_size: size, pageSize: size };
}

export const HISTORY_ANSWERS = {
  history: namedAnswer(
    'HistoryPage',
    listAnswer("The record's entries, newest first.", HISTORY_ENTRY, ENTRIES_PAGE_META),
  ),
  trash: namedAnswer('TrashPage', listAnswer('Deleted records, newest first.', TRASH_ENTRY, ENTRIES_PAGE_META)),
  purged: namedAnswer(
    'Purged',
    dataAnswer('Deleted for good.', wholeObject({ id: { type: 'integer' } }), { message: true }),
  ),
};
