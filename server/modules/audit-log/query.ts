import type { Queryable } from '../../db/database.ts';
import { SqlParams } from '../../db/sqlParams.ts';
import { validationError } from '../../http/errors.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import type { SessionUser } from '../auth/session.ts';
import { subscriberScope } from '../auth/executiveScope.ts';

/** The audit screen's filters (`GET audit-log` and its export alike). */
export interface AuditFilters {
  user_id?: number;
  module?: string;
  action?: string;
  record_id?: number;
  /** A date (from its first moment) or a date-time. */
  from?: string;
  /** A date (to its last moment, inclusive) or a date-time. */
  to?: string;
}

/**
 * Past this many matching entries the total is the planner's estimate (`totalIsEstimate`): counting a million
 * entries exactly for every page would cost more than the page itself.
 */
export const EXACT_TOTAL_UP_TO = 10_000;

const COLUMNS =
  'id, at, user_id, user_email, api_token, client_address, request_id, module, record_id, action, changes, details';
const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * The WHERE clause of the filters, within what the caller may read. An executive (SUBSCRIBERS `executive_access`)
 * reads only entries about the subscribers assigned to them and the entries of their own actions: the audit log holds
 * every other subscriber's changes and other users' sign-ins, which their scope does not reach.
 */
export function auditConditions(filters: AuditFilters, caller: SessionUser, params: SqlParams): string {
  checkAuditFilters(filters);
  const conditions: string[] = [];
  if (filters.user_id !== undefined) conditions.push(`user_id = ${params.add(filters.user_id)}`);
  if (filters.module !== undefined) conditions.push(`module = ${params.add(filters.module)}`);
  if (filters.action !== undefined) conditions.push(`action = ${params.add(filters.action)}`);
  if (filters.record_id !== undefined) conditions.push(`record_id = ${params.add(filters.record_id)}`);
  if (filters.from !== undefined) conditions.push(`at >= ${params.add(filters.from)}::timestamptz`);
  if (filters.to !== undefined) {
    conditions.push(
      isDateOnly(filters.to)
        ? `at < ${params.add(filters.to)}::date + 1`
        : `at <= ${params.add(filters.to)}::timestamptz`,
    );
  }
  const executive = executiveCondition(caller, params);
  if (executive) conditions.push(executive);
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
}

/** A record id names a record only within its module (and only then is it found by an index). */
export function checkAuditFilters(filters: AuditFilters): void {
  if (filters.record_id !== undefined && filters.module === undefined)
    throw validationError({ module: 'Choose the module of the record.' });
}

function executiveCondition(caller: SessionUser, params: SqlParams): string | null {
  const scope = subscriberScope(caller);
  if (!scope) return null;
  const own = `user_id = ${params.add(caller.id)}`;
  const subscribers = entityResource(MODULE.subscribers);
  if (!subscribers) return own;
  const assigned = `SELECT t.id FROM ${quoted(subscribers.entity.table)} t WHERE ${scope(params)}`;
  return `(${own} OR (module = ${params.add(MODULE.subscribers)} AND record_id IN (${assigned})))`;
}

export interface AuditPage {
  rows: Array<Record<string, unknown>>;
  total: number;
  totalIsEstimate: boolean;
}

/**
 * Past this many times `EXACT_TOTAL_UP_TO` in the planner's estimate the entries are not counted at all: the estimate
 * is the total. Nearer the bound they are counted, up to it.
 */
const COUNT_BELOW_ESTIMATE = 5 * EXACT_TOTAL_UP_TO;

/**
 * A page of entries, newest first, with the total: exact up to `EXACT_TOTAL_UP_TO`, else the planner's estimate
 * (`totalIsEstimate`). The page and the estimate are read at once; the bounded count only when the estimate is near it.
 */
export async function auditPage(
  db: Queryable,
  filters: AuditFilters,
  caller: SessionUser,
  page: number,
  pageSize: number,
): Promise<AuditPage> {
  const params = new SqlParams();
  const where = auditConditions(filters, caller, params);
  const limit = params.add(pageSize);
  const offset = params.add((page - 1) * pageSize);
  const counting = new SqlParams();
  const countWhere = auditConditions(filters, caller, counting);
  const [rows, estimate] = await Promise.all([
    db.query(
      `SELECT ${COLUMNS} FROM audit_log ${where} ORDER BY at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
      params.values,
    ),
    estimatedCount(db, `SELECT 1 FROM audit_log ${countWhere}`, counting.values),
  ]);
  if (estimate > COUNT_BELOW_ESTIMATE) return { rows, total: estimate, totalIsEstimate: true };
  const bound = counting.add(EXACT_TOTAL_UP_TO + 1);
  // In the page's order, so the planner walks the filter's index alone (an index-only scan) instead of visiting up to
  // 10,001 rows scattered over the table (a bitmap heap scan, 60 times slower on a million entries).
  const [counted] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM (SELECT 1 FROM audit_log ${countWhere} ORDER BY at DESC, id DESC LIMIT ${bound}) matching`,
    counting.values,
  );
  const total = Number(counted?.total ?? 0);
  if (total <= EXACT_TOTAL_UP_TO) return { rows, total, totalIsEstimate: false };
  return { rows, total: Math.max(estimate, total), totalIsEstimate: true };
}

/** The planner's estimate of the rows a query returns (cheap; as good as the table's statistics). */
async function estimatedCount(db: Queryable, sql: string, values: readonly unknown[]): Promise<number> {
  const [plan] = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, values);
  const document = plan?.['QUERY PLAN'];
  const parsed = (typeof document === 'string' ? JSON.parse(document) : document) as
    Array<{ Plan?: { 'Plan Rows'?: number } }> | undefined;
  return Math.round(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
}

/** Every entry the filters match, newest first, in batches (the export). Keyset paging, so late batches cost as much as early ones. */
export async function* auditBatches(
  db: Queryable,
  filters: AuditFilters,
  caller: SessionUser,
  batchSize: number,
  maxRows: number,
): AsyncGenerator<Array<Record<string, unknown>>> {
  let after: { at: string; id: number } | null = null;
  for (let sent = 0; sent < maxRows;) {
    const params = new SqlParams();
    const where = auditConditions(filters, caller, params);
    const keyset: string | null = after
      ? `(at, id) < (${params.add(after.at)}::timestamptz, ${params.add(after.id)})`
      : null;
    const clause: string = keyset ? (where ? `${where} AND ${keyset}` : `WHERE ${keyset}`) : where;
    const rows: Array<Record<string, unknown>> = await db.query(
      `SELECT ${COLUMNS}, at::text AS at_text FROM audit_log ${clause} ORDER BY at DESC, id DESC LIMIT ${params.add(Math.min(batchSize, maxRows - sent))}`,
      params.values,
    );
    if (rows.length === 0) return;
    const last: Record<string, unknown> = rows[rows.length - 1]!;
    after = { at: String(last.at_text), id: Number(last.id) };
    sent += rows.length;
    yield rows;
    if (rows.length < batchSize) return;
  }
}
