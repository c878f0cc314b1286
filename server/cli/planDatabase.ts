import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { dataFolder } from '../start/loadConfig.ts';
import { lockDataFolder } from '../start/dataFolderLock.ts';
import { DEFAULT_SOURCES } from '../db/knownMigrations.ts';
import { openDatabase } from '../db/open.ts';
import { planMigrations, type DraftForPlan, type PlanReport } from '../db/planMigrations.ts';

/**
 * `admin-codegen plan`'s database side: the committed migrations (the server's own, and the manifest's in
 * `manifestMigrations`) and a draft, planned on the database the server would open and left unchanged: DATABASE_URL,
 * or PGlite in DATA_DIR, whose folder it locks as create-admin does (so it is refused while the server runs). A data
 * folder without a database yet is planned on an empty one, in memory: what the first start will do.
 */
export async function planDatabase(
  manifestMigrations: string,
  draft: DraftForPlan | null,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ database: string; report: PlanReport }> {
  const databaseUrl = env.DATABASE_URL || null;
  const folder = dataFolder(env);
  const exists = databaseUrl !== null || existsSync(join(folder, 'pglite'));
  const lock = databaseUrl === null && exists ? await lockDataFolder(folder, 'plan') : null;
  try {
    const db = await openDatabase({
      databaseUrl,
      databaseSchema: env.DATABASE_SCHEMA || null,
      dataDir: exists ? folder : null,
    });
    try {
      const report = await planMigrations(db, { core: DEFAULT_SOURCES.core, manifest: manifestMigrations }, draft);
      const database = databaseUrl
        ? 'PostgreSQL (DATABASE_URL)'
        : exists
          ? `PGlite in ${join(folder, 'pglite')}`
          : `no database in ${join(folder, 'pglite')} yet: planned on an empty one`;
      return { database, report };
    } finally {
      await db.close();
    }
  } finally {
    lock?.release();
  }
}
