import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/database.ts';
import { HOUR_MILLISECONDS, PeriodicJob } from '../../jobs/periodicJob.ts';
import { notFound } from '../../http/errors.ts';
import type { FileTable, ParsedFile } from './parseFile.ts';

/** An uploaded file's table, kept between its dry run and its apply (server/migrations/014_imports.sql). */
export interface StoredImport extends ParsedFile {
  id: number;
  fileName: string;
  mapping: Record<string, string | null> | null;
}

/** Keeps a parsed file for its uploader; the same user's earlier files of the module go (one import at a time each). */
export async function storeImport(
  db: Queryable,
  module: string,
  userId: number,
  fileName: string,
  file: FileTable,
): Promise<number> {
  await db.query('DELETE FROM imports WHERE module = $1 AND user_id = $2', [module, userId]);
  const [row] = await db.query<{ id: number }>(
    'INSERT INTO imports (module, user_id, file_name, headings, rows, row_count) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6) RETURNING id',
    [module, userId, fileName, JSON.stringify(file.headings), file.rowsJson, file.rowCount],
  );
  return row!.id;
}

/** The caller's own upload of this module; anyone else's is a 404. */
export async function loadImport(db: Queryable, module: string, userId: number, id: number): Promise<StoredImport> {
  const [row] = await db.query<{
    id: number;
    file_name: string;
    headings: string[];
    rows: string[][];
    mapping: Record<string, string | null> | null;
  }>('SELECT id, file_name, headings, rows, mapping FROM imports WHERE id = $1 AND module = $2 AND user_id = $3', [
    id,
    module,
    userId,
  ]);
  if (!row) throw notFound('Import');
  return { id: row.id, fileName: row.file_name, headings: row.headings, rows: row.rows, mapping: row.mapping };
}

export async function rememberMapping(
  db: Queryable,
  id: number,
  mapping: Record<string, string | null>,
): Promise<void> {
  await db.query('UPDATE imports SET mapping = $2::jsonb WHERE id = $1', [id, JSON.stringify(mapping)]);
}

/** How long an uploaded file waits for its apply; a file left longer (a dry run nobody applied) is dropped. */
export const IMPORT_KEPT_HOURS = 24;

/** Drops the files uploaded for import more than `hours` ago; answers how many went. */
export async function dropAbandonedImports(db: Queryable, hours = IMPORT_KEPT_HOURS): Promise<number> {
  const dropped = await db.query(
    'DELETE FROM imports WHERE created_at < now() - make_interval(hours => $1) RETURNING id',
    [hours],
  );
  return dropped.length;
}

/** Drops abandoned imports at start and every hour, in every instance (a second delete of the same rows finds none). */
export function abandonedImportsCleanup(db: Database, log: FastifyBaseLogger): PeriodicJob {
  return new PeriodicJob(
    'abandoned imports cleanup',
    async () => {
      const dropped = await dropAbandonedImports(db);
      if (dropped > 0)
        log.info({ dropped, keptHours: IMPORT_KEPT_HOURS }, 'files uploaded for import and never applied dropped');
    },
    HOUR_MILLISECONDS,
    log,
  );
}
