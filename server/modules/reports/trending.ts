// The trending products: the most shipped products of the last months, computed from the trade records on request.
import type { Database, Queryable, Row } from '../../db/database.ts';

const TRENDING_MONTHS = 12;
const TRENDING_ITEMS = 50;
/** Any constant not used by another advisory lock: refreshes of the trending products take turns under it. */
export const TRENDING_REFRESH_LOCK = 7_512_003;

export interface TrendingRefresh {
  /** When the trade records it was computed from were read (every record committed before then is counted). */
  synced_at: string;
  rows: number;
}

/**
 * Recomputes the trending products from the trade records, in one transaction. Refreshes asked on several instances
 * at once take turns under a database-wide lock, so they never interleave their rows; one that waited answers with
 * the refresh it waited for when that one read the trade records after it was asked, which is the result it would
 * compute itself, and does the work only otherwise.
 */
export function refreshTrending(
  db: Database,
  recorded: (tx: Queryable, refresh: TrendingRefresh & { recomputed: boolean }) => Promise<unknown>,
): Promise<TrendingRefresh> {
  return db.transaction(async (tx) => {
    // Text, not a parsed timestamp, so the microseconds survive the round trip.
    const [asked] = await tx.query<{ at: string }>('SELECT clock_timestamp()::text AS at');
    await tx.query('SELECT pg_advisory_xact_lock($1)', [TRENDING_REFRESH_LOCK]);
    const [fresh] = await tx.query<{ synced_at: string; rows: number }>(
      'SELECT max(synced_at) AS synced_at, count(*) AS rows FROM trending_products HAVING max(synced_at) >= $1::timestamptz',
      [asked!.at],
    );
    if (fresh) {
      const refresh = { synced_at: fresh.synced_at, rows: Number(fresh.rows) };
      await recorded(tx, { ...refresh, recomputed: false });
      return refresh;
    }
    // Read before the statement that reads the trade records, whose snapshot is therefore at least this recent.
    const [read] = await tx.query<{ at: string }>('SELECT clock_timestamp()::text AS at');
    await tx.query('DELETE FROM trending_products');
    const [computed] = await tx.query<{ synced_at: string; rows: number }>(
      `WITH inserted AS (
         INSERT INTO trending_products (hs_code, product, shipments, value, synced_at)
         SELECT hs_code, mode() WITHIN GROUP (ORDER BY product_description), count(*), coalesce(sum(value), 0), $3::timestamptz
           FROM trade_records WHERE shipment_date >= current_date - make_interval(months => $1)
          GROUP BY hs_code ORDER BY count(*) DESC, sum(value) DESC LIMIT $2
         RETURNING 1)
       SELECT $3::timestamptz AS synced_at, (SELECT count(*) FROM inserted) AS rows`,
      [TRENDING_MONTHS, TRENDING_ITEMS, read!.at],
    );
    const refresh = { synced_at: computed!.synced_at, rows: Number(computed!.rows) };
    await recorded(tx, { ...refresh, recomputed: true });
    return refresh;
  });
}

/** The trending products, most shipped first, with when they were computed (null before the first refresh). */
export async function trendingProducts(db: Queryable): Promise<{ synced_at: string | null; items: Row[] }> {
  const items = await db.query<{ synced_at: string }>(
    'SELECT hs_code, product, shipments, value, synced_at FROM trending_products ORDER BY shipments DESC, value DESC, hs_code',
  );
  return { synced_at: items[0]?.synced_at ?? null, items: items.map(({ synced_at: _syncedAt, ...item }) => item) };
}
