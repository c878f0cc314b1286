import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { TYPE_PARSERS, type Database, type Row, type Transaction } from './database.ts';
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
/** How much COPY input is handed to the engine at once: the engine copies each blob into its own memory. */
const COPY_BLOB_BYTES = 8 * 1024 * 1024;

/**
 * Embedded PostgreSQL in a data folder, or in memory when `dataDir` is null; `image` (what `dumpDataDir` made) is the
 * folder's first content in place of a new cluster.
 *
 * PGlite's own `query` sends six protocol messages one engine call each (parse, describe statement, bind,
 * describe portal, execute, sync) and re-parses and re-plans every time. Here each statement is prepared once under
 * a name (Parse + Describe once, at its first use), and every later run is one engine call: Bind, Describe,
 * Execute and Sync in a single buffer, on a plan PostgreSQL's plan cache keeps. PGlite is one session: a mutex
 * of our own serialises top-level statements and transactions, as PGlite's query/transaction mutexes did.
 */
export async function openPglite(dataDir: string | null, options: { image?: Blob } = {}): Promise<Database> {
  const pg = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(options.image ? { loadDataDir: options.image } : {}),
    extensions: { pg_trgm },
    parsers: TYPE_PARSERS,
  });
  const statements = new PreparedNames<Prepared>(200);
  /** Close messages for statements the cache dropped, sent ahead of the next statement. */
  let closing: Uint8Array[] = [];
  let queue: Promise<unknown> = Promise.resolve();
  /** Statements and transactions asked for and not finished: one runs, the others wait. */
  let unfinished = 0;

  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    unfinished += 1;
    const run = queue.then(work, work).finally(() => (unfinished -= 1));
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
    const messages = await send([
      serialize.parse({ name, text }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ]);
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
    const pending = closing;
    closing = [];
    const chunks: Uint8Array[] = [];
    await pg.execProtocolRawStream(
      concat([
        ...pending,
        serialize.bind({ statement: prepared.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      // The bytes are a view into the engine's memory, reused by the next call: keep a copy.
      { syncToFs: false, onRawData: (bytes) => chunks.push(bytes.slice()) },
    );
    return rowsOf(Buffer.concat(chunks), pg.parsers);
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

  /** One `COPY ... FROM '/dev/blob'` per blob of at most COPY_BLOB_BYTES (PGlite has no COPY FROM STDIN). */
  const copyFrom = async (
    target: string,
    data: AsyncIterable<string>,
    each: <T>(work: () => Promise<T>) => Promise<T>,
  ): Promise<number> => {
    let copied = 0;
    let parts: string[] = [];
    let size = 0;
    const flush = async () => {
      if (size === 0) return;
      const blob = new Blob(parts);
      const result = await each(() => pg.query(`COPY ${target} FROM '/dev/blob'`, [], { blob }));
      copied += result.affectedRows ?? 0;
      parts = [];
      size = 0;
    };
    for await (const text of data) {
      parts.push(text);
      size += text.length;
      if (size >= COPY_BLOB_BYTES) await flush();
    }
    await flush();
    return copied;
  };

  const inTransaction: Transaction = {
    // Inside a transaction an error aborts it, so there is no retry.
    query: async <T extends Row>(text: string, params: readonly unknown[] = []) =>
      (await run(text, params, false)) as T[],
    exec: async (sql) => {
      await simple(sql);
    },
    copyFrom: (target, data) => copyFrom(target, data, (work) => work()),
  };

  return {
    kind: 'pglite',
    dumpDataDir: () =>
      exclusive(async () => {
        await pg.syncToFs();
        return pg.dumpDataDir('gzip');
      }),
    connectionUse: () => ({ inUse: Math.min(unfinished, 1), waiting: Math.max(unfinished - 1, 0), size: 1 }),
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
    // No lease (TransactionOptions): the data folder's lock lets one process hold this database, so no other instance
    // could take the work up, and the embedded engine hangs rather than ending its one session on a timeout.
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
          throw Object.assign(new Error('Transaction was rolled back instead of committed'), {
            code: '25P02',
            severity: 'ERROR',
          });
        }
        await pg.syncToFs();
        return result;
      }),
    // Outside a transaction each blob is a statement of its own: other statements run between them.
    copyFrom: (target, data) =>
      copyFrom(target, data, (work) =>
        exclusive(async () => {
          const result = await work();
          await pg.syncToFs();
          return result;
        }),
      ),
    close: () => exclusive(() => pg.close()),
  };
}

type Parser = (text: string, typeId: number) => unknown;

/**
 * The rows of one statement's result from the engine's raw reply, each value through the parser of its type (as
 * PGlite's parseResults). Reading only what a result needs (row description, data rows) skips the generic protocol
 * parser, which builds an object per message (measured: 9% of the server's CPU on get-by-id). A reply with
 * anything unusual in it (an error, a notice) goes through that parser instead, so errors are PGlite's own.
 */
function rowsOf(reply: Buffer, parsers: Record<number | string, Parser>): Row[] {
  const rows: Row[] = [];
  let names: string[] = [];
  let types: number[] = [];
  let columnParsers: Array<Parser | undefined> = [];
  let offset = 0;
  while (offset + 5 <= reply.length) {
    const code = reply[offset]!;
    const end = offset + 1 + reply.readInt32BE(offset + 1);
    let at = offset + 5;
    if (code === DATA_ROW) {
      const count = reply.readInt16BE(at);
      at += 2;
      const row: Row = {};
      for (let index = 0; index < count; index += 1) {
        const length = reply.readInt32BE(at);
        at += 4;
        if (length < 0) {
          row[names[index]!] = null;
          continue;
        }
        const text = reply.toString('utf8', at, at + length);
        at += length;
        const parser = columnParsers[index];
        row[names[index]!] = parser ? parser(text, types[index]!) : text;
      }
      rows.push(row);
    } else if (code === ROW_DESCRIPTION) {
      const count = reply.readInt16BE(at);
      at += 2;
      names = [];
      types = [];
      for (let index = 0; index < count; index += 1) {
        const nul = reply.indexOf(0, at);
        names.push(reply.toString('utf8', at, nul));
        // table oid (4), column number (2), then the type oid; then its size (2), modifier (4) and format (2).
        types.push(reply.readInt32BE(nul + 7));
        at = nul + 19;
      }
      columnParsers = types.map((type) => parsers[type]);
    } else if (!ROUTINE.has(code)) {
      throwDatabaseError(reply);
    }
    offset = end;
  }
  return rows;
}

const DATA_ROW = 0x44; // D
const ROW_DESCRIPTION = 0x54; // T
/** BindComplete, CommandComplete, NoData, ReadyForQuery, CloseComplete: nothing a result needs. */
const ROUTINE = new Set([0x32, 0x43, 0x6e, 0x5a, 0x33]);

/** The reply's first error, parsed by PGlite's protocol parser; a reply with only notices in it parses normally. */
function throwDatabaseError(reply: Buffer): void {
  let failure: unknown;
  new protocol.Parser().parse(reply, (message) => {
    failure ??= message instanceof protocol.messages.DatabaseError ? message : undefined;
  });
  if (failure) throw failure;
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
