/** Review before publishing: the bodies its routes take and the answers they give (contract/uploadReview.ts). */
import type { JsonSchema } from '../../../contract/description.ts';
import { dataAnswer, type Answer, wholeObject } from '../../http/answers.ts';
import { exactObject } from '../../http/requestSchemas.ts';

const fraction = (description: string) => ({ type: 'number', minimum: 0, maximum: 100, description });

/** The thresholds, every one named (an answer), or any of them (a change: the others keep their value). */
const THRESHOLD_PROPERTIES = {
  hold: { type: 'boolean', description: 'false publishes every import at once (the comparison is still stored).' },
  row_count_change: fraction(
    'Accepted rows may change by at most this fraction of the month compared with, up or down.',
  ),
  value_change: fraction('Total value: the same.'),
  quantity_change: fraction('Total quantity: the same.'),
  rejected_share: fraction('At most this fraction of the rows read may be rejected.'),
  outside_period_share: fraction("At most this fraction of the accepted rows may be dated outside the upload's month."),
  duplicate_share: fraction('At most this fraction of the accepted rows may repeat an earlier row of the file.'),
  hs_chapter_share: fraction(
    "New HS chapters may hold at most this fraction of the rows, and missing ones at most this fraction of the compared month's.",
  ),
  empty_party_change: fraction('The share of rows without an importer (or exporter) may rise by at most this much.'),
  unit_value_factor: {
    type: 'number',
    minimum: 1,
    maximum: 1_000_000,
    description: "A chapter's median value per unit may move by at most this factor, either way.",
  },
  unit_value_min_rows: {
    type: 'integer',
    minimum: 1,
    maximum: 1_000_000_000,
    description: 'Chapters with fewer rows in either month are not judged by value per unit.',
  },
} as const;

const thresholds = wholeObject(THRESHOLD_PROPERTIES);

export const thresholdsBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: THRESHOLD_PROPERTIES,
} as const;

export const reasonBody = exactObject({
  reason: { type: 'string', maxLength: 2000, description: "Why: kept with the upload's history." },
});

/** Free-form below its top level: its shape is contract/uploadReview.ts's. */
const anyObject = (description: string) => ({ type: 'object', additionalProperties: true, description });

export function reviewAnswers(upload: JsonSchema): Record<'settings' | 'decided' | 'review', Answer> {
  return {
    settings: dataAnswer(
      'The thresholds in force and their defaults.',
      wholeObject({ thresholds, defaults: thresholds }),
    ),
    decided: dataAnswer('The upload after the decision.', upload, { message: true }),
    review: dataAnswer(
      "The upload's stored comparison, the months for its chart and the rows behind each flagged check (UploadReviewAnswer).",
      wholeObject({
        upload_id: { type: 'integer' },
        status: { type: 'string' },
        review: { oneOf: [anyObject('UploadReview'), { type: 'null' }] },
        decision: {
          oneOf: [
            wholeObject({
              by: { type: ['integer', 'null'] },
              at: { type: 'string', format: 'date-time' },
              reason: { type: ['string', 'null'] },
            }),
            { type: 'null' },
          ],
        },
        months: {
          type: 'array',
          items: wholeObject({
            period: { type: 'string' },
            rows: { type: 'integer' },
            value: { type: ['number', 'null'] },
            current: { type: 'boolean' },
          }),
        },
        samples: {
          type: 'array',
          items: wholeObject({
            key: { type: 'string' },
            rows: { type: 'array', items: anyObject('A trade record, or a rejected line') },
          }),
        },
      }),
    ),
  };
}
