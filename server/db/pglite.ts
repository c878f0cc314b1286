import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { TYPE_PARSERS, type Database, type Queryable, type Row } from './database.ts';
import { PreparedNames } from './prepared.ts';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];
interface Prepared {
  name: string;
  /** The parameter types PostgreSQL inferred, which pick each value's text form. */
  paramTypes: number[];
}

const { serialize } = protocol;
/** Error codes after which a statement is prepared afresh once: it is gone, or the tables under it changed shape. */
const STALE_STATEMENT = new Set(['26000', '0A000']);

/**
 * Embedded PostgreSQL in a data folder, or in memory when `dataDir` is null.
 *
 * PGlite's own `query` sends six protocol messages one engine call each (parse, describe statement, bind,
 * describe portal, execute, sync) and re-parses and re-plans every time. Here each statement is prepared once under
 * a name (Parse + Describe once, at its first use), and every later run is one engine call: Bind, Describe,
 * Execute and Sync in a single buffer, on a plan PostgreSQL's plan cache keeps. PGlite is one session: a mutex
 * of our own serialises top-level statements and transactions, as PGlite's query/transaction mutexes did.
 */
export async function openPglite(dataDir: string | null): Promise<Database> {
  const pg = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm }, parsers: TYPE_PARSERS });
  const statements = new PreparedNames<Prepared>(200);
  /** Close messages for statements the cache dropped, sent ahead of the next statement. */
  let closing: Uint8Array[] = [];
  let queue: Promise<unknown> = Promise.resolve();

  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  const send = (parts: Uint8Array[]): Promise<BackendMessage[]> => {
    const pending = closing;
    closing = [];
    return pg.execProtocolStream(concat([...pending, ...parts]), { syncToFs: false });
  };

  const prepare = async (text: string): Promise<Prepared> => {
    const cached = statements.get(text);
    if (cached) return cached;
    const name = statements.nextName();
    const messages = await send([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]);
    const prepared = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    const evicted = statements.set(text, prepared);
    if (evicted) closing.push(serialize.close({ type: 'S', name: evicted.name }));
    return prepared;
  };

  const execute = async (text: string, params: readonly unknown[]): Promise<Row[]> => {
    const prepared = await prepare(text);
    const values = params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const serializer = pg.serializers[prepared.paramTypes[index]!];
      return serializer ? serializer(param) : String(param);
    });
    const messages = await send([
      serialize.bind({ statement: prepared.name, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    return rowsOf(messages, pg.parsers);
  };

  const run = async (text: string, params: readonly unknown[], retry: boolean): Promise<Row[]> => {
    try {
      return await execute(text, params);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && STALE_STATEMENT.has(code)) {
        const stale = statements.delete(text);
        if (stale) closing.push(serialize.close({ type: 'S', name: stale.name }));
        if (retry) return run(text, params, false);
      }
      throw error;
    }
  };

  const simple = async (sql: string): Promise<string | undefined> => {
    const results = parse.parseResults(await send([serialize.query(sql), serialize.sync()]), pg.parsers);
    return results.at(-1)?.command;
  };

  const inTransaction: Queryable = {
    // Inside a transaction an error aborts it, so there is no retry.
    query: async <T extends Row>(text: string, params: readonly unknown[] = []) => (await run(text, params, false)) as T[],
    exec: async (sql) => {
      await simple(sql);
    },
  };

  return {
    kind: 'pglite',
    query: <T extends Row>(text: string, params: readonly unknown[] = []) =>
      exclusive(async () => {
        const rows = await run(text, params, true);
        await pg.syncToFs();
        return rows as T[];
      }),
    exec: (sql) =>
      exclusive(async () => {
        await simple(sql);
        await pg.syncToFs();
      }),
    transaction: (work) =>
      exclusive(async () => {
        await simple('BEGIN');
        let result;
        try {
          result = await work(inTransaction);
        } catch (error) {
          await simple('ROLLBACK');
          await pg.syncToFs();
          throw error;
        }
        // A transaction whose statement failed (and whose error `work` swallowed) ends in ROLLBACK here.
        if ((await simple('COMMIT')) === 'ROLLBACK') {
          throw Object.assign(new Error('Transaction was rolled back instead of committed'), { code: '25P02', severity: 'ERROR' });
        }
        await pg.syncToFs();
        return result;
      }),
    close: () => exclusive(() => pg.close()),
  };
}

type Parser = (text: string, typeId: number) => unknown;

/** The rows of one statement's result, each value through the parser of its type (as PGlite's parseResults). */
function rowsOf(messages: BackendMessage[], parsers: Record<number | string, Parser>): Row[] {
  const rows: Row[] = [];
  let names: string[] = [];
  let types: number[] = [];
  let columnParsers: Array<Parser | undefined> = [];
  for (const message of messages) {
    if (message.name === 'dataRow') {
      const fields = (message as unknown as { fields: Array<string | null> }).fields;
      const row: Row = {};
      for (let index = 0; index < fields.length; index += 1) {
        const value = fields[index]!;
        const parser = columnParsers[index];
        row[names[index]!] = value === null ? null : parser ? parser(value, types[index]!) : value;
      }
      rows.push(row);
    } else if (message.name === 'rowDescription') {
      const fields = (message as unknown as { fields: Array<{ name: string; dataTypeID: number }> }).fields;
      names = fields.map((field) => field.name);
      types = fields.map((field) => field.dataTypeID);
      columnParsers = types.map((type) => parsers[type]);
    }
  }
  return rows;
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
