import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { Queryable } from '../../db/database.ts';

/** How long a lock outlives its holder's last renewal: the file of an instance that stopped mid-chunk is free after it. */
const LEASE_SECONDS = 15;
/**
 * How often a holder renews its lease and looks whether another request asked for the file. The asking request waits
 * this long at most before the holder hears of it, and then tus's drain time (3 s) for the holder's chunk to end.
 */
const RENEW_MS = 500;
/** How often a request waiting for the file tries again, and for how long in all (tus's MemoryLocker waits as long). */
const RETRY_MS = 100;
const ACQUIRE_TIMEOUT_MS = 30_000;

/**
 * The tus locker of every instance on one database: one request at a time writes or reads the state of a file, whichever
 * instance it reached (`upload_file_locks`, migration 020). A request that finds the file held asks its holder to let go,
 * as tus's in-process locker does (the holder's request is a break the client has already given up on, since it asks
 * again), and takes the file once it is free.
 */
export class UploadFileLocker implements Locker {
  constructor(private readonly db: Queryable) {}

  newLock(fileId: string): Lock {
    return new UploadFileLock(this.db, fileId);
  }

  /** The lock of a file if no request holds it now, else null; nobody is asked to let go (the cleanup of abandoned files). */
  async tryLock(fileId: string): Promise<Lock | null> {
    const lock = new UploadFileLock(this.db, fileId);
    return (await lock.take()) ? lock : null;
  }
}

class UploadFileLock implements Lock {
  private readonly holder = randomUUID();
  private renewal: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly fileId: string,
  ) {}

  async lock(signal: AbortSignal, release: RequestRelease): Promise<void> {
    const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
    while (!(await this.take())) {
      await this.db.query(
        'UPDATE upload_file_locks SET release_requested = true WHERE file_id = $1 AND NOT release_requested',
        [this.fileId],
      );
      if (signal.aborted || Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      await sleep(RETRY_MS);
    }
    this.renewal = setInterval(() => void this.renew(release), RENEW_MS);
    this.renewal.unref();
  }

  async unlock(): Promise<void> {
    if (this.renewal) clearInterval(this.renewal);
    this.renewal = null;
    await this.db.query('DELETE FROM upload_file_locks WHERE file_id = $1 AND holder = $2', [this.fileId, this.holder]);
  }

  /** Takes the file if it is free or its holder's lease lapsed. */
  async take(): Promise<boolean> {
    const taken = await this.db.query(
      `INSERT INTO upload_file_locks (file_id, holder, held_until) VALUES ($1, $2, now() + make_interval(secs => $3))
       ON CONFLICT (file_id) DO UPDATE SET holder = excluded.holder, held_until = excluded.held_until, release_requested = false
        WHERE upload_file_locks.held_until < now()
       RETURNING holder`,
      [this.fileId, this.holder, LEASE_SECONDS],
    );
    return taken.length > 0;
  }

  /** Keeps the lease while the request runs; lets go when asked, or when the lease was lost (the database was out of reach). */
  private async renew(release: RequestRelease): Promise<void> {
    try {
      const [held] = await this.db.query<{ release_requested: boolean }>(
        'UPDATE upload_file_locks SET held_until = now() + make_interval(secs => $3) WHERE file_id = $1 AND holder = $2 RETURNING release_requested',
        [this.fileId, this.holder, LEASE_SECONDS],
      );
      if (!held || held.release_requested) await release();
    } catch {
      // The database did not answer: the lease runs on until it lapses, and the next renewal tries again.
    }
  }
}
