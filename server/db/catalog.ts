import type { Queryable } from './database.ts';

/**
 * Whether a table of this name is in the schema tables are made in (the first of the search path), as the
 * statement's snapshot sees the catalog. Not `to_regclass`: it answers from the connection's cache, which still says
 * "no such table" after a wait for an advisory lock while another instance made it (such a lock reads no news of the
 * catalog).
 */
export async function tableExists(db: Queryable, name: string): Promise<boolean> {
  const [row] = await db.query<{ found: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM pg_class WHERE relname = $1 AND relnamespace = current_schema()::regnamespace) AS found',
    [name],
  );
  return row?.found === true;
}
