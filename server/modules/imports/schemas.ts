/** The request and answer schemas of the import endpoints (routes.ts). */
import { dataAnswer, wholeObject } from '../../http/answers.ts';
import { namedAnswer, namedSchema } from '../../http/components.ts';
import { progressAnswer } from '../../http/progressStream.ts';
import { multipartFileBody, exactObject } from '../../http/requestSchemas.ts';

export const importFileBody = multipartFileBody([
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
]);

export const mappingBody = namedSchema(
  'ImportMapping',
  exactObject({
    mapping: {
      type: 'object',
      maxProperties: 200,
      description: 'File column heading -> the field it fills, or null to leave the column out.',
      additionalProperties: { type: ['string', 'null'], maxLength: 100 },
    },
  }),
);

const stringArray = { type: 'array', items: { type: 'string' } };

export const uploadedAnswer = namedAnswer(
  'ImportUploaded',
  dataAnswer(
    'The file as read: its headings, its row count, the field each heading matches by name or title, and the fields a file may fill.',
    wholeObject({
      id: { type: 'integer' },
      file_name: { type: 'string' },
      headings: stringArray,
      rows: { type: 'integer' },
      mapping: { type: 'object', additionalProperties: { type: ['string', 'null'] } },
      fields: {
        type: 'array',
        items: wholeObject({
          name: { type: 'string' },
          title: { type: 'string' },
          required: { type: 'boolean' },
          key: { type: 'boolean', description: 'Rows are matched to records on this field.' },
        }),
      },
    }),
    { message: true },
  ),
);

const counts = namedSchema(
  'ImportCounts',
  wholeObject({
    create: { type: 'integer' },
    update: { type: 'integer' },
    unchanged: { type: 'integer' },
    error: { type: 'integer' },
  }),
);

export const dryRunAnswer = progressAnswer(
  'The dry run, as it goes.',
  namedSchema(
    'ImportDryRun',
    wholeObject({
      counts,
      rows: {
        type: 'array',
        description: 'Rows to show: up to 1,000 refused, 100 to create, 100 to update and 20 unchanged, in file order.',
        items: wholeObject({
          line: { type: 'integer', description: 'The row in the file, the heading row being 1.' },
          outcome: { enum: ['create', 'update', 'unchanged', 'error'] },
          cells: stringArray,
          errors: {
            type: 'object',
            additionalProperties: { type: 'string' },
            description: 'Field name (or `_` for the row) -> message.',
          },
          changed: { ...stringArray, description: 'The fields an update changes.' },
        }),
      },
    }),
  ),
);

export const applyAnswer = progressAnswer(
  'The import, as it goes.',
  namedSchema('ImportApplied', wholeObject({ counts })),
);
