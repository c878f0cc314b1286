import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../db/database.ts';
import { DEFAULT_SOURCES, knownMigrations } from '../db/knownMigrations.ts';
import { migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { DATA_SHAPE } from '../registry.ts';

const PGLITE_PACKAGE = new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url);

let image: Promise<Blob> | null = null;

/**
 * An in-memory PGlite with every migration applied. A new cluster costs seconds of initdb, so each starts from an image
 * of one already migrated: made once per machine for these migrations and this PGlite, kept in the temporary folder.
 */
export async function openMigratedPglite(): Promise<Database> {
  image ??= migratedImage();
  return openPglite(null, { image: await image });
}

async function migratedImage(): Promise<Blob> {
  const { version } = JSON.parse(await readFile(PGLITE_PACKAGE, 'utf8')) as { version: string };
  const { migrations } = await knownMigrations(DEFAULT_SOURCES);
  const key = createHash('sha256')
    .update(JSON.stringify([version, migrations.map((migration) => [migration.version, migration.checksum])]))
    .digest('hex')
    .slice(0, 16);
  const file = join(tmpdir(), `trade-console-migrated-pglite-${key}.tar.gz`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    // Not made on this machine yet: made below.
  }
  const db = await openPglite(null);
  await migrate(db, { manifestShape: DATA_SHAPE });
  const made = await db.dumpDataDir!();
  await db.close();
  // Written whole under another name, then renamed: a test file starting meanwhile reads a whole image or none.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(partial, new Uint8Array(await made.arrayBuffer()));
  await rename(partial, file);
  return made;
}
