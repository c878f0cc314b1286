import type { FastifyInstance } from 'fastify';
import { allPermissions, permission } from '../auth/access.ts';
import { csvAnswer, errorAnswers } from '../../http/answers.ts';
import { AREAS, MODULE, RESOURCES } from '../../registry.ts';
import { csvLine, sendCsvFile } from '../../http/csv.ts';
import {
  modulesAnswer,
  reportSummaryQuery,
  summaryAnswer,
  trendingAnswer,
  trendingRefreshedAnswer,
} from './schemas.ts';
import { adminSummary } from './adminSummary.ts';
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
    handler: async (request) => ({
      data: await adminSummary(db, request.query.from ?? null, request.query.to ?? null),
    }),
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
        const data = await adminSummary(db, from, to);
        for (const series of SUMMARY_SERIES) {
          yield data[series.key].map((row) => csvLine([series.title, row.month, row.plan, row[series.value]])).join('');
        }
      }
      const fileName = from && to ? `admin-report-${from}-to-${to}.csv` : 'admin-report.csv';
      return sendCsvFile(reply, fileName, lines());
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
