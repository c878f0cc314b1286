// What the trade-report bench measures on a loaded database: the report's pages and searches, the bare SQL of the
// same pages, and (on PostgreSQL) the plans of a few of them.
import { loadavg } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/db/database.ts';
import type { DatabaseKind } from '../support/serverProcess.ts';
import type { LoadedUpload } from './load.ts';
import { measure } from './timings.ts';

const PAGE_BUDGET_MS = 100;
const SEARCH_BUDGET_MS = 1_000;

interface PageAnswer {
  data: Array<{ id: number }>;
  meta: { total: number; total_is_estimate: boolean; next: string | null };
}

export async function measureReport(
  kind: DatabaseKind,
  app: FastifyInstance,
  db: Database,
  headers: Record<string, string>,
  uploads: LoadedUpload[],
): Promise<void> {
  const get = async (query: string): Promise<PageAnswer> => {
    const response = await app.inject({ method: 'GET', url: `/api/v1/uploaded-data-report?${query}`, headers });
    if (response.statusCode !== 200) throw new Error(`${query}: ${response.statusCode} ${response.body.slice(0, 300)}`);
    return response.json() as PageAnswer;
  };
  const shown = (answer: PageAnswer) =>
    `(${answer.meta.total_is_estimate ? 'about ' : ''}${answer.meta.total.toLocaleString('en')} records, ${answer.data.length} on the page)`;
  const pick = (index: number) => uploads[(index * 37) % uploads.length]!;
  const shapes: Array<[string, (index: number) => string]> = [
    ['no filter', () => ''],
    ['country', (index) => `country_id=${pick(index).countryId}`],
    [
      'country and direction',
      (index) => `country_id=${pick(index).countryId}&trade_direction=${pick(index).direction}`,
    ],
    ['period', (index) => `period=${pick(index).period}`],
    [
      'period, country and direction',
      (index) =>
        `period=${pick(index).period}&country_id=${pick(index).countryId}&trade_direction=${pick(index).direction}`,
    ],
    ['upload', (index) => `upload_id=${pick(index).id}`],
  ];
  const variants = (query: (index: number) => string) => Array.from({ length: 6 }, (_, index) => query(index));
  console.info(
    `${kind}: measuring (load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')})`,
  );
  for (const [name, query] of shapes) {
    await measure(
      kind,
      `first page, ${name}`,
      PAGE_BUDGET_MS,
      variants(query).map((q) => async () => shown(await get(q))),
    );
  }
  for (const [name, query] of shapes) {
    const cursors = await Promise.all(variants(query).map(async (q) => [q, (await get(q)).meta.next] as const));
    await measure(
      kind,
      `next page by keyset, ${name}`,
      PAGE_BUDGET_MS,
      cursors.map(
        ([q, next]) =>
          async () =>
            shown(await get(`${q}&_after=${next}`)),
      ),
    );
  }
  // A page in the middle of the year, by the cursor of a record there: no OFFSET walks to it.
  const middle = await db.query<{ shipment_date: string; id: number }>(
    `SELECT shipment_date::text AS shipment_date, id FROM trade_records WHERE period = '2025-06' ORDER BY shipment_date DESC, id DESC LIMIT 1`,
  );
  const deep = Buffer.from(`${middle[0]!.shipment_date}|${middle[0]!.id}`).toString('base64url');
  await measure(kind, 'a page deep in the data by its cursor', PAGE_BUDGET_MS, [
    async () => shown(await get(`_after=${deep}`)),
  ]);
  // Terms as common as one record in ten, one in a hundred, one in a thousand, and none. The first two are spread over
  // the days; the generator gives saffron to every fourth day only, not to the newest three, so a newest-first walk
  // reads three days of every table of the month before its first match: the slow end of a search within a month.
  const terms = ['spice co', 'lot 77', 'saffron', 'no such thing'];
  const searched = (query: string) => async () => {
    const response = await app.inject({ method: 'GET', url: `/api/v1/uploaded-data-report?${query}`, headers });
    return response.statusCode === 200
      ? shown(response.json() as PageAnswer)
      : `(${response.statusCode}: ${response.body.slice(0, 60)}…)`;
  };
  await measure(
    kind,
    'search within a month',
    SEARCH_BUDGET_MS,
    terms.map((term, index) => searched(`period=${pick(index).period}&q=${encodeURIComponent(term)}`)),
  );
  await measure(
    kind,
    'search within a month and country',
    SEARCH_BUDGET_MS,
    terms.map((term, index) =>
      searched(`period=${pick(index).period}&country_id=${pick(index).countryId}&q=${encodeURIComponent(term)}`),
    ),
  );
  // Pepper is one record in ten but on even days only, none on the newest: the walk reads a day of every table first.
  await measure(kind, 'search within a month, no match on the newest day (worst)', null, [
    searched(`period=${uploads[0]!.period}&q=pepper`),
  ]);
  await measure(
    kind,
    'search over everything (bounded, no budget)',
    null,
    terms.map((term) => searched(`q=${encodeURIComponent(term)}`)),
  );
  // The same page as bare SQL: what the report adds (its total, the app) is the difference.
  const bare = (where: string, params: unknown[]) => async () =>
    `(${(await db.query(`SELECT * FROM trade_records ${where} ORDER BY shipment_date DESC, id DESC LIMIT 21`, params)).length} rows)`;
  await measure(kind, 'bare SQL page, no filter', null, [bare('', [])]);
  await measure(
    kind,
    'bare SQL page, country and direction',
    null,
    variants((index) => String(index)).map((_, index) =>
      bare('WHERE country_id = $1 AND trade_direction = $2', [pick(index).countryId, pick(index).direction]),
    ),
  );
  await measure(
    kind,
    'bare SQL page, period',
    null,
    variants((index) => String(index)).map((_, index) => bare('WHERE period = $1', [pick(index).period])),
  );
  if (kind === 'postgres') await printPlans(db, uploads);
}

async function printPlans(db: Database, uploads: LoadedUpload[]): Promise<void> {
  const plans: Array<[string, string, unknown[]]> = [
    ['first page, no filter', 'SELECT id FROM trade_records ORDER BY shipment_date DESC, id DESC LIMIT 21', []],
    [
      'first page, country and direction',
      'SELECT id FROM trade_records WHERE country_id = $1 AND trade_direction = $2 ORDER BY shipment_date DESC, id DESC LIMIT 21',
      [uploads[0]!.countryId, uploads[0]!.direction],
    ],
    [
      'search within a month',
      `SELECT id FROM trade_records WHERE period = $1 AND lower(coalesce(product_description, '') || ' ' || coalesce(hs_code, '') || ' ' || coalesce(importer, '') || ' ' || coalesce(exporter, '')) LIKE '%saffron%' ORDER BY shipment_date DESC, id DESC LIMIT 21`,
      [uploads[0]!.period],
    ],
  ];
  for (const [name, sql, params] of plans) {
    const rows = await db.query<Record<string, string>>(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql}`,
      params,
    );
    const text = rows
      .map((row) => Object.values(row)[0])
      .filter(
        (line) =>
          !/^\s+->\s+Index Scan .*_(newest|country_newest) on trade_records_upload_\d+/.test(line ?? '') || false,
      );
    console.info(
      `\nEXPLAIN ANALYZE, ${name} (leaf index scans elided after the first lines):\n${text.slice(0, 14).join('\n')}\n  ...\n${text.slice(-3).join('\n')}`,
    );
  }
}
