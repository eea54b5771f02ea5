import { randomUUID } from 'node:crypto';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { FILE_MAX_BYTES } from '../shared/constants';
import type { FormModel } from '../shared/form/model';
import { assertModel } from '../shared/form/model-check';
import type { TenantConfig } from '../shared/tenant/tenant-config';
import { SESSION_ABSOLUTE_HOURS } from './accounts/account-policy';
import { accountsRoutes } from './accounts/accounts-routes';
import { createSessions } from './accounts/sessions';
import { applicationRoutes } from './application/application-routes';
import type { Env } from './config/env';
import type { DatabaseHandle } from './db/database';
import { createConversionJobs } from './documents/conversion-jobs';
import { documentRoutes, isUploadAwaited } from './documents/document-routes';
import { healthRoutes } from './health/health-routes';
import { registerErrorHandling } from './http/errors-plugin';
import { registerOriginCheck } from './http/origin-check';
import { redactUrl } from './http/redact-url';
import { type ZodTypeProvider, zodValidatorCompiler } from './http/zod-validation';
import { devMailRoutes } from './mail/dev-mail-routes';
import { type Mailer, outboxMailer, smtpMailer } from './mail/mailer';
import { createRateLimiter } from './rate-limit/rate-limiter';
import { spaRoutes } from './spa/spa-routes';
import { localDiskStorage } from './storage/local-disk';
import type { StorageDriver } from './storage/storage';
import { uploadRoutes } from './storage/upload-routes';
import { tenantRoutes } from './tenant/tenant-routes';

export interface AppDependencies {
  env: Env;
  tenant: TenantConfig;
  database: DatabaseHandle;
  /** Where the built web app lives; tests that do not need it may point anywhere. */
  webRoot?: string;
  logger?: FastifyServerOptions['logger'];
  /** The application's form model: every view and the server's checks read it. */
  model: FormModel;
  /** Replaces the mailer chosen from the environment. */
  mailer?: Mailer;
  /** Replaces the local-disk storage under DATA_DIR/uploads. */
  storage?: StorageDriver;
}

/** The composition root: every capability is a plugin registered here with what it needs. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { env, tenant, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? {
      level: env.LOG_LEVEL,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      serializers: {
        req: (request) => ({
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        }),
      },
    },
    genReqId: () => randomUUID(),
    bodyLimit: env.BODY_LIMIT_BYTES,
    trustProxy: env.NODE_ENV === 'production',
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(zodValidatorCompiler);
  registerErrorHandling(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  const mailer =
    deps.mailer ??
    (env.SMTP_URL
      ? smtpMailer(env.SMTP_URL, env.MAIL_FROM, app.log)
      : outboxMailer(database.db, app.log));
  // Upload policies are signed with UPLOAD_SIGNING_SECRET. Without it each process makes its own,
  // which is fine for one embedded server; several servers behind a balancer need a shared one.
  const uploadSecret = env.UPLOAD_SIGNING_SECRET;
  if (!uploadSecret && env.DATABASE_URL) {
    app.log.warn(
      'UPLOAD_SIGNING_SECRET is not set: uploads only work on the server that signed them',
    );
  }
  const storage =
    deps.storage ??
    localDiskStorage({ root: path.join(env.DATA_DIR, 'uploads'), secret: uploadSecret });
  const conversionJobs = createConversionJobs({ db: database.db, storage, log: app.log });
  app.addHook('onClose', async () => {
    await conversionJobs.close();
    await mailer.drain();
    await database.close();
  });
  registerOriginCheck(app, env.PUBLIC_URL);
  await app.register(fastifyCookie);
  // Every request starts without an account; requireSession sets it on signed-in routes.
  app.decorateRequest('accountId', '');

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix and react-remove-scroll set element styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'same-origin' },
  });

  await app.register(healthRoutes, { database });
  await app.register(tenantRoutes, { tenant });
  assertModel(deps.model, env.NODE_ENV, (message) => app.log.error(message));
  const sessions = createSessions(database.db, {
    idleMs: env.SESSION_IDLE_MINUTES * 60_000,
    absoluteMs: SESSION_ABSOLUTE_HOURS * 3_600_000,
    secureCookies: env.NODE_ENV === 'production',
  });
  await app.register(accountsRoutes, {
    db: database.db,
    mailer,
    tenant,
    publicUrl: env.PUBLIC_URL,
    limiter: createRateLimiter(database.db),
    sessions,
  });
  await app.register(applicationRoutes, { db: database.db, sessions, model: deps.model });
  await app.register(uploadRoutes, {
    storage,
    maxBytes: FILE_MAX_BYTES,
    acceptKey: (key) => isUploadAwaited(database.db, key),
  });
  await app.register(documentRoutes, {
    db: database.db,
    sessions,
    model: deps.model,
    storage,
    jobs: conversionJobs,
  });
  // A restart leaves no conversion stuck: rows still waiting are queued again.
  app.addHook('onReady', async () => {
    await conversionJobs.recover();
  });
  if (env.NODE_ENV !== 'production') await app.register(devMailRoutes, { db: database.db });
  await app.register(spaRoutes, { webRoot: deps.webRoot ?? env.WEB_ROOT });

  return app;
}
