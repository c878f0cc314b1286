import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

/** The versions an `If-Match` header accepts: a list of them, or any (`*`). */
export type ExpectedVersion = { versions: number[] } | 'any';

/** A record's strong entity tag: its version, quoted. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/** The header a change of one record requires, as its route declares it (`schema.headers`); `expectedVersion` judges it. */
export const IF_MATCH_HEADER = {
  type: 'object',
  required: ['if-match'],
  properties: {
    'if-match': {
      type: 'string',
      description:
        'The `ETag` of the record as read (its `version`, quoted: `"3"`); several may be listed, `*` matches any version.',
    },
  },
} as const;

/**
 * The `If-Match` of a request that changes one record (RFC 9110, 13.1.1): 428 when it is missing, so no client
 * overwrites a record it did not read. Weak tags never match a strong comparison; they, and anything else that is no
 * version, are kept out of the list, so such a header answers 412.
 */
export function expectedVersion(request: FastifyRequest): ExpectedVersion {
  const header = request.headers['if-match'];
  if (header === undefined || header.trim() === '') {
    throw new HttpError(
      428,
      'This change needs an If-Match header with the ETag of the record you read (its "version"), so that it cannot overwrite a newer change.',
    );
  }
  if (header.trim() === '*') return 'any';
  const versions = header
    .split(',')
    .map((tag) => /^\s*"(\d{1,9})"\s*$/.exec(tag)?.[1])
    .filter((digits): digits is string => digits !== undefined)
    .map(Number);
  return { versions };
}

/** 412: the record moved on since the caller read it. */
export function staleRecord(singular: string): HttpError {
  return new HttpError(
    412,
    `This ${singular.toLowerCase()} was changed by someone else since you opened it. Load it again to see the latest version, then make your change again.`,
  );
}
