import { join } from 'node:path';
import type { ServerConfig } from '../config.ts';
import type { Database } from './database.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/** PostgreSQL when DATABASE_URL is set, otherwise PGlite in the data folder (or in memory without one). */
export function openDatabase(
  config: Pick<ServerConfig, 'databaseUrl' | 'databaseSchema' | 'dataDir'> &
    Partial<Pick<ServerConfig, 'databasePoolSize'>>,
): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config.databaseSchema, config.databasePoolSize);
  return openPglite(config.dataDir ? join(config.dataDir, 'pglite') : null);
}
