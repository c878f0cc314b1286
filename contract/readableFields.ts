import type { FieldModel } from './description.ts';

// Apart from description.ts, so that screens reading fields do not pull the area-description code into a chunk of its own.

/** The record version: sent back as `If-Match` to change the record, not something people read. */
export const RECORD_VERSION = 'version';

/** The fields a person reads (detail screens, list columns, exports): all but write-only ones and the record version. */
export function readableFields<F extends Pick<FieldModel, 'name' | 'writeOnly'>>(fields: readonly F[]): F[] {
  return fields.filter((field) => !field.writeOnly && field.name !== RECORD_VERSION);
}
