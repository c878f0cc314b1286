/** The home screen's figures: each read as the list its card links to would count it, within the caller's scope. */
import type { Queryable, Row } from '../../db/database.ts';
import { SqlParams, type Scope } from '../../db/sqlParams.ts';
import {
  DATA_UPLOAD_FIELDS,
  MODULE,
  SUBSCRIBER_FIELDS,
  entityResource,
  type SubscriberStatus,
} from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { auditConditions } from '../audit-log/query.ts';
import type { SessionUser } from '../auth/session.ts';

/** First and last day (inclusive, `YYYY-MM-DD`) of a month: the range its list filter and report are given. */
export interface MonthRange {
  from: string;
  to: string;
}

export interface SubscriberFigures {
  expiring: number;
  trials: number;
  newThisMonth: number;
  newLastMonth: number;
}

/** The statuses of an upload not yet settled: its file still arriving, or being imported. */
export const QUEUED_UPLOAD_STATUSES = ['pending', 'processing'] as const;

export interface UploadFigures {
  queued: number;
  /** Imported, held for a reviewer (needs_review). */
  review: number;
  failed: number;
}

export interface LastUpload extends Row {
  id: number;
  country_id: number;
  country: string | null;
  trade_direction: string;
  period: string;
  status: string;
  created_at: string;
}

export interface RecentChange extends Row {
  id: number;
  at: string;
  user_email: string | null;
  api_token: string | null;
  module: string;
  record_id: number | null;
  action: string;
}

/** A month range as its bounds in SQL: from its first moment to before the day after its last, as list filters read it. */
function within(column: string, month: MonthRange, params: SqlParams): string {
  return `${column} >= ${params.add(month.from)}::date AND ${column} < ${params.add(month.to)}::date + 1`;
}

/** One scan of the caller's subscribers for every subscriber figure. */
export async function subscriberFigures(
  db: Queryable,
  scope: Scope | null,
  thisMonth: MonthRange,
  lastMonth: MonthRange,
): Promise<SubscriberFigures> {
  const subscribers = entityResource(MODULE.subscribers);
  if (!subscribers) return { expiring: 0, trials: 0, newThisMonth: 0, newLastMonth: 0 };
  const params = new SqlParams();
  const status = `t.${quoted(SUBSCRIBER_FIELDS.status.field)}`;
  const [row] = await db.query<Record<keyof SubscriberFigures, number>>(
    `SELECT count(*) FILTER (WHERE ${status} = ${params.add('expiring' satisfies SubscriberStatus)})::int AS "expiring",
            count(*) FILTER (WHERE ${status} = ${params.add('trial' satisfies SubscriberStatus)})::int AS "trials",
            count(*) FILTER (WHERE ${within('t.created_at', thisMonth, params)})::int AS "newThisMonth",
            count(*) FILTER (WHERE ${within('t.created_at', lastMonth, params)})::int AS "newLastMonth"
       FROM ${quoted(subscribers.entity.table)} t ${scope ? `WHERE ${scope(params)}` : ''}`,
    params.values,
  );
  return {
    expiring: row?.expiring ?? 0,
    trials: row?.trials ?? 0,
    newThisMonth: row?.newThisMonth ?? 0,
    newLastMonth: row?.newLastMonth ?? 0,
  };
}

/** Money received in each month: the sum of payments by the day they were received (docs/api.md, "Revenue"). */
export async function revenue(
  db: Queryable,
  thisMonth: MonthRange,
  lastMonth: MonthRange,
): Promise<{ thisMonth: number; lastMonth: number }> {
  const params = new SqlParams();
  const [row] = await db.query<{ this_month: number; last_month: number }>(
    `SELECT coalesce(sum(amount) FILTER (WHERE ${within('received_at', thisMonth, params)}), 0)::float8 AS this_month,
            coalesce(sum(amount) FILTER (WHERE ${within('received_at', lastMonth, params)}), 0)::float8 AS last_month
       FROM payments WHERE received_at >= ${params.add(lastMonth.from)}::date`,
    params.values,
  );
  return { thisMonth: Number(row?.this_month ?? 0), lastMonth: Number(row?.last_month ?? 0) };
}

export async function uploadFigures(db: Queryable, scope: Scope | null): Promise<UploadFigures> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  if (!uploads) return { queued: 0, review: 0, failed: 0 };
  const params = new SqlParams();
  const status = `t.${quoted(DATA_UPLOAD_FIELDS.status.field)}`;
  const [row] = await db.query<{ queued: number; review: number; failed: number }>(
    `SELECT count(*) FILTER (WHERE ${status} = ANY(${params.add([...QUEUED_UPLOAD_STATUSES])}::text[]))::int AS queued,
            count(*) FILTER (WHERE ${status} = ${params.add('needs_review')})::int AS review,
            count(*) FILTER (WHERE ${status} = ${params.add('failed')})::int AS failed
       FROM ${quoted(uploads.entity.table)} t ${scope ? `WHERE ${scope(params)}` : ''}`,
    params.values,
  );
  return { queued: row?.queued ?? 0, review: row?.review ?? 0, failed: row?.failed ?? 0 };
}

/**
 * The newest upload of each country and trade direction (the first row of the uploads list filtered to them, whose
 * order is newest first), the most recent `limit` of them.
 */
export async function lastUploads(db: Queryable, scope: Scope | null, limit: number): Promise<LastUpload[]> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  const fields = DATA_UPLOAD_FIELDS;
  const country = uploads?.entity.fields.find((field) => field.name === fields.country.field)?.relation;
  if (!uploads || !country) return [];
  const params = new SqlParams();
  const [countryId, direction] = [`t.${quoted(fields.country.field)}`, `t.${quoted(fields.tradeDirection.field)}`];
  return db.query<LastUpload>(
    `SELECT u.*, c.${quoted(country.labelField)}::text AS country FROM (
        SELECT DISTINCT ON (${countryId}, ${direction}) t.id, ${countryId} AS country_id, ${direction} AS trade_direction,
               t.${quoted(fields.period.field)} AS period, t.${quoted(fields.status.field)} AS status, t.created_at
          FROM ${quoted(uploads.entity.table)} t ${scope ? `WHERE ${scope(params)}` : ''}
         ORDER BY ${countryId}, ${direction}, t.created_at DESC, t.id DESC
      ) u LEFT JOIN ${quoted(country.table)} c ON c.id = u.country_id
      ORDER BY u.created_at DESC, u.id DESC LIMIT ${params.add(limit)}`,
    params.values,
  );
}

/** The newest entries of the audit log the caller may read (an executive: theirs and their subscribers'). */
export async function recentChanges(db: Queryable, caller: SessionUser, limit: number): Promise<RecentChange[]> {
  const params = new SqlParams();
  const where = auditConditions({}, caller, params);
  return db.query<RecentChange>(
    `SELECT id, at, user_email, api_token, module, record_id, action FROM audit_log ${where} ORDER BY at DESC, id DESC LIMIT ${params.add(limit)}`,
    params.values,
  );
}
