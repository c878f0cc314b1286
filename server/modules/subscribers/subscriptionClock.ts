import type { FastifyInstance } from 'fastify';
import type { DOMAIN_EVENTS } from '../../../contract/webhooks.ts';
import type { Queryable } from '../../db/database.ts';
import { HOUR_MILLISECONDS, PeriodicJob } from '../../jobs/periodicJob.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { NO_USER } from '../audit/record.ts';
import { executiveAssignment } from '../auth/executiveScope.ts';
import { publicOrigin } from '../auth/emailLinks.ts';
import { recordLink } from '../notifications/store.ts';
import { tellPerson } from '../notifications/tellPerson.ts';
import { escapeHtml } from '../../http/html.ts';
import { dateText } from './money.ts';
import { keepSubscriberState, subscribersDueForState } from './subscriberState.ts';

/** Any constant not used by another advisory lock: one instance at a time moves the subscriptions on. */
export const SUBSCRIPTION_CLOCK_LOCK = 7_512_027;
/** The webhook event of a subscriber whose subscription became expiring (contract/webhooks.ts DOMAIN_EVENTS). */
const EXPIRING_EVENT: keyof typeof DOMAIN_EVENTS = 'subscriptions.expiring';
/** Subscribers moved on per transaction: each batch's locks and audit entries stay small, even in a first round. */
const BATCH_SIZE = 1_000;

/**
 * Once a day (checked hourly, in every instance; the lock and the day it last ran let one act once): the status and
 * plan of each subscriber whose subscriptions began, ended or came within the expiring days since the last round
 * follow them, and the people of a subscriber that became expiring or whose trial lapsed are told, in the console and
 * by e-mail, with a link to the subscriber. Batch after batch, each its own transaction that also keeps how far the
 * round has come, so a round cut short goes on where it stopped. Answers how many subscribers this call changed; 0
 * when another instance was acting.
 */
export async function moveSubscriptionsOn(app: FastifyInstance, batchSize = BATCH_SIZE): Promise<number> {
  let changed = 0;
  for (;;) {
    const batch = await moveNextBatch(app, batchSize);
    if (!batch) return changed;
    changed += batch.changed;
    if (batch.roundFinished) return changed;
  }
}

/**
 * One batch of the round under way, in one transaction: null when another instance holds the clock or today's round
 * is done.
 */
export function moveNextBatch(
  app: FastifyInstance,
  batchSize = BATCH_SIZE,
): Promise<{ changed: number; roundFinished: boolean } | null> {
  const expiringDays = app.config.subscriptions.expiringDays;
  return app.db.transaction(async (tx) => {
    const [claim] = await tx.query<{
      locked: boolean;
      today: string;
      since: string | null;
      round_on: string | null;
      done_through: string | null;
    }>(
      `SELECT pg_try_advisory_xact_lock($1) AS locked, current_date::text AS today, c.derived_on::text AS since,
              c.round_on::text AS round_on, c.done_through
         FROM (SELECT 1) one LEFT JOIN subscription_clock c ON c.id = 1`,
      [SUBSCRIPTION_CLOCK_LOCK],
    );
    if (!claim?.locked || claim.since === claim.today) return null;
    // A round begun another day looked at other days: today's starts again from the first subscriber.
    const after = claim.round_on === claim.today ? Number(claim.done_through ?? 0) : 0;
    const due = await subscribersDueForState(tx, claim.since, claim.today, expiringDays, { after, limit: batchSize });
    const changed = await keepSubscriberState({ app, tx, user: null, actor: NO_USER }, due, expiringDays, {
      action: 'subscription_state',
    });
    const expiring: number[] = [];
    for (const { id, was, now } of changed) {
      if (now.status === 'expiring' && was.status !== 'expiring') {
        await tellPeople(app, tx, id, 'expiring');
        expiring.push(id);
      }
      if (was.status === 'trial' && now.status === 'expired') await tellPeople(app, tx, id, 'trial_lapsed');
    }
    await app.records.named(MODULE.subscribers).events.publishNamed(tx, EXPIRING_EVENT, expiring);
    const roundFinished = due.length < batchSize;
    if (roundFinished) await recordClockRound(tx, claim.today);
    else await recordRoundProgress(tx, claim.today, due.at(-1)!);
    return { changed: changed.length, roundFinished };
  });
}

/** The day the clock last moved the subscriptions on: its next round looks at what changed since. */
export async function recordClockRound(db: Queryable, day: string): Promise<void> {
  await db.query(
    `INSERT INTO subscription_clock (id, derived_on) VALUES (1, $1::date)
     ON CONFLICT (id) DO UPDATE SET derived_on = excluded.derived_on, round_on = NULL, done_through = NULL`,
    [day],
  );
}

/** How far today's round has come: the last subscriber it moved on. */
async function recordRoundProgress(db: Queryable, day: string, doneThrough: number): Promise<void> {
  await db.query(
    `INSERT INTO subscription_clock (id, round_on, done_through) VALUES (1, $1::date, $2)
     ON CONFLICT (id) DO UPDATE SET round_on = excluded.round_on, done_through = excluded.done_through`,
    [day, doneThrough],
  );
}

export function subscriptionClock(app: FastifyInstance): PeriodicJob {
  return new PeriodicJob(
    'subscription clock',
    async () => {
      const changed = await moveSubscriptionsOn(app);
      if (changed > 0) app.log.info({ changed }, "subscribers' status moved on with their subscriptions");
    },
    HOUR_MILLISECONDS,
    app.log,
  );
}

type News = 'expiring' | 'trial_lapsed';

/** The assigned executive and the administrators (who sell to every subscriber): a notification and an e-mail each. */
async function tellPeople(app: FastifyInstance, tx: Queryable, subscriberId: number, news: News): Promise<void> {
  const subscribers = entityResource(MODULE.subscribers)!;
  const [subscriber] = await tx.query<{ name: string | null; ends_on: string | null }>(
    `SELECT t."name"::text AS name,
            (SELECT max(s.ends_on)::text FROM subscriber_subscriptions s WHERE s.subscriber_id = t.id AND s.cancelled_at IS NULL) AS ends_on
       FROM ${quoted(subscribers.entity.table)} t WHERE t.id = $1`,
    [subscriberId],
  );
  const name = subscriber?.name ?? `Subscriber ${subscriberId}`;
  const link = recordLink(MODULE.subscribers, 'SUBSCRIBER_DETAIL', subscriberId);
  const what =
    news === 'expiring'
      ? `'s subscription ends on ${subscriber?.ends_on ? dateText(subscriber.ends_on) : 'soon'}`
      : "'s trial ended without a subscription";
  const subject = news === 'expiring' ? `${name}'s subscription is ending` : `${name}'s trial ended`;
  const html = `<b>${escapeHtml(name)}</b>${escapeHtml(what)}.`;
  const told = { subject, html, text: `${name}${what}.`, link, opens: 'the subscriber' };
  for (const person of await peopleOf(tx, subscriberId)) await tellPerson(tx, person, told, publicOrigin(app));
}

async function peopleOf(
  tx: Queryable,
  subscriberId: number,
): Promise<Array<{ id: number; email: string; first_name: string | null }>> {
  const assignment = executiveAssignment();
  const subscribers = entityResource(MODULE.subscribers)!;
  const assigned = !assignment
    ? 'false'
    : assignment.via
      ? `u.id IN (SELECT e.${quoted(assignment.via.userField)} FROM ${quoted(assignment.via.table)} e JOIN ${quoted(subscribers.entity.table)} t ON t.${quoted(assignment.field)} = e.id WHERE t.id = $1)`
      : `u.id IN (SELECT t.${quoted(assignment.field)} FROM ${quoted(subscribers.entity.table)} t WHERE t.id = $1)`;
  return tx.query(
    `SELECT u.id, u.email, u.first_name FROM users u
      WHERE u.is_active AND (${assigned} OR (
            u.role_id IN (SELECT role_id FROM role_permissions WHERE module = $2 AND action = 'ADD_SUBSCRIPTION')
        AND u.role_id NOT IN (SELECT role_id FROM role_permissions WHERE module = $2 AND action = 'executive_access')))
      ORDER BY u.id`,
    [subscriberId, MODULE.subscribers],
  );
}
