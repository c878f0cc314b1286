import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataShape } from './dataShape.ts';

/** Where the manifest's migrations are committed, under the project root: the CLI writes them, the server applies them. */
export const MANIFEST_MIGRATIONS = 'server/migrations/manifest';

/** A migration of the manifest's tables: `NNNN_name.sql` and the data shape it leaves, `NNNN_name.shape.json`. */
export interface ManifestMigration {
  /** `0002` */
  number: string;
  /** `0002_voucher_details` */
  name: string;
  /** What schema_migrations records: `manifest/0002_voucher_details`. */
  version: string;
  sql: string;
  shape: DataShape;
}

export interface ManifestMigrationFolder {
  migrations: ManifestMigration[];
  /** Files that do not make a migration, each said with its fix; the folder cannot be trusted while there are any. */
  problems: string[];
}

const FILE = /^(\d{4})_([a-z0-9_]+)\.(sql|shape\.json)$/;

/** The migrations of a folder in order (a missing folder has none). */
export async function readManifestMigrations(dir: string): Promise<ManifestMigrationFolder> {
  const files = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const names = new Set(
    files.filter((file) => FILE.test(file)).map((file) => file.replace(/\.(sql|shape\.json)$/, '')),
  );
  const problems: string[] = [];
  const migrations: ManifestMigration[] = [];
  for (const name of [...names].sort()) {
    const number = name.slice(0, 4);
    const [sql, shape] = await Promise.all([
      readFile(join(dir, `${name}.sql`), 'utf8').catch(() => null),
      readFile(join(dir, `${name}.shape.json`), 'utf8').catch(() => null),
    ]);
    if (sql === null || shape === null) {
      problems.push(
        `${name}: ${sql === null ? `${name}.sql` : `${name}.shape.json`} is missing; a migration is both files, as make-migration writes them.`,
      );
      continue;
    }
    let parsed: DataShape;
    try {
      parsed = JSON.parse(shape) as DataShape;
    } catch (error) {
      problems.push(`${name}.shape.json is not JSON (${(error as Error).message}).`);
      continue;
    }
    if (migrations.at(-1)?.number === number) {
      problems.push(
        `${migrations.at(-1)!.name} and ${name} share the number ${number} (written on two branches): keep the one already applied somewhere, remove the other and write it again with make-migration.`,
      );
      continue;
    }
    migrations.push({ number, name, version: `manifest/${name}`, sql, shape: parsed });
  }
  return { migrations, problems };
}
