import pg from 'pg';
import { TYPE_PARSERS, type Database, type Queryable, type Row } from './database.ts';

const types = {
  getTypeParser(oid: number, format?: string) {
    return TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format as 'text');
  },
};

/** Distinct statement texts prepared under a name; past it, new texts run unnamed (each connection keeps what it prepared). */
const MAX_NAMED_STATEMENTS = 500;

/**
 * A PostgreSQL pool; `schema` puts every connection's search_path on that schema first (tests).
 *
 * Every parameterised statement runs as a named prepared statement (pg's `{ name, text, values }`): a connection
 * parses it once, and PostgreSQL's plan cache settles on a generic plan where one is as good as a fresh one,
 * so a hot statement costs Bind + Execute, still in one round trip (pg pipelines Parse/Bind/Execute/Sync).
 */
export async function openPostgres(url: string, schema: string | null, poolSize = 20): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types,
    ...(schema ? { options: `-c search_path=${quoteIdentifier(schema)},public` } : {}),
  });
  pool.on('error', (error) => console.error('PostgreSQL pool error:', error.message));
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
      name = `s${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
  const asQueryable = (target: Pick<pg.PoolClient, 'query'>): Queryable => ({
    async query<T extends Row>(text: string, params: readonly unknown[] = []) {
      const result = await target.query<T>({ name: params.length > 0 ? nameOf(text) : undefined, text, values: params as unknown[] });
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
