import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataShape } from '../../contract/dataShape.ts';
import { readManifestMigrations } from '../../contract/manifestMigrations.ts';
import { migrationSteps, type MigrationStep } from '../../contract/migrationSteps.ts';

/** The two folders of migrations: the server's own tables (hand-written), then the manifest's (written by the CLI). */
export interface MigrationSources {
  core: string;
  manifest: string;
}

export const DEFAULT_SOURCES: MigrationSources = {
  core: new URL('../migrations/', import.meta.url).pathname,
  manifest: new URL('../migrations/manifest/', import.meta.url).pathname,
};

export interface Migration {
  /** What schema_migrations records: `001_core`, `manifest/0002_voucher_details`. */
  version: string;
  series: 'core' | 'manifest';
  steps: MigrationStep[];
  /** SHA-256 of the file: an applied migration that changed afterwards is refused. */
  checksum: string;
}

export interface KnownMigrations {
  /** Core migrations in order, then the manifest's. */
  migrations: Migration[];
  /** The data shape the last manifest migration leaves, which the database must have once they are applied. */
  shape: DataShape | null;
}

/** The migrations the code knows; a manifest folder the CLI would not accept (a file missing, a number twice) is refused. */
export async function knownMigrations(sources: MigrationSources): Promise<KnownMigrations> {
  const coreFiles = (await readdir(sources.core)).filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name)).sort();
  const core = await Promise.all(
    coreFiles.map(async (file): Promise<Migration> => {
      const sql = await readFile(join(sources.core, file), 'utf8');
      const version = file.replace(/\.sql$/, '');
      return {
        version,
        series: 'core',
        steps: [{ title: `the server's tables: ${version}`, rows: null, sql }],
        checksum: sha256(sql),
      };
    }),
  );
  const folder = await readManifestMigrations(sources.manifest);
  if (folder.problems.length > 0)
    throw new Error(`The manifest's migrations in ${sources.manifest} cannot be applied: ${folder.problems.join(' ')}`);
  const manifest = folder.migrations.map((migration): Migration => ({
    version: migration.version,
    series: 'manifest',
    steps: migrationSteps(migration.sql),
    checksum: sha256(migration.sql),
  }));
  return { migrations: [...core, ...manifest], shape: folder.migrations.at(-1)?.shape ?? null };
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
