import type { FastifyBaseLogger } from 'fastify';

/** The interval of the hourly jobs: the trash retention, the cleanup of abandoned imports. */
export const HOUR_MILLISECONDS = 60 * 60_000;

export interface JobRound {
  /** When it ended, in milliseconds since the epoch. */
  endedAt: number;
  succeeded: boolean;
  seconds: number;
}

const startedJobs = new Set<PeriodicJob>();

/** The jobs started in this process and not stopped. */
export function runningJobs(): readonly PeriodicJob[] {
  return [...startedJobs];
}

/**
 * A round of background work run at start and again `intervalMilliseconds` after each round ends, never two at once
 * in one process. A failed round is logged and the next one still comes; a stop cancels the wait and waits for the
 * round in flight. Timers are unref'd: a job never keeps the process alive on its own.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private stopped = false;
  /** How the last round went (the metrics endpoint reports it); null before the first round ends. */
  lastRound: JobRound | null = null;

  constructor(
    /** Names the job in the log line of a failed round and in the metrics. */
    readonly name: string,
    private readonly runRound: () => Promise<unknown>,
    private readonly intervalMilliseconds: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Whether a stop has been asked for since the last start: a long round may end early. */
  get stopping(): boolean {
    return this.stopped;
  }

  start(): void {
    this.stopped = false;
    startedJobs.add(this);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    startedJobs.delete(this);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.round;
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const started = performance.now();
      const ended = (succeeded: boolean) =>
        (this.lastRound = { endedAt: Date.now(), succeeded, seconds: (performance.now() - started) / 1000 });
      this.round = this.runRound()
        .then(() => void ended(true))
        .catch((error: unknown) => {
          ended(false);
          this.log.error({ err: error }, `${this.name} failed`);
        })
        .finally(() => {
          this.round = null;
          this.schedule(this.intervalMilliseconds);
        });
    }, delay);
    this.timer.unref();
  }
}
