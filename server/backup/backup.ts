// Backups of the embedded database (PGlite): one gzip'd tar of its data directory, made by the process that holds the
// data folder, between statements, so the copy is consistent. PostgreSQL is backed up with its own tools (docs/deploy.md).
import { createHmac } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { writeFileWhole } from '../start/dataFolderLock.ts';
import type { Database } from '../db/database.ts';
import { HOUR_MILLISECONDS, PeriodicJob } from '../jobs/periodicJob.ts';

/** A scheduled backup's file name: `backup-20261127T163000Z.tar.gz`, so names sort as times do. */
const SCHEDULED_NAME = /^backup-\d{8}T\d{6}Z\.tar\.gz$/;

export interface BackupSchedule {
  /** Where scheduled backups are written (BACKUP_DIR); null: no scheduled backups. */
  folder: string | null;
  /** Hours between two (BACKUP_EVERY_HOURS); the first is made at start. */
  everyHours: number;
  /** How many are kept (BACKUP_KEEP): the oldest beyond it are removed after a new one is written. */
  keep: number;
}

/** The database's files as a gzip'd tar, or null for a database that is not embedded. */
export async function dumpDatabase(db: Database): Promise<Uint8Array | null> {
  if (!db.dumpDataDir) return null;
  return new Uint8Array(await (await db.dumpDataDir()).arrayBuffer());
}

/**
 * The bearer token of the data folder's operator (`npm run backup` asking the running server): derived from the JWT
 * secret, which only whoever can read the data folder (or the server's environment) has.
 */
export function operatorToken(jwtSecret: Uint8Array): string {
  return createHmac('sha256', jwtSecret).update('data-folder-operator').digest('hex');
}

/** One scheduled backup: written into the folder, then the oldest beyond `keep` removed. Returns the file written. */
export async function scheduledBackup(
  db: Database,
  schedule: BackupSchedule & { folder: string },
  now = new Date(),
): Promise<string | null> {
  const bytes = await dumpDatabase(db);
  if (!bytes) return null;
  const file = join(
    schedule.folder,
    `backup-${now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z')}.tar.gz`,
  );
  writeFileWhole(file, bytes);
  const backups = readdirSync(schedule.folder)
    .filter((name) => SCHEDULED_NAME.test(name))
    .sort();
  for (const old of backups.slice(0, Math.max(0, backups.length - schedule.keep)))
    rmSync(join(schedule.folder, old), { force: true });
  return file;
}

/** The scheduled backups of an embedded database, or null when none are asked for (or the database is PostgreSQL). */
export function backupJob(db: Database, schedule: BackupSchedule, log: FastifyBaseLogger): PeriodicJob | null {
  const { folder } = schedule;
  if (!folder || !db.dumpDataDir) return null;
  return new PeriodicJob(
    'scheduled backup',
    () => scheduledBackup(db, { ...schedule, folder }),
    schedule.everyHours * HOUR_MILLISECONDS,
    log,
  );
}
