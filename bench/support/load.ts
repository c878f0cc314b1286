import autocannon from 'autocannon';
import pg from 'pg';

export interface RotatingLoad {
  origin: string;
  /** Each request takes the next path, round and round, so no answer is the previous one's. */
  paths: readonly string[];
  headers: Record<string, string>;
  connections: number;
}

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * Requests for `seconds` over `connections`, each connection sending its next the moment the last is answered: the
 * machine's throughput, and latencies that are the queue's (pacedLoad.ts sends them at a pace instead). Latencies in
 * milliseconds; errors count timeouts and non-2xx answers.
 */
export async function rotatingLoad(
  { origin, paths, headers, connections }: RotatingLoad,
  seconds: number,
): Promise<LoadFigures> {
  let next = 0;
  const result = await autocannon({
    url: origin,
    connections,
    duration: seconds,
    headers,
    requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** The PostgreSQL the benchmarks run on: TEST_DATABASE_URL, as for the tests. */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether a PostgreSQL server answers at `url`: a benchmark that needs one says so and skips it when none does. */
export async function postgresReachable(url: string): Promise<boolean> {
  const connects = async (target: string) => {
    const client = new pg.Client({ connectionString: target, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      return true;
    } catch (error) {
      return (error as { code?: string }).code === '3D000' ? 'no database' : false;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const reached = await connects(url);
  if (reached !== 'no database') return reached;
  // The server answers but the bench's database is not there yet: it is made, as a bench's first run needs.
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  target.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: target.toString(), connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } catch {
    return false;
  } finally {
    await admin.end().catch(() => undefined);
  }
  return (await connects(url)) === true;
}
