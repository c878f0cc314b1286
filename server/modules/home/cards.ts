/** The home screen's cards for one caller: the figures its role may see, each with the console list that shows it. */
import { AUDIT_ACTIONS, AUDIT_MODULE_LABELS, changedBy } from '../../../contract/audit.ts';
import {
  visibleHomeCards,
  type HomeCard,
  type HomeCardKey,
  type HomeFigure,
  type HomeItem,
} from '../../../contract/home.ts';
import { FROM_SUFFIX, TO_SUFFIX, VALUE_SEPARATOR } from '../../../contract/listFilters.ts';
import type { Queryable } from '../../db/database.ts';
import { MODULE, SUBSCRIBER_FIELDS, area, entityResource, resource, type SubscriberStatus } from '../../registry.ts';
import type { RecordOperations } from '../resources/recordOperations.ts';
import type { ResponseCache } from '../resources/responseCache.ts';
import { listFilters } from '../resources/schemas.ts';
import type { SessionUser } from '../auth/session.ts';
import {
  lastUploads,
  QUEUED_UPLOAD_STATUSES,
  recentChanges,
  revenue,
  subscriberFigures,
  uploadFigures,
  type MonthRange,
  type SubscriberFigures,
} from './store.ts';

/** How many countries and directions, and how many changes, a card lists. */
const LAST_UPLOADS_SHOWN = 12;
const RECENT_CHANGES_SHOWN = 8;

/** A console path with its list filters in the address, as the generic list reads them (commas kept readable). */
function listLink(path: string, filters: Record<string, string | number> = {}): string {
  const query = Object.entries(filters)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value)).replaceAll('%2C', VALUE_SEPARATOR)}`)
    .join('&');
  return query ? `${path}?${query}` : path;
}

/** This month and the one before, in the calendar of `now` in UTC. */
export function monthRanges(now: Date): { thisMonth: MonthRange; lastMonth: MonthRange } {
  const day = (year: number, month: number, date: number) =>
    new Date(Date.UTC(year, month, date)).toISOString().slice(0, 10);
  const [year, month] = [now.getUTCFullYear(), now.getUTCMonth()];
  return {
    thisMonth: { from: day(year, month, 1), to: day(year, month + 1, 0) },
    lastMonth: { from: day(year, month - 1, 1), to: day(year, month, 0) },
  };
}

/** The console list of a module, as its view route names it. */
function viewPath(module: string): string {
  return resource(module)?.routes.view?.path ?? '/';
}

function enumLabel(module: string, fieldName: string, value: string): string {
  const field = entityResource(module)?.entity.fields.find((candidate) => candidate.name === fieldName);
  return field?.enumLabels?.[value] ?? value;
}

function moduleLabel(module: string): string {
  return resource(module)?.label ?? area(module)?.label ?? AUDIT_MODULE_LABELS[module] ?? module;
}

/** The address filter of a month on a list's date-time field, when the list offers that filter; else null. */
function monthFilter(module: string, fieldName: string, month: MonthRange): Record<string, string> | null {
  const list = entityResource(module);
  const offered = list && listFilters(list).some((filter) => filter.field.name === fieldName && filter.kind === 'date');
  if (!offered) return null;
  // Dates, not the console's `_range` preset: a preset is read in the browser's calendar, these figures in the server's.
  return { [`${fieldName}${FROM_SUFFIX}`]: month.from, [`${fieldName}${TO_SUFFIX}`]: month.to };
}

const count = (label: string, value: number, link: string | null): HomeFigure => ({
  label,
  value,
  unit: 'count',
  link,
  previous: null,
});

export interface HomeSources {
  db: Queryable;
  records: RecordOperations;
  /** Subscriber figures by scope and month, kept under the data version they were read at. */
  figures: ResponseCache;
}

/**
 * The subscriber figures of the caller's scope. Counting every subscriber by status and month is the one read of the
 * home screen that scans the table (status has no index), so it is kept under the data version (migration 005), which
 * moves with every change to subscribers: the sign-ins until the next change reuse it, and a change is seen at once.
 */
async function subscriberFiguresOf(
  { db, records, figures }: HomeSources,
  caller: SessionUser,
  thisMonth: MonthRange,
  lastMonth: MonthRange,
): Promise<SubscriberFigures> {
  const scope = records.named(MODULE.subscribers).scopeOf(caller);
  const key = `subscribers of ${scope ? `user ${caller.id}` : 'everyone'} in ${thisMonth.from}`;
  const read = async () => ({ body: JSON.stringify(await subscriberFigures(db, scope, thisMonth, lastMonth)) });
  return JSON.parse((await figures.response(key, caller.dataVersion, read)).body.toString()) as SubscriberFigures;
}

/** The cards `caller` may see, each read within their scope. */
export async function homeCards(sources: HomeSources, caller: SessionUser, now: Date): Promise<HomeCard[]> {
  const { db, records } = sources;
  const shown = new Set(visibleHomeCards((module, action) => caller.grants.can(module, action)));
  const { thisMonth, lastMonth } = monthRanges(now);
  const subscribersShown =
    shown.has('expiring_subscribers') || shown.has('open_trials') || shown.has('new_subscribers');
  const uploadsShown = shown.has('upload_queue') || shown.has('failed_uploads') || shown.has('last_uploads');
  const uploadsScope = uploadsShown ? records.named(MODULE.dataUploadLogs).scopeOf(caller) : null;
  const [subscribers, money, uploads, latest, changes] = await Promise.all([
    subscribersShown ? subscriberFiguresOf(sources, caller, thisMonth, lastMonth) : null,
    shown.has('revenue') ? revenue(db, thisMonth, lastMonth) : null,
    shown.has('upload_queue') || shown.has('failed_uploads') ? uploadFigures(db, uploadsScope) : null,
    shown.has('last_uploads') ? lastUploads(db, uploadsScope, LAST_UPLOADS_SHOWN) : null,
    shown.has('recent_changes') ? recentChanges(db, caller, RECENT_CHANGES_SHOWN) : null,
  ]);

  const subscribersPath = viewPath(MODULE.subscribers);
  const uploadsPath = viewPath(MODULE.dataUploadLogs);
  const reportPath = viewPath(MODULE.adminReporting);
  const auditPath = viewPath(MODULE.auditLog);
  const cards: HomeCard[] = [];
  const card = (key: HomeCardKey, title: string, link: string, figures: HomeFigure[], items: HomeItem[] = []) => {
    if (shown.has(key)) cards.push({ key, title, link, figures, items });
  };
  if (subscribers) {
    const status = SUBSCRIBER_FIELDS.status.field;
    const expiring = listLink(subscribersPath, { [status]: 'expiring' satisfies SubscriberStatus });
    const trials = listLink(subscribersPath, { [status]: 'trial' satisfies SubscriberStatus });
    card('expiring_subscribers', 'Expiring subscriptions', expiring, [
      count('subscribers whose subscription is expiring', subscribers.expiring, expiring),
    ]);
    card('open_trials', 'Open trials', trials, [count('subscribers on a trial', subscribers.trials, trials)]);
    const newIn = (month: MonthRange) => {
      const filter = monthFilter(MODULE.subscribers, 'created_at', month);
      return filter ? listLink(subscribersPath, filter) : null;
    };
    card('new_subscribers', 'New subscribers', subscribersPath, [
      {
        ...count('new subscribers this month', subscribers.newThisMonth, newIn(thisMonth)),
        previous: { label: 'new subscribers last month', value: subscribers.newLastMonth, link: newIn(lastMonth) },
      },
    ]);
  }
  if (money) {
    const report = (month: MonthRange) => listLink(reportPath, { from: month.from, to: month.to });
    card('revenue', 'Revenue', report(thisMonth), [
      {
        label: 'received this month',
        value: money.thisMonth,
        unit: 'rupees',
        link: report(thisMonth),
        previous: { label: 'received last month', value: money.lastMonth, link: report(lastMonth) },
      },
    ]);
  }
  if (uploads) {
    const queued = listLink(uploadsPath, { status: QUEUED_UPLOAD_STATUSES.join(VALUE_SEPARATOR) });
    const failed = listLink(uploadsPath, { status: 'failed' });
    const review = listLink(uploadsPath, { status: 'needs_review' });
    card('upload_queue', 'Upload queue', queued, [
      count('uploads waiting for their file or being imported', uploads.queued, queued),
      count('uploads waiting for review', uploads.review, review),
    ]);
    card('failed_uploads', 'Failed uploads', failed, [count('uploads that failed', uploads.failed, failed)]);
  }
  if (latest) {
    card(
      'last_uploads',
      'Last upload per country and direction',
      uploadsPath,
      [],
      latest.map((upload) => ({
        label: `${upload.country ?? `Country ${upload.country_id}`}, ${enumLabel(MODULE.dataUploadLogs, 'trade_direction', upload.trade_direction).toLowerCase()}`,
        detail: `${upload.period}: ${enumLabel(MODULE.dataUploadLogs, 'status', upload.status)}`,
        at: upload.created_at,
        link: listLink(uploadsPath, { country_id: upload.country_id, trade_direction: upload.trade_direction }),
      })),
    );
  }
  if (changes) {
    card(
      'recent_changes',
      'Recent changes',
      auditPath,
      [],
      changes.map((change) => ({
        label: `${AUDIT_ACTIONS[change.action as keyof typeof AUDIT_ACTIONS] ?? change.action}: ${moduleLabel(change.module)}${change.record_id === null ? '' : ` #${change.record_id}`}`,
        detail: changedBy(change) ?? 'The system',
        at: change.at,
        link: listLink(
          auditPath,
          change.record_id === null
            ? { module: change.module }
            : { module: change.module, record_id: change.record_id },
        ),
      })),
    );
  }
  return cards;
}
