/** Trade-data uploads: the queries and bodies their routes take and the answers they give. */
import type { JsonSchema } from '../../../contract/description.ts';
import { dataAnswer, type Answer, wholeObject } from '../../http/answers.ts';
import { exactObject } from '../../http/requestSchemas.ts';

/** The signature and expiry of the upload URL `POST uploads` hands out. */
export const uploadFileQuery = exactObject({
  expires: { type: 'integer', minimum: 0, maximum: 99_999_999_999 },
  signature: { type: 'string', maxLength: 100 },
});

/** The data columns a trade file's header is checked against, for a trade direction. */
export const uploadColumnsQuery = exactObject({ trade_direction: { type: 'string', enum: ['import', 'export'] } });

/**
 * Completing an upload whose file has arrived, with the uploader's answers to the questions it may raise:
 * `confirm_duplicate` imports bytes already uploaded for the same country, direction and period (adding to what is
 * published), `add_to_published` adds this file's rows to the month already published, `replace_published` replaces it.
 */
export const uploadCompleteBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    confirm_duplicate: { type: 'boolean' },
    add_to_published: { type: 'boolean' },
    replace_published: { type: 'boolean' },
  },
} as const;

export const FILE_CHECKS =
  'Refused: 413 larger than announced, 415 not CSV text in UTF-8 (gunzipped first for a `.csv.gz` name), 400 a header that does not match the data columns (`errors.file`); ' +
  '409 with `errors.confirm_duplicate` (naming the earlier upload, when and by whom) when the same bytes were already uploaded for the same country, trade direction and period, unless `confirm_duplicate` is true; ' +
  '409 with `errors.confirm_published` (naming the published uploads and their rows) when the country, trade direction and period already have published records, unless `add_to_published` (or `confirm_duplicate`) is true, ' +
  'or `replace_published` is: then, when this upload is published, the ones it names are taken out in the same transaction (status `replaced`). Both keys come together when both apply.';

export function uploadAnswers(upload: JsonSchema): Record<'ticket' | 'columns' | 'received', Answer> {
  return {
    ticket: dataAnswer(
      'The upload and its signed, expiring target.',
      wholeObject({
        upload,
        upload_url: {
          type: 'string',
          description: "The tus endpoint of the file, signed and expiring: a URL, or a path of this server's origin.",
        },
        complete_path: {
          type: 'string',
          description: '`uploads/<id>/complete`: the API path to POST once the whole file has arrived.',
        },
        expires_at: { type: 'string', format: 'date-time' },
        max_bytes: { type: 'integer' },
      }),
      { message: true },
    ),
    columns: dataAnswer('The expected columns.', {
      type: 'array',
      items: wholeObject({
        name: { type: 'string' },
        type: { type: 'string', enum: ['string', 'number', 'date'] },
        required: { type: 'boolean' },
      }),
    }),
    received: dataAnswer('The file was received and is being processed.', upload, { message: true }),
  };
}
