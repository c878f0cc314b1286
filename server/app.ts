import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { registerAccessControl } from './auth/access.ts';
import { PasswordHasher } from './auth/passwords.ts';
import { authRoutes } from './auth/routes.ts';
import { bannerImageRoutes } from './banners/routes.ts';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { registerErrorHandler } from './http/errorHandler.ts';
import { registerJsonBodyParser } from './http/jsonBody.ts';
import { registerSecurity } from './http/security.ts';
import { validatorCompiler } from './http/validation.ts';
import { notificationRoutes } from './notifications/routes.ts';
import { permissionRoutes } from './permissions/routes.ts';
import { profileRoutes } from './profile/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { resourceRoutes } from './resources/routes.ts';
import { subscriberRoutes } from './subscribers/routes.ts';
import { UploadProcessor } from './uploads/processor.ts';
import { uploadRoutes } from './uploads/routes.ts';
import { takesDirectUploads, type FileStorage } from './uploads/storage.ts';
import { openApiRoutes } from './openapi.ts';

export const API_BASE = '/api/v1';

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
    db: Database;
    passwords: PasswordHasher;
    storage: FileStorage;
    uploads: UploadProcessor;
  }
}

export interface AppDependencies {
  config: ServerConfig;
  db: Database;
  storage: FileStorage;
  logger?: boolean | { level: string };
  /** The built console (dist/), served on the same origin with an SPA fallback; absent: the API alone. */
  consoleDir?: string | null;
  /** Told of every route as it is registered (the test that holds the OpenAPI document to the routes). */
  onRoute?: (route: RouteOptions) => void;
}

/** The API: one Fastify plugin per concern under /api/v1 (ARCHITECTURE.md, "The reference API"). */
export async function buildApp({ config, db, storage, logger = false, consoleDir = null, onRoute }: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    bodyLimit: config.bodyLimitBytes,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    trustProxy: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  if (onRoute) app.addHook('onRoute', onRoute);
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('passwords', new PasswordHasher(config.passwordHashing));
  app.decorate('storage', storage);
  app.decorate('uploads', new UploadProcessor(db, storage, app.log));
  app.setValidatorCompiler(validatorCompiler);
  registerJsonBodyParser(app);
  registerErrorHandler(app);
  await app.register(cookie);
  await registerSecurity(app, { production: config.production, connectSources: takesDirectUploads(storage) ? [await storage.postOrigin()] : [] });
  registerAccessControl(app, config.jwtSecret);

  await app.register(
    async (api) => {
      await api.register(authRoutes);
      await api.register(permissionRoutes);
      await api.register(profileRoutes);
      await api.register(notificationRoutes);
      await api.register(resourceRoutes);
      await api.register(subscriberRoutes);
      await api.register(uploadRoutes);
      await api.register(bannerImageRoutes);
      await api.register(reportRoutes);
      await api.register(openApiRoutes);
    },
    { prefix: API_BASE },
  );
  if (consoleDir) await app.register(fastifyStatic, { root: consoleDir, wildcard: false, index: 'index.html', maxAge: '1h', immutable: false });
  // Uploads a stopped server left accepted but unprocessed are queued again (their import was rolled back).
  app.addHook('onReady', async () => {
    await app.uploads.recover();
  });
  app.addHook('onClose', async () => {
    await app.uploads.idle();
  });
  return app;
}
