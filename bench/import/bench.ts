/**
 * npm run bench:import: a CSV file of 100,000 vouchers imported through the real server (app.inject) on a real
 * database: uploaded and read, a dry run of every row (a third of them update existing vouchers), then the apply in
 * one transaction with an audit entry per record. Budget: under 30 s for the dry run and the apply together, on PGlite
 * and on PostgreSQL.
 */
import { postgresUnavailable, startTestServer, type DatabaseKind } from '../../server/testing/testServer.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BUDGET_MS = 30_000;
const EXISTING = Math.floor(ROWS / 3);
let failed = false;

function file(): Buffer {
  const lines = ['Code,Discount type,Discount value,Valid from,Valid to,Usage limit'];
  for (let n = 1; n <= ROWS; n += 1)
    lines.push(
      `IMP${String(n).padStart(7, '0')},${n % 2 ? 'flat' : 'percent'},${n % 2 ? 100 : 10},2026-01-01,2026-12-31,${n <= EXISTING ? 7 : ''}`,
    );
  const boundary = '----bench-import';
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="vouchers.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.from(lines.join('\r\n')),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function measure(kind: DatabaseKind, body: Buffer): Promise<void> {
  const server = await startTestServer(kind);
  try {
    await server.db.query(
      `INSERT INTO vouchers (code, discount_type, discount_value, valid_from, valid_to, usage_limit)
       SELECT 'IMP' || lpad(n::text, 7, '0'), CASE WHEN n % 2 = 1 THEN 'flat' ELSE 'percent' END, CASE WHEN n % 2 = 1 THEN 100 ELSE 10 END, '2026-01-01', '2026-12-31', 1
         FROM generate_series(1, $1) AS n`,
      [EXISTING],
    );
    await server.db.query('ANALYZE vouchers');
    const admin = await server.auth('Super Admin');
    const started = performance.now();
    const uploaded = await server.app.inject({
      method: 'POST',
      url: '/api/v1/vouchers/import',
      headers: { ...admin, 'content-type': 'multipart/form-data; boundary=----bench-import' },
      payload: body,
    });
    const { id, mapping } = uploaded.json().data as { id: number; mapping: Record<string, string> };
    const read = performance.now();
    const dry = await server.app.inject({
      method: 'POST',
      url: `/api/v1/vouchers/import/${id}/dry-run`,
      headers: admin,
      payload: { mapping },
    });
    if (dry.statusCode !== 200) throw new Error(`dry run: ${dry.statusCode} ${dry.body.slice(0, 200)}`);
    const dried = performance.now();
    const apply = await server.app.inject({
      method: 'POST',
      url: `/api/v1/vouchers/import/${id}/apply`,
      headers: admin,
      payload: { mapping },
    });
    const applied = performance.now();
    const counts = (response: typeof dry) =>
      (JSON.parse(response.body.trim().split('\n').at(-1)!) as { data?: { counts: Record<string, number> } }).data
        ?.counts;
    const total = applied - started;
    const ok =
      apply.statusCode === 200 &&
      counts(apply)?.create === ROWS - EXISTING &&
      counts(apply)?.update === EXISTING &&
      total < BUDGET_MS;
    if (!ok) failed = true;
    console.log(
      `${kind.padEnd(8)} import of ${ROWS.toLocaleString('en')} rows: read ${seconds(read - started)}, dry run ${seconds(dried - read)}, apply ${seconds(applied - dried)}; in all ${seconds(total)} (budget ${BUDGET_MS / 1000} s) ${ok ? 'PASS' : 'FAIL'} ${JSON.stringify(counts(apply) ?? apply.body.slice(0, 200))}`,
    );
  } finally {
    await server.close();
  }
}

const body = file();
await measure('pglite', body);
const unavailable = await postgresUnavailable();
if (unavailable) {
  console.log(`postgres SKIPPED: ${unavailable}`);
  failed = true;
} else await measure('postgres', body);
process.exit(failed ? 1 : 0);
