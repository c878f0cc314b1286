import { join } from 'node:path';
import type { ServerConfig } from '../config.ts';
import type { Database } from './database.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/** PostgreSQL when DATABASE_URL is set, otherwise PGlite in the data folder (or in memory without one). */
export function openDatabase(config: Pick<ServerConfig, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config.databaseSchema);
  return openPglite(config.dataDir ? join(config.dataDir, 'pglite') : null);
}
