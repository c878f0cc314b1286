/**
 * npm run bench:bulk: "set a field on all matching" over 100,000 vouchers, through the real server (app.inject) on a
 * real database: the list's filter picks them, each is changed in batched statements with its audit entry, all in one
 * transaction. Budget: under 10 s on PostgreSQL; the PGlite figure is printed beside it, for comparison only.
 */
import { postgresUnavailable, startTestServer, type DatabaseKind } from '../../server/testing/testServer.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BUDGET_MS = 10_000;
let failed = false;

async function measure(kind: DatabaseKind): Promise<void> {
  const server = await startTestServer(kind);
  try {
    await server.db.query(
      `INSERT INTO vouchers (code, discount_type, discount_value, valid_from, valid_to, usage_limit)
       SELECT 'BULK' || lpad(n::text, 7, '0'), 'flat', 100, '2026-01-01', '2026-12-31', 1 FROM generate_series(1, $1) AS n`,
      [ROWS],
    );
    await server.db.query('ANALYZE vouchers');
    // The floor on this machine now: one plain UPDATE of the same rows, no audit, rolled back.
    const floorStarted = performance.now();
    await server.db
      .transaction(async (tx) => {
        await tx.query(`UPDATE vouchers SET usage_limit = 2`);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const floor = performance.now() - floorStarted;
    const admin = await server.auth('Super Admin');
    const started = performance.now();
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/v1/vouchers/bulk/set?discount_type=flat',
      headers: admin,
      payload: { field: 'usage_limit', value: 5, expected_count: ROWS },
    });
    const elapsed = performance.now() - started;
    const last = JSON.parse(response.body.trim().split('\n').at(-1)!) as { data?: { changed: number } };
    const done = response.statusCode === 200 && last.data?.changed === ROWS;
    const ok = done && (kind !== 'postgres' || elapsed < BUDGET_MS);
    if (!ok) failed = true;
    const verdict =
      kind === 'postgres'
        ? `(budget ${BUDGET_MS / 1000} s) ${ok ? 'PASS' : 'FAIL'}`
        : `(no budget on PGlite) ${done ? 'done' : 'FAIL'}`;
    const lines = response.body.trim().split('\n').length;
    console.log(
      `${kind.padEnd(8)} bulk set of ${ROWS.toLocaleString('en')} matching: ${(elapsed / 1000).toFixed(2)} s ${verdict}; ${last.data?.changed ?? 0} changed, ${lines - 1} progress line(s); one plain UPDATE of the same rows takes ${(floor / 1000).toFixed(2)} s here now`,
    );
  } finally {
    await server.close();
  }
}

const unavailable = await postgresUnavailable();
if (unavailable) {
  console.log(`postgres SKIPPED: ${unavailable}`);
  failed = true;
} else await measure('postgres');
await measure('pglite');
process.exit(failed ? 1 : 0);
