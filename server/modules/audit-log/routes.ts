import type { FastifyInstance } from 'fastify';
import { AUDIT_ACTIONS, AUDIT_MODULE_LABELS, NOTIFICATIONS_MODULE } from '../../../contract/audit.ts';
import { csvAnswer, errorAnswers } from '../../http/answers.ts';
import { csvLine, sendCsvFile } from '../../http/csv.ts';
import { AREAS, MODULE, RESOURCES, area, resource } from '../../registry.ts';
import { allPermissions, currentUser, permission } from '../auth/access.ts';
import { subscriberScope } from '../auth/executiveScope.ts';
import { userChoices } from '../users-and-roles/users.ts';
import { auditBatches, auditPage, checkAuditFilters, type AuditFilters } from './query.ts';
import { auditExportQuery, auditFiltersAnswer, auditPageAnswer, auditPageQuery } from './schemas.ts';
import { acceptFormerPageNames } from '../../http/formerPageNames.ts';
import type { PageQuery } from '../../http/requestSchemas.ts';

const EXPORT_BATCH = 1000;
const EXPORT_MAX_ROWS = 1_000_000;
const EXECUTIVE_SCOPE =
  'An executive (SUBSCRIBERS `executive_access`) reads only the entries about the subscribers assigned to them and those of their own actions.';

/** A module's name as people read it: its label in the manifest, else its key. */
function moduleLabel(key: string): string {
  return resource(key)?.label ?? area(key)?.label ?? AUDIT_MODULE_LABELS[key] ?? key;
}

function actionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;
}

/** The audit log (docs/api.md, "Audit log"): the entries every write leaves, filtered, paged and exported. */
export async function auditLogRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const auditLog = resource(MODULE.auditLog);
  if (!auditLog) return;
  const base = `/${auditLog.api}`;
  const tags = [auditLog.label];

  app.get<{ Querystring: AuditFilters & PageQuery }>(base, {
    config: { access: permission(MODULE.auditLog, 'view') },
    schema: {
      tags,
      operationId: 'listAuditEntries',
      summary: 'List audit entries',
      description: `Newest first. \`record_id\` needs \`module\`. The total is exact up to 10,000 matching entries and an estimate past it (\`meta.total_is_estimate\`). ${EXECUTIVE_SCOPE}`,
      querystring: auditPageQuery,
      response: { 200: auditPageAnswer, ...errorAnswers(400, 401, 403) },
    },
    preHandler: acceptFormerPageNames,
    handler: async (request) => {
      const { _page: page, _page_size: size, ...filters } = request.query;
      const { rows, total, totalIsEstimate } = await auditPage(db, filters, currentUser(request), page, size);
      const estimate = totalIsEstimate ? { total_is_estimate: true, totalIsEstimate: true } : {};
      return { data: rows, meta: { total, page, page_size: size, pageSize: size, ...estimate } };
    },
  });

  app.get<{ Querystring: AuditFilters }>(`${base}/export`, {
    config: { access: allPermissions(MODULE.auditLog, 'view', 'download') },
    schema: {
      tags,
      operationId: 'exportAuditEntries',
      summary: 'Export audit entries as CSV',
      description: `The list's filters, newest first, at most ${EXPORT_MAX_ROWS.toLocaleString('en')} rows; modules and actions by their labels. ${EXECUTIVE_SCOPE}`,
      querystring: auditExportQuery,
      response: { 200: csvAnswer('CSV, streamed as an attachment.'), ...errorAnswers(400, 401, 403) },
    },
    handler: async (request, reply) => {
      const caller = currentUser(request);
      const filters = request.query;
      // Before the first line is sent: a refused filter is a 400, not a cut-off download.
      checkAuditFilters(filters);
      async function* lines(): AsyncGenerator<string> {
        yield csvLine([
          'When',
          'User',
          'User id',
          'API token',
          'Client address',
          'Request id',
          'Module',
          'Record id',
          'Action',
          'Changes',
          'Details',
        ]);
        for await (const rows of auditBatches(db, filters, caller, EXPORT_BATCH, EXPORT_MAX_ROWS)) {
          yield rows
            .map((row) =>
              csvLine([
                row.at,
                row.user_email,
                row.user_id,
                row.api_token,
                row.client_address,
                row.request_id,
                moduleLabel(String(row.module)),
                row.record_id,
                actionLabel(String(row.action)),
                row.changes,
                row.details,
              ]),
            )
            .join('');
        }
      }
      const day = new Date().toISOString().slice(0, 10);
      return sendCsvFile(reply, `audit-log-${day}.csv`, lines());
    },
  });

  app.get(`${base}/filters`, {
    config: { access: permission(MODULE.auditLog, 'view') },
    schema: {
      tags,
      operationId: 'getAuditFilters',
      summary: "What the audit screen's filters offer",
      description: `The users (an executive: themselves only), the modules and the actions, each with its label. ${EXECUTIVE_SCOPE}`,
      response: { 200: auditFiltersAnswer, ...errorAnswers(401, 403) },
    },
    handler: async (request) => {
      const caller = currentUser(request);
      const users = await userChoices(db, subscriberScope(caller) !== null ? caller.id : null);
      const keys = [
        ...new Set([
          ...AREAS.map((candidate) => candidate.key),
          ...RESOURCES.map((candidate) => candidate.key),
          NOTIFICATIONS_MODULE,
        ]),
      ];
      const modules = keys
        .map((key) => ({ key, label: moduleLabel(key) }))
        .sort((a, b) => a.label.localeCompare(b.label));
      const actions = Object.entries(AUDIT_ACTIONS).map(([key, label]) => ({ key, label }));
      return { data: { users, modules, actions } };
    },
  });
}
