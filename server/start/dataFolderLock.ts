import {
  closeSync,
  constants,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { tryLock } from 'fs-native-extensions';

/** Locked by the process that uses the folder; never rewritten or removed, so every process locks the same file. */
export const LOCK_FILE = 'lock';
/** Who holds the lock: written (whole, by rename) once the lock is held, removed when it is released. */
export const HOLDER_FILE = 'lock-holder.json';

export interface DataFolderHolder {
  /** What holds it: "the server", "create-admin". */
  program: string;
  pid: number;
  host: string;
  startedAt: string;
}

export interface DataFolderLock {
  folder: string;
  /** Drops the lock (also done when the process exits; the operating system drops it when the process dies). */
  release(): void;
}

export class DataFolderInUse extends Error {
  constructor(
    readonly folder: string,
    readonly holder: DataFolderHolder | null,
  ) {
    super(
      `The data folder ${folder} is in use by ${holder ? describeHolder(holder) : 'another process (which has not recorded itself yet)'}; ` +
        'nothing was changed. Stop that process first, or give this one another DATA_DIR.',
    );
    this.name = 'DataFolderInUse';
  }
}

/** A refused process looks this long for the holder's record, which the holder writes right after taking the lock. */
const HOLDER_RECORD_WAIT_MS = 1_000;

/**
 * Takes the data folder for this process, before anything is opened or written in it: an exclusive lock held by the
 * operating system on `LOCK_FILE` (an open-file-description lock on Linux, LockFileEx on Windows). The lock lives
 * as long as the descriptor, so a process killed at any moment leaves no lock behind, whatever the pid is reused
 * for, and there is nothing stale to detect or clean up. A refused process changes nothing in the folder.
 */
export async function lockDataFolder(folder: string, program: string): Promise<DataFolderLock> {
  mkdirSync(folder, { recursive: true });
  const descriptor = openSync(join(folder, LOCK_FILE), constants.O_RDWR | constants.O_CREAT, 0o600);
  let held = false;
  try {
    held = tryLock(descriptor);
  } finally {
    if (!held) closeSync(descriptor);
  }
  if (!held) throw new DataFolderInUse(folder, await holderOf(folder));

  writeHolder(folder, { program, pid: process.pid, host: hostname(), startedAt: new Date().toISOString() });
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    rmSync(join(folder, HOLDER_FILE), { force: true });
    closeSync(descriptor);
  };
  process.on('exit', release);
  return { folder, release };
}

function describeHolder(holder: DataFolderHolder): string {
  const host = holder.host === hostname() ? '' : ` on ${holder.host}`;
  return `${holder.program} (pid ${holder.pid}${host}, started ${holder.startedAt})`;
}

/** The record of a process that is alive; one left by a process that died is the previous holder's, not the current. */
async function holderOf(folder: string): Promise<DataFolderHolder | null> {
  const deadline = Date.now() + HOLDER_RECORD_WAIT_MS;
  for (;;) {
    const holder = readHolder(folder);
    if (holder && (holder.host !== hostname() || isAlive(holder.pid))) return holder;
    if (Date.now() >= deadline) return null;
    await sleep(50);
  }
}

function readHolder(folder: string): DataFolderHolder | null {
  try {
    const holder = JSON.parse(readFileSync(join(folder, HOLDER_FILE), 'utf8')) as Partial<DataFolderHolder>;
    if (typeof holder.pid !== 'number' || typeof holder.program !== 'string' || typeof holder.startedAt !== 'string')
      return null;
    return {
      program: holder.program,
      pid: holder.pid,
      host: String(holder.host ?? hostname()),
      startedAt: holder.startedAt,
    };
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Written whole or not at all, so a kill at any moment leaves the old record or the new. */
function writeHolder(folder: string, holder: DataFolderHolder): void {
  writeFileWhole(join(folder, HOLDER_FILE), new TextEncoder().encode(`${JSON.stringify(holder)}\n`));
}

/** Writes `bytes` to `path` whole or not at all: a file beside it, flushed to disk, then renamed over it. */
export function writeFileWhole(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.partial`;
  const descriptor = openSync(partial, 'w', 0o600);
  try {
    for (let written = 0; written < bytes.length;) written += writeSync(descriptor, bytes, written);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  renameSync(partial, path);
}
