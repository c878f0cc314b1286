import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { RetrySchedule } from '../../config.ts';
import { PeriodicJob } from '../../jobs/periodicJob.ts';
import { retryDelay } from '../../jobs/retryDelay.ts';
import type { Database } from '../../db/database.ts';
import { claimDueMail, failOverdueMail, markFailed, markRetry, markSent, type ClaimedMail } from './outbox.ts';
import { failureReason, isPermanentFailure, type MailTransport } from './transports.ts';

/** Messages claimed at a time: a claim holds them all for the same while, so a small batch keeps the rest free. */
const BATCH = 10;

/**
 * Delivers the outbox, in every instance: it looks for due messages every `pollMilliseconds`, claims a few in the
 * database (so instances share the work and never take the same message at once), sends each, and records the
 * outcome. A failure is retried with a doubling wait; a message the mail server refused for good, or one still not
 * delivered when its link expires, is marked failed with the reason. Nothing is kept in memory: a message whose
 * instance stopped mid-send is taken up by any instance once its claim runs out.
 */
export class MailDelivery {
  private readonly job: PeriodicJob;

  constructor(
    private readonly db: Database,
    private readonly transport: MailTransport,
    private readonly log: FastifyBaseLogger,
    private readonly schedule: RetrySchedule,
  ) {
    this.job = new PeriodicJob('e-mail delivery round', () => this.deliverDue(), schedule.pollMilliseconds, log);
  }

  get transportKind(): MailTransport['kind'] {
    return this.transport.kind;
  }

  start(): void {
    this.job.start();
  }

  /** Stops looking for messages and waits for the sends in flight, then closes the transport. */
  async stop(): Promise<void> {
    await this.job.stop();
    this.transport.close();
  }

  /** Claims and sends what is due now, until nothing is; resolves with how many messages were attempted. */
  async deliverDue(): Promise<number> {
    await failOverdueMail(this.db, this.schedule.giveUpAfterMilliseconds);
    let attempted = 0;
    while (!this.job.stopping) {
      const claimId = randomUUID();
      const claimed = await claimDueMail(this.db, claimId, this.schedule.claimMilliseconds, BATCH);
      for (const mail of claimed) await this.attempt(mail, claimId);
      attempted += claimed.length;
      if (claimed.length < BATCH) break;
    }
    return attempted;
  }

  private async attempt(mail: ClaimedMail, claimId: string): Promise<void> {
    let recorded: boolean;
    try {
      await this.transport.send(mail);
      recorded = await markSent(this.db, mail, claimId, this.transport.kind);
      this.log.info({ mail: mail.id, to: mail.to, attempt: mail.attempt }, 'e-mail sent');
    } catch (error) {
      const reason = failureReason(error);
      if (isPermanentFailure(error)) {
        recorded = await markFailed(this.db, mail, claimId, reason);
        this.log.error({ mail: mail.id, to: mail.to, attempt: mail.attempt, reason }, 'e-mail refused for good');
      } else {
        const delay = retryDelay(this.schedule, mail.attempt);
        recorded = await markRetry(this.db, mail, claimId, delay, reason);
        this.log.warn(
          { mail: mail.id, to: mail.to, attempt: mail.attempt, reason, retryInMs: delay },
          'e-mail not sent; will try again',
        );
      }
    }
    // The claim ran out before the outcome was recorded (the attempt outlasted it): another instance may have it now.
    if (!recorded)
      this.log.warn({ mail: mail.id, attempt: mail.attempt }, 'e-mail claim ran out before its outcome was recorded');
  }
}
