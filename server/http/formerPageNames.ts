import type { FastifyRequest } from 'fastify';
import { validationError } from './errors.ts';

/** The names the audit log, a record's history and the trash took before `_page` and `_page_size`. */
const FORMER_PAGE_NAMES = { page: '_page', pageSize: '_page_size' } as const;

/**
 * A route's preHandler where a list took `page` and `pageSize` (`pageQuery`'s `formerNames`): once the query is
 * validated (each name against its own limits, so an error names the one sent), a former name's value is the new
 * name's. Both names sent at once is a 400 naming the former one.
 */
export async function acceptFormerPageNames(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown>;
  const sent = new URL(request.raw.url ?? '/', 'http://localhost').searchParams;
  for (const [former, current] of Object.entries(FORMER_PAGE_NAMES)) {
    if (query[former] === undefined) continue;
    if (sent.has(current)) throw validationError({ [former]: `Give ${current} alone: ${former} is its former name.` });
    query[current] = query[former];
    delete query[former];
  }
}
