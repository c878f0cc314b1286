import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { HOUR_MILLISECONDS, PeriodicJob } from '../../jobs/periodicJob.ts';
import { retryDelay } from '../../jobs/retryDelay.ts';
import {
  claimDueDeliveries,
  purgeOldDeliveries,
  recordAttempt,
  signedHeaders,
  type ClaimedDelivery,
} from './deliveries.ts';
import { pauseWhenNothingGetsThrough } from './pausing.ts';
import { postToReceiver } from './send.ts';

/** Deliveries claimed at a time, and sent at once: one slow receiver holds up at most this batch. */
const BATCH = 10;

/**
 * Sends the webhook outbox, in every instance, as the e-mail outbox is sent: it looks for due deliveries every
 * `pollMilliseconds`, claims a few in the database (instances share the work and never take the same one at once),
 * posts each, signed, and records the receiver's answer. A failure is retried with a doubling wait until
 * `giveUpAfterMilliseconds` after the event; an address the server may not send to fails at once. A webhook to which
 * nothing got through since the event of a delivery that failed for good is paused (pausing.ts). Nothing is kept in
 * memory: a delivery whose instance stopped mid-send is taken up by any instance once its claim runs out.
 */
export class WebhookDelivery {
  private readonly job: PeriodicJob;
  private readonly purge: PeriodicJob;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly config: WebhookConfig,
    /** Where the console is, for the link in the e-mail telling a webhook's maker it was paused. */
    private readonly consoleOrigin: string,
  ) {
    this.job = new PeriodicJob('webhook delivery round', () => this.deliverDue(), config.pollMilliseconds, log);
    this.purge = new PeriodicJob(
      'webhook delivery log cleanup',
      () => purgeOldDeliveries(db, config.keptDays),
      HOUR_MILLISECONDS,
      log,
    );
  }

  start(): void {
    this.job.start();
    this.purge.start();
  }

  /** Stops looking for deliveries and waits for the attempts in flight. */
  async stop(): Promise<void> {
    await Promise.all([this.job.stop(), this.purge.stop()]);
  }

  /** Claims and sends what is due now, until nothing is; resolves with how many attempts were made. */
  async deliverDue(): Promise<number> {
    let attempted = 0;
    while (!this.job.stopping) {
      const claimId = randomUUID();
      const claimed = await claimDueDeliveries(this.db, claimId, this.config.claimMilliseconds, BATCH);
      await Promise.all(claimed.map((delivery) => this.attempt(delivery, claimId)));
      attempted += claimed.length;
      if (claimed.length < BATCH) break;
    }
    return attempted;
  }

  private async attempt(delivery: ClaimedDelivery, claimId: string): Promise<void> {
    const answer = await postToReceiver(
      delivery.url,
      signedHeaders(delivery, new Date()),
      delivery.body,
      this.config.receivers,
    );
    const context = { delivery: delivery.id, event: delivery.event, attempt: delivery.attempts };
    let recorded: boolean;
    if (answer.error === null) {
      recorded = await recordAttempt(this.db, delivery, claimId, answer, 'delivered');
      this.log.info({ ...context, status: answer.status }, 'webhook delivered');
    } else {
      const wait = retryDelay(this.config, delivery.attempts);
      const givenUp = Date.now() + wait - new Date(delivery.created_at).getTime() > this.config.giveUpAfterMilliseconds;
      if (answer.permanent || givenUp) {
        const error = answer.error;
        const outcome = await this.db.transaction(async (tx) => {
          if (!(await recordAttempt(tx, delivery, claimId, answer, 'failed')))
            return { recorded: false, paused: false };
          return { recorded: true, paused: await pauseWhenNothingGetsThrough(tx, delivery, error, this.consoleOrigin) };
        });
        recorded = outcome.recorded;
        this.log.error({ ...context, reason: error }, 'webhook delivery failed for good');
        if (outcome.paused)
          this.log.warn({ ...context, webhook: delivery.webhook_id }, 'webhook paused: nothing gets through');
      } else {
        recorded = await recordAttempt(this.db, delivery, claimId, answer, 'pending', wait);
        this.log.warn({ ...context, reason: answer.error, retryInMs: wait }, 'webhook not delivered; will try again');
      }
    }
    if (!recorded) this.log.warn(context, 'webhook claim ran out before its outcome was recorded');
  }
}
