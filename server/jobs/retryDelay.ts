import type { RetrySchedule } from '../config.ts';

/** The wait after attempt `attempt` failed: the first retry's wait, doubled each time, up to the longest. */
export function retryDelay(schedule: RetrySchedule, attempt: number): number {
  return Math.min(schedule.firstRetryMilliseconds * 2 ** Math.max(0, attempt - 1), schedule.maxRetryMilliseconds);
}
