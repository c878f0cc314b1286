import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerFactory, type RouteOptions } from 'fastify';
import { requireAuditDeclarations } from './modules/audit/routeAudit.ts';
import { apiTokenRoutes } from './modules/api-tokens/routes.ts';
import { auditLogRoutes } from './modules/audit-log/routes.ts';
import { TrashRetention } from './modules/audit/retention.ts';
import { abandonedImportsCleanup } from './modules/imports/store.ts';
import { registerAccessControl } from './modules/auth/access.ts';
import { publicOrigin } from './modules/auth/emailLinks.ts';
import { PasswordHasher } from './modules/auth/passwords.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { signInHistoryPurge } from './modules/auth/signIns.ts';
import { bannerImageRoutes } from './modules/banners/routes.ts';
import type { ServerConfig } from './config.ts';
import { COMPRESSION_THRESHOLD_BYTES } from './console/consoleAssets.ts';
import { registerConsoleSite } from './console/consoleSite.ts';
import type { Database } from './db/database.ts';
import { registerErrorHandler } from './http/errorHandler.ts';
import { registerJsonBodyParser } from './http/jsonBody.ts';
import { registerSecurity } from './http/security.ts';
import { validatorCompiler } from './http/validation.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { registerMetrics } from './modules/metrics/routes.ts';
import { backupJob } from './backup/backup.ts';
import { backupRoutes } from './backup/routes.ts';
import { loggingOptions, registerRequestLines, type LoggerSetting } from './http/requestLog.ts';
import { homeRoutes } from './modules/home/routes.ts';
import { importRoutes } from './modules/imports/routes.ts';
import { MailDelivery } from './modules/mail/delivery.ts';
import { WebhookDelivery } from './modules/webhooks/delivery.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { devMailboxRoutes } from './modules/mail/routes.ts';
import { consoleTransport, smtpTransport, type MailTransport } from './modules/mail/transports.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { emailVerificationRoutes } from './modules/users-and-roles/emailVerification.ts';
import { permissionRoutes } from './modules/users-and-roles/routes.ts';
import { profileRoutes } from './modules/profile/routes.ts';
import { ReportExports } from './modules/reports/reportExports.ts';
import { reportRoutes } from './modules/reports/routes.ts';
import { RESOURCE_BEHAVIOURS } from './modules/behaviours.ts';
import { RecordOperations } from './modules/resources/recordOperations.ts';
import type { ResourceBehaviours } from './modules/resources/behaviours.ts';
import { resourceRoutes } from './modules/resources/routes.ts';
import { searchRoutes } from './modules/search/routes.ts';
import { subscriberRoutes } from './modules/subscribers/routes.ts';
import { saleRoutes } from './modules/subscribers/saleRoutes.ts';
import { subscriptionClock } from './modules/subscribers/subscriptionClock.ts';
import { UploadProcessor } from './modules/uploads/processor.ts';
import { uploadRoutes } from './modules/uploads/routes.ts';
import { uploadImportRoutes } from './modules/uploads/importRoutes.ts';
import { uploadReviewRoutes } from './modules/uploads/reviewRoutes.ts';
import { abandonedUploadsCleanup } from './modules/uploads/abandonedUploads.ts';
import { viewRoutes } from './modules/views/routes.ts';
import type { FileStorage } from './modules/uploads/storage.ts';
import { openApiRoutes, routeTable } from './modules/openapi/routes.ts';

export const API_BASE = '/api/v1';

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
    db: Database;
    passwords: PasswordHasher;
    storage: FileStorage;
    uploads: UploadProcessor;
    /** Background exports of the uploaded-data report. */
    reportExports: ReportExports;
    /** Set when a stop begins: `/readyz` answers 503, so a load balancer sends nothing more while requests finish. */
    stopping: boolean;
    /** Delivers the outbox; null in production without SMTP_URL, where messages wait for a server that has it. */
    mail: MailDelivery | null;
    /** Sends the webhook outbox. */
    webhooks: WebhookDelivery;
    /** The one set of record operations every write of a manifest record goes through. */
    records: RecordOperations;
  }
}

export interface AppDependencies {
  config: ServerConfig;
  db: Database;
  storage: FileStorage;
  /** Fastify's logger: off, or at a level, as JSON (to a stream of the caller's, in tests) or pretty lines. */
  logger?: LoggerSetting | false;
  /** The built console (dist/), served on the same origin with an SPA fallback; absent: the API alone. */
  consoleDir?: string | null;
  /** Told of every route as it is registered (the test that holds the OpenAPI document to the routes). */
  onRoute?: (route: RouteOptions) => void;
  /** A port already listening (`npm start` takes it before the start-up work); absent: Fastify's own server. */
  serverFactory?: FastifyServerFactory;
  /** Where a development server without SMTP_URL prints each e-mail's links; absent: the log. */
  printMail?: (line: string) => void;
  /** Behaviours in place of the modules' own (server/modules/behaviours.ts) for the resources it names. */
  behaviours?: ResourceBehaviours;
}

/** The API: one Fastify plugin per concern under /api/v1 (docs/architecture.md, "The reference API"). */
export async function buildApp({
  config,
  db,
  storage,
  logger = false,
  consoleDir = null,
  onRoute,
  serverFactory,
  printMail,
  behaviours = {},
}: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    ...loggingOptions(logger),
    bodyLimit: config.bodyLimitBytes,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Unique across instances and restarts: audit entries name the request that made them.
    genReqId: () => randomUUID(),
    ...(serverFactory ? { serverFactory } : {}),
  });
  if (onRoute) app.addHook('onRoute', onRoute);
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('passwords', new PasswordHasher(config.passwordHashing));
  app.decorate('storage', storage);
  app.decorate('uploads', new UploadProcessor(app, db, storage, app.log, config));
  app.decorate('reportExports', new ReportExports(db, storage, app.log, config.reportExport));
  app.decorate('stopping', false);
  app.decorate('records', new RecordOperations({ ...RESOURCE_BEHAVIOURS, ...behaviours }));
  const transport = mailTransport(config, printMail ?? ((line) => app.log.info(line)));
  app.decorate('mail', transport ? new MailDelivery(db, transport, app.log, config.mail) : null);
  app.decorate('webhooks', new WebhookDelivery(db, app.log, config.webhooks, publicOrigin(app)));
  const trashRetention = new TrashRetention(db, app.log, config.trashRetentionDays);
  const importsCleanup = abandonedImportsCleanup(db, app.log);
  const signInHistory = signInHistoryPurge(db, app.log);
  const uploadsCleanup = abandonedUploadsCleanup(app, app.log);
  const subscriptions = subscriptionClock(app);
  const backups = backupJob(db, config.backup, app.log);
  app.setValidatorCompiler(validatorCompiler);
  registerJsonBodyParser(app);
  registerMetrics(app);
  registerRequestLines(app, logger);
  // Before any route: the plugin hooks each route as it is registered. The console's files come precompressed.
  await app.register(compress, { threshold: COMPRESSION_THRESHOLD_BYTES, encodings: ['br', 'gzip'] });
  const consolePages = consoleDir
    ? await registerConsoleSite(app, consoleDir, { serveSourceMaps: config.serveSourceMaps })
    : null;
  registerErrorHandler(app, consolePages);
  await app.register(cookie);
  await registerSecurity(app, { production: config.production });
  registerAccessControl(app, config.jwtSecret);
  await app.register(healthRoutes);
  await app.register(backupRoutes);

  await app.register(
    async (api) => {
      // API answers hold tokens and private records: no cache keeps them, unless a route says otherwise (banner images).
      api.addHook('onSend', async (_request, reply) => {
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      });
      // Before the routes: the OpenAPI document is read off the routes as they are registered.
      const routes = routeTable(api);
      // A write route that does not state what it records in the audit log stops the server from starting.
      requireAuditDeclarations(api);
      await api.register(authRoutes);
      await api.register(permissionRoutes);
      await api.register(emailVerificationRoutes);
      await api.register(profileRoutes);
      await api.register(notificationRoutes);
      await api.register(homeRoutes);
      await api.register(resourceRoutes);
      await api.register(viewRoutes);
      await api.register(apiTokenRoutes);
      await api.register(webhookRoutes);
      await api.register(searchRoutes);
      await api.register(importRoutes);
      await api.register(subscriberRoutes);
      await api.register(saleRoutes);
      await api.register(uploadRoutes);
      await api.register(uploadImportRoutes);
      await api.register(uploadReviewRoutes);
      await api.register(bannerImageRoutes);
      await api.register(reportRoutes);
      await api.register(devMailboxRoutes);
      await api.register(auditLogRoutes);
      await api.register(openApiRoutes, { routes, base: API_BASE });
    },
    { prefix: API_BASE },
  );
  // Uploads accepted but not processed (an instance stopped mid-import, which rolled it back) are taken up at start and
  // then regularly, by whichever instance gets to them first; a stop lets the import in flight finish.
  app.addHook('onReady', async () => {
    await app.uploads.start();
    app.mail?.start();
    app.webhooks.start();
    trashRetention.start();
    importsCleanup.start();
    signInHistory.start();
    uploadsCleanup.start();
    subscriptions.start();
    app.reportExports.start();
    backups?.start();
  });
  app.addHook('onClose', async () => {
    await backups?.stop();
    await app.reportExports.stop();
    await subscriptions.stop();
    await uploadsCleanup.stop();
    await importsCleanup.stop();
    await signInHistory.stop();
    await trashRetention.stop();
    await app.mail?.stop();
    await app.webhooks.stop();
    await app.uploads.stop();
  });
  return app;
}

/** SMTP_URL's mail server; in development without it, the server console; in production without it, none. */
function mailTransport(config: ServerConfig, printMail: (line: string) => void): MailTransport | null {
  if (config.mail.smtpUrl) return smtpTransport(config.mail.smtpUrl, config.mail.from);
  return config.production ? null : consoleTransport(printMail);
}
