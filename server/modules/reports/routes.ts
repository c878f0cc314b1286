import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { allPermissions, permission } from '../auth/access.ts';
import type { Queryable } from '../../db/database.ts';
import { csvAnswer, errorAnswers } from '../../http/answers.ts';
import { AREAS, MODULE, RESOURCES, SUBSCRIPTION_PLAN_FIELDS, entityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { csvLine } from '../../http/csv.ts';
import {
  modulesAnswer,
  reportSummaryQuery,
  summaryAnswer,
  trendingAnswer,
  trendingRefreshedAnswer,
} from './schemas.ts';
import { tradeReportRoutes } from './tradeReportRoutes.ts';
import { refreshTrending, trendingProducts } from './trending.ts';
import { actorOf, recordAudit } from '../audit/record.ts';

/** The summary's series as rows of its CSV export, named as the reporting screen names its charts. */
const SUMMARY_SERIES = [
  { key: 'subscribers_by_plan', title: 'Subscribers by plan', value: 'subscribers' },
  { key: 'points_consumed', title: 'Points consumed', value: 'points' },
  { key: 'uploads_per_month', title: 'Uploads per month', value: 'uploads' },
  { key: 'revenue', title: 'Revenue from subscriptions and top-ups', value: 'revenue' },
] as const;

/** Uploaded trade data, trending products, the admin summary and the module registry. */
export async function reportRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const trending = ['Trending data'];
  const reporting = ['Admin reporting'];
  const summaryRange = 'Monthly series from `from` to `to` (inclusive dates; either may be left out).';

  await app.register(tradeReportRoutes);

  app.get('/sync-trending-data', {
    config: { access: permission(MODULE.syncTrendingData, 'view') },
    schema: {
      tags: trending,
      operationId: 'getTrendingProducts',
      summary: 'The trending products',
      response: { 200: trendingAnswer, ...errorAnswers(401, 403) },
    },
    handler: async () => ({ data: await trendingProducts(db) }),
  });

  app.post('/sync-trending-data/refresh', {
    config: { access: permission(MODULE.syncTrendingData, 'refresh'), audit: { action: 'sync' } },
    schema: {
      tags: trending,
      operationId: 'refreshTrendingProducts',
      summary: 'Recompute the trending products',
      response: { 200: trendingRefreshedAnswer, ...errorAnswers(401, 403) },
    },
    handler: async (request) => ({
      data: await refreshTrending(db, (tx, refresh) =>
        recordAudit(tx, actorOf(request), { module: MODULE.syncTrendingData, action: 'sync', details: { ...refresh } }),
      ),
      message: 'Trending data refreshed.',
    }),
  });

  app.get<{ Querystring: { from?: string; to?: string } }>('/reports/summary', {
    config: { access: permission(MODULE.adminReporting, 'view') },
    schema: {
      tags: reporting,
      operationId: 'getAdminReport',
      summary: 'The admin report',
      description: summaryRange,
      querystring: reportSummaryQuery,
      response: { 200: summaryAnswer, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request) => ({ data: await summary(db, request.query.from ?? null, request.query.to ?? null) }),
  });

  // The manifest's ADMIN_REPORTING offers download, so the export asks for it on top of the report's view.
  app.get<{ Querystring: { from?: string; to?: string } }>('/reports/summary/export', {
    config: { access: allPermissions(MODULE.adminReporting, 'view', 'download') },
    schema: {
      tags: reporting,
      operationId: 'exportAdminReport',
      summary: 'Export the admin report as CSV',
      description: `${summaryRange} One row per series and month: \`Report,Month,Plan,Value\`.`,
      querystring: reportSummaryQuery,
      response: { 200: csvAnswer('CSV, as an attachment.'), ...errorAnswers(400, 401, 403) },
    },
    handler: async (request, reply) => {
      const { from = null, to = null } = request.query;
      async function* lines(): AsyncGenerator<string> {
        yield csvLine(['Report', 'Month', 'Plan', 'Value']);
        const data = await summary(db, from, to);
        for (const series of SUMMARY_SERIES) {
          yield data[series.key].map((row) => csvLine([series.title, row.month, row.plan, row[series.value]])).join('');
        }
      }
      const fileName = from && to ? `admin-report-${from}-to-${to}.csv` : 'admin-report.csv';
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(Readable.from(lines()));
    },
  });

  app.get('/modules', {
    config: { access: permission(MODULE.moduleRegistry, 'view') },
    schema: {
      tags: ['Module registry'],
      operationId: 'listModules',
      summary: "The manifest's modules",
      response: { 200: modulesAnswer, ...errorAnswers(401, 403) },
    },
    handler: async () => ({
      data: AREAS.map((area) => ({
        key: area.key,
        label: area.label,
        path: area.path,
        order: area.order,
        sidebar_link: area.sidebarLink,
        resources: RESOURCES.filter((resource) => resource.areaKey === area.key).map((resource) => ({
          key: resource.key,
          label: resource.label,
          api: resource.api,
          actions: resource.actions,
          routes: resource.routes,
          has_entity: resource.entity !== null,
        })),
      })),
    }),
  });
}

/** Monthly series for the admin report: new subscriptions by plan, points consumed, uploads (by their data's month), revenue. */
async function summary(db: Queryable, from: string | null, to: string | null) {
  const range = (column: string) =>
    `($1::date IS NULL OR ${column} >= $1::date) AND ($2::date IS NULL OR ${column} < $2::date + 1)`;
  const plans = entityResource(MODULE.subscriptionPlans);
  const planLabel = plans
    ? `(SELECT p.${quoted(SUBSCRIPTION_PLAN_FIELDS.name.field)}::text FROM ${quoted(plans.entity.table)} p WHERE p.id = s.plan_id)`
    : `s.plan_id::text`;
  const uploads = entityResource(MODULE.dataUploadLogs);
  const [subscribersByPlan, pointsConsumed, uploadsPerMonth, revenue] = await Promise.all([
    db.query(
      `SELECT to_char(s.starts_on, 'YYYY-MM') AS month, coalesce(${planLabel}, 'unknown') AS plan, count(*) AS subscribers
         FROM subscriber_subscriptions s WHERE ${range('s.starts_on')} GROUP BY 1, 2 ORDER BY 1, 2`,
      [from, to],
    ),
    db.query(
      `SELECT to_char(created_at, 'YYYY-MM') AS month, coalesce(sum(-points), 0) AS points
         FROM points_ledger WHERE kind = 'consumption' AND ${range('created_at')} GROUP BY 1 ORDER BY 1`,
      [from, to],
    ),
    // Uploads count in the month of their data (the period they carry), not the month they were sent; one without a
    // period counts in the month it was sent.
    uploads
      ? db.query(
          `SELECT month, count(*) AS uploads
             FROM (SELECT coalesce(period, to_char(created_at, 'YYYY-MM')) AS month FROM ${quoted(uploads.entity.table)}) u
            WHERE ($1::date IS NULL OR month >= to_char($1::date, 'YYYY-MM')) AND ($2::date IS NULL OR month <= to_char($2::date, 'YYYY-MM'))
            GROUP BY 1 ORDER BY 1`,
          [from, to],
        )
      : Promise.resolve([]),
    // Revenue anywhere is the payments received, by the day they were (the home screen's revenue card sums the same).
    db.query(
      `SELECT to_char(received_at, 'YYYY-MM') AS month, coalesce(sum(amount), 0) AS revenue
         FROM payments WHERE ${range('received_at')} GROUP BY 1 ORDER BY 1`,
      [from, to],
    ),
  ]);
  return {
    subscribers_by_plan: subscribersByPlan,
    points_consumed: pointsConsumed,
    uploads_per_month: uploadsPerMonth,
    revenue,
  };
}
