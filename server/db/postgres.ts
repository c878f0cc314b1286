import pg from 'pg';
import { TYPE_PARSERS, type Database, type Queryable, type Row } from './database.ts';

const types = {
  getTypeParser(oid: number, format?: string) {
    return TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format as 'text');
  },
};

/** A PostgreSQL pool; `schema` puts every connection's search_path on that schema first (tests). */
export async function openPostgres(url: string, schema: string | null, poolSize = 20): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types,
    ...(schema ? { options: `-c search_path=${quoteIdentifier(schema)},public` } : {}),
  });
  pool.on('error', (error) => console.error('PostgreSQL pool error:', error.message));
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
  const asQueryable = (target: Pick<pg.PoolClient, 'query'>): Queryable => ({
    async query<T extends Row>(text: string, params: readonly unknown[] = []) {
      const result = await target.query<T>(text, params as unknown[]);
      return result.rows;
    },
    async exec(sql) {
      await target.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...asQueryable(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(asQueryable(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
