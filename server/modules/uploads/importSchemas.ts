/** An upload's import: the queries its routes take and the answers they give. */
import type { JsonSchema } from '../../../contract/description.ts';
import { dataAnswer, type Answer, wholeObject } from '../../http/answers.ts';
import { exactObject } from '../../http/requestSchemas.ts';

const nullableString = { type: ['string', 'null'] };
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };
const nullableNumber = { type: ['number', 'null'] };

/** The upload ids of a page of the uploads list. */
export const progressListQuery = exactObject({
  ids: { type: 'string', pattern: '^[0-9]+(,[0-9]+)*$', maxLength: 2000 },
});

/** What an import has done so far, written at least every 2 s by the instance running it. */
const progress = wholeObject({
  bytes_total: { type: ['integer', 'null'], description: "The stored file's size (compressed, for a gzip file)." },
  bytes_read: { type: 'integer', description: 'Of those, how many have been read.' },
  rows_read: { type: 'integer' },
  rows_accepted: { type: 'integer' },
  rows_rejected: { type: 'integer' },
  started_at: nullableDateTime,
  updated_at: { type: 'string', format: 'date-time' },
  rows_per_second: nullableNumber,
  seconds_left: { ...nullableNumber, description: 'At the rate so far, until the whole file is read.' },
  cancel_requested: { type: 'boolean' },
});

export function importAnswers(upload: JsonSchema): Record<'log' | 'progressList' | 'cancelled' | 'replacing', Answer> {
  return {
    log: dataAnswer(
      "The upload with its file's state, its import's progress (null before it started), and the rejected lines (at most 10,000).",
      wholeObject({
        upload: {
          allOf: [
            upload,
            {
              type: 'object',
              properties: {
                stored_at: nullableDateTime,
                processed_at: nullableDateTime,
                error: nullableString,
                replaces_published: { type: ['boolean', 'null'] },
              },
            },
          ],
        },
        progress: { oneOf: [progress, { type: 'null' }] },
        rejected: {
          type: 'array',
          items: wholeObject({ line: { type: 'integer' }, reason: { type: 'string' } }),
        },
      }),
    ),
    progressList: dataAnswer(
      'The progress of those of the uploads whose import has started, with their status (`published`, `needs_review` and the others once it has ended).',
      {
        type: 'array',
        items: {
          allOf: [progress, wholeObject({ upload_id: { type: 'integer' }, status: { type: 'string' } })],
        },
      },
    ),
    cancelled: dataAnswer('The upload, cancelled or being cancelled.', upload, { message: true }),
    replacing: dataAnswer(
      'The upload will replace the published one.',
      wholeObject({ upload_id: { type: 'integer' }, replaces_published: { type: 'boolean' } }),
      { message: true },
    ),
  };
}
