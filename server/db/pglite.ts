import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { TYPE_PARSERS, type Database, type Queryable, type Row } from './database.ts';

/** The smallest PostgreSQL accepts. */
const GIN_PENDING_LIST_LIMIT = '64kB';

/** Embedded PostgreSQL in a data folder, or in memory when `dataDir` is null. */
export async function openPglite(dataDir: string | null): Promise<Database> {
  const pg = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm }, parsers: TYPE_PARSERS });
  // No autovacuum runs inside PGlite, so a GIN index's pending list (fast update) is flushed only when it
  // outgrows this limit, and every trigram search scans it linearly: at the default 4 MB that made a search on
  // 100,000 subscribers 5x slower. The smallest limit keeps it to a few pages.
  await pg.exec(`SET gin_pending_list_limit = '${GIN_PENDING_LIST_LIMIT}'`);
  const asQueryable = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T extends Row>(text: string, params: readonly unknown[] = []) {
      const result = await target.query<T>(text, params as unknown[]);
      return result.rows;
    },
    async exec(sql) {
      await target.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    ...asQueryable(pg),
    transaction: (work) => pg.transaction((tx) => work(asQueryable(tx))),
    close: () => pg.close(),
  };
}
