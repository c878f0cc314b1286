import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { TYPE_PARSERS, type Database, type Queryable, type Row } from './database.ts';

/** Embedded PostgreSQL in a data folder, or in memory when `dataDir` is null. */
export async function openPglite(dataDir: string | null): Promise<Database> {
  const pg = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm }, parsers: TYPE_PARSERS });
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
