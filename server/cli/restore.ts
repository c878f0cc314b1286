import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { dataFolder } from '../start/loadConfig.ts';
import { lockDataFolder } from '../start/dataFolderLock.ts';

/** npm run restore -- FILE: a backup made by `npm run backup` into DATA_DIR, which must be empty or not exist yet. */
async function restore(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('Give the backup file: npm run restore -- FILE');
  const folder = dataFolder();
  if (existsSync(folder) && readdirSync(folder).length > 0)
    throw new Error(`The data folder ${folder} is not empty: restore into an empty DATA_DIR; nothing was changed.`);
  const backup = new Blob([readFileSync(resolve(file))]);
  const lock = await lockDataFolder(folder, 'restore');
  try {
    // PGlite unpacks the tar into the folder the server opens (server/db/open.ts) and checks it starts.
    const db = await PGlite.create({ dataDir: join(folder, 'pglite'), loadDataDir: backup });
    await db.query('SELECT 1');
    await db.close();
  } finally {
    lock.release();
  }
  console.info(
    `Restored ${resolve(file)} into ${folder}. Copy the uploaded files into ${join(folder, 'files')}, then start the server.`,
  );
}

restore().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
