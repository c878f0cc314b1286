/** The one interface the server talks to, over embedded PGlite or a PostgreSQL pool. */
export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** A transaction's own statements, and bulk loading into it. */
export interface Transaction extends Queryable {
  /**
   * Runs `COPY <target> FROM STDIN` (text format) with `data` as its input, read as it is consumed: `target` is a
   * table and its column list. Resolves with the number of rows copied.
   */
  copyFrom(target: string, data: AsyncIterable<string>): Promise<number>;
}

export interface TransactionOptions {
  /**
   * Rows this transaction locks are a claim on work (an upload's import): when it leaves the database waiting for its
   * next statement this long, because its instance froze or can no longer reach the database, PostgreSQL ends the
   * session and rolls it back, so another instance can take the work up. A dead process's session ends at once.
   */
  leaseSeconds?: number;
}

/** How busy the connections are right now (the metrics endpoint's pool gauges). */
export interface ConnectionUse {
  /** Connections (PostgreSQL) or the one session (PGlite) running a statement or a transaction. */
  inUse: number;
  /** Statements and transactions waiting for one. */
  waiting: number;
  /** The most that may be in use at once. */
  size: number;
}

export interface Database extends Transaction {
  readonly kind: 'pglite' | 'postgres';
  connectionUse(): ConnectionUse;
  /** PGlite only: its data directory as a gzip'd tar, taken between statements (server/backup). */
  dumpDataDir?(): Promise<Blob>;
  /** Runs `work` in one transaction; it is rolled back when `work` throws. */
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}

/** PostgreSQL error codes the server turns into answers. */
export const PG = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  restrictViolation: '23001',
  notNullViolation: '23502',
  checkViolation: '23514',
  serializationFailure: '40001',
  duplicateSchema: '42P06',
} as const;

export interface DatabaseError {
  code: string;
  constraint?: string;
  detail?: string;
}

export function isDatabaseError(error: unknown): error is DatabaseError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((error as { code: string }).code)
  );
}

/** Type parsers shared by both drivers: ids and counts as numbers, dates as the text the API speaks. */
export const TYPE_PARSERS: Record<number, (value: string) => unknown> = {
  20: (value) => Number(value), // int8
  1700: (value) => Number(value), // numeric
  1082: (value) => value, // date: keep YYYY-MM-DD, never a local-midnight Date
  1114: (value) => new Date(`${value.replace(' ', 'T')}Z`).toISOString(), // timestamp
  1184: (value) => new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString(), // timestamptz
};
