import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { dumpDatabase, operatorToken } from '../backup/backup.ts';
import { BACKUP_PATH } from '../backup/routes.ts';
import { dataFolder, listenAddress, loadConfig } from '../start/loadConfig.ts';
import { DataFolderInUse, lockDataFolder, writeFileWhole } from '../start/dataFolderLock.ts';
import { openDatabase } from '../db/open.ts';

/**
 * npm run backup -- --out FILE [--url http://127.0.0.1:8080]: a consistent backup of the embedded database of DATA_DIR.
 * A stopped server's folder is read here; a running server's is asked of that server (it holds the folder), at its
 * HOST and PORT or --url, with the operator token derived from the JWT secret.
 */
async function backup(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, url: { type: 'string' } } });
  if (!values.out) throw new Error('Give the backup file: npm run backup -- --out FILE');
  if (process.env.DATABASE_URL)
    throw new Error('DATABASE_URL is set: back PostgreSQL up with pg_dump (docs/deploy.md, "Backups").');
  const out = resolve(values.out);
  const folder = dataFolder();
  let bytes: Uint8Array;
  try {
    const lock = await lockDataFolder(folder, 'backup');
    try {
      const db = await openDatabase(loadConfig());
      try {
        bytes = (await dumpDatabase(db))!;
      } finally {
        await db.close();
      }
    } finally {
      lock.release();
    }
  } catch (error) {
    if (!(error instanceof DataFolderInUse) || error.holder?.program !== 'the server') throw error;
    const { host, port } = listenAddress();
    const url = new URL(BACKUP_PATH, values.url ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`);
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${operatorToken(loadConfig().jwtSecret)}` },
    });
    if (!response.ok)
      throw new Error(`The server at ${url.origin} answered ${response.status} ${await response.text()}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  }
  writeFileWhole(out, bytes);
  console.info(
    `Backup of ${folder} written to ${out} (${(bytes.length / 1024 / 1024).toFixed(1)} MiB). Uploaded files are in ${resolve(folder, 'files')}: copy them too.`,
  );
}

backup().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
