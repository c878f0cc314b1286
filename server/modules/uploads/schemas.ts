/** Trade-data uploads: the queries and bodies their routes take and the answers they give. */
import type { JsonSchema } from '../../../contract/description.ts';
import { dataAnswer, type Answer } from '../../http/answers.ts';

/** The signature and expiry of the upload URL `POST uploads` hands out (data-folder storage). */
export const uploadFileQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['expires', 'signature'],
  properties: { expires: { type: 'integer', minimum: 0, maximum: 99_999_999_999 }, signature: { type: 'string', maxLength: 100 } },
} as const;

/** The data columns a trade file's header is checked against, for a trade direction. */
export const uploadColumnsQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['trade_direction'],
  properties: { trade_direction: { type: 'string', enum: ['import', 'export'] } },
} as const;

/** Completing a bucket upload: `confirm_duplicate` imports a file whose bytes were already uploaded for the same country, direction and period. */
export const uploadCompleteBody = {
  type: 'object',
  additionalProperties: false,
  properties: { confirm_duplicate: { type: 'boolean' } },
} as const;

/** The file posted to the signed URL, with the confirmation of a duplicate; the route splits and checks it itself. */
export const uploadFileBody = {
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: { confirm_duplicate: { type: 'string', enum: ['true'] }, file: { type: 'string', contentMediaType: 'text/csv' } },
      },
      encoding: { file: { contentType: 'text/csv' } },
    },
  },
};

const nullableString = { type: ['string', 'null'] };
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };

export const FILE_CHECKS =
  'Refused: 403 after the link expired, 413 larger than announced, 415 not CSV text in UTF-8, 400 a header that does not match the data columns (`errors.file`); ' +
  '409 with `errors.confirm_duplicate` (naming the earlier upload, when and by whom) when the same bytes were already uploaded for the same country, trade direction and period, unless `confirm_duplicate` is true.';

export function uploadAnswers(upload: JsonSchema): Record<'ticket' | 'columns' | 'received' | 'log', Answer> {
  return {
    ticket: dataAnswer(
      'The upload and its signed, expiring target.',
      {
        type: 'object',
        required: ['upload', 'upload_url', 'fields', 'complete_path', 'expires_at', 'max_bytes'],
        properties: {
          upload,
          upload_url: { type: 'string', description: 'Where to post the file: a URL, or a path of this server\'s origin.' },
          fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'Form fields to post before the file (a bucket\'s presigned policy); empty for the data folder.' },
          complete_path: { ...nullableString, description: '`uploads/<id>/complete` with bucket storage, else null.' },
          expires_at: { type: 'string', format: 'date-time' },
          max_bytes: { type: 'integer' },
        },
      },
      { message: true },
    ),
    columns: dataAnswer('The expected columns.', {
      type: 'array',
      items: { type: 'object', required: ['name', 'required'], properties: { name: { type: 'string' }, required: { type: 'boolean' } } },
    }),
    received: dataAnswer('The file was received and is being processed.', upload, { message: true }),
    log: dataAnswer('The upload with its file\'s state, and the rejected lines (at most 10,000).', {
      type: 'object',
      required: ['upload', 'rejected'],
      properties: {
        upload: { allOf: [upload, { type: 'object', properties: { stored_at: nullableDateTime, processed_at: nullableDateTime, error: nullableString } }] },
        rejected: { type: 'array', items: { type: 'object', required: ['line', 'reason'], properties: { line: { type: 'integer' }, reason: { type: 'string' } } } },
      },
    }),
  };
}
