import { hostname } from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import { isDatabaseError, PG, TYPE_PARSERS, type Database, type Queryable, type Row } from './database.ts';

const types = {
  getTypeParser(oid: number, format?: string) {
    return TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format as 'text');
  },
};

/** Distinct statement texts prepared under a name; past it, new texts run unnamed (each connection keeps what it prepared). */
const MAX_NAMED_STATEMENTS = 500;

/**
 * How this process's connections show in `pg_stat_activity.application_name`, so an operator (or a test) can tell
 * which instance holds a connection, a lock or a long transaction. PostgreSQL keeps 63 bytes of it.
 */
export function applicationName(pid: number): string {
  return `trade-admin ${hostname()} pid ${pid}`.slice(0, 63);
}

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
    application_name: applicationName(process.pid),
    types,
    ...(schema ? { options: `-c search_path=${quoteIdentifier(schema)},public` } : {}),
  });
  pool.on('error', (error) => console.error('PostgreSQL pool error:', error.message));
  // IF NOT EXISTS does not keep instances starting together from creating it at the same moment: one of them wins.
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`).catch(keepIfCreatedMeanwhile);
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
      const result = await target.query<T>({
        name: params.length > 0 ? nameOf(text) : undefined,
        text,
        values: params as unknown[],
      });
      return result.rows;
    },
    async exec(sql) {
      await target.query(sql);
    },
  });
  return {
    kind: 'postgres',
    connectionUse: () => ({ inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount, size: poolSize }),
    ...asQueryable(pool),
    async copyFrom(target, data) {
      const client = await pool.connect();
      try {
        return await copyInto(client, target, data);
      } finally {
        client.release();
      }
    },
    async transaction(work, options = {}) {
      const client = await pool.connect();
      // The session may end while the client is checked out (its lease ran out, an administrator ended it, the
      // database restarted): the next statement then fails and the transaction is rolled back, but the event itself
      // must not go unheard, which would end the process.
      const lost = (error: Error) => console.error('PostgreSQL connection lost mid-transaction:', error.message);
      client.on('error', lost);
      try {
        await client.query('BEGIN');
        if (options.leaseSeconds)
          await client.query("SELECT set_config('idle_in_transaction_session_timeout', $1, true)", [
            `${options.leaseSeconds}s`,
          ]);
        const result = await work({
          ...asQueryable(client),
          copyFrom: (target, data) => copyInto(client, target, data),
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', lost);
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

async function copyInto(client: pg.PoolClient, target: string, data: AsyncIterable<string>): Promise<number> {
  const copy = client.query(copyFromStdin(`COPY ${target} FROM STDIN`));
  await pipeline(Readable.from(data, { objectMode: false }), copy);
  return Number(copy.rowCount ?? 0);
}

function keepIfCreatedMeanwhile(error: unknown): void {
  if (isDatabaseError(error) && (error.code === PG.uniqueViolation || error.code === PG.duplicateSchema)) return;
  throw error;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
