import { randomBytes, randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { FILE_MAX_BYTES } from '../shared/constants';
import type { FormModel } from '../shared/form/model';
import { assertModel } from '../shared/form/model-check';
import type { TenantConfig } from '../shared/tenant/tenant-config';
import { SESSION_ABSOLUTE_HOURS } from './accounts/account-policy';
import { accountsRoutes } from './accounts/accounts-routes';
import { createAccountsStore } from './accounts/accounts-store';
import { createSessions } from './accounts/sessions';
import { applicantStatusRoutes } from './applicant-status/applicant-status-routes';
import { applicationRoutes } from './application/application-routes';
import { createApplicationsStore } from './application/applications-store';
import { applicationPdfRoutes } from './application-pdf/application-pdf-routes';
import { createApplicationPdfs } from './application-pdf/application-pdfs';
import { applicationViewRoutes } from './application-view/application-view-routes';
import { createApplicationViewStore } from './application-view/application-view-store';
import { savedViewRoutes } from './application-view/saved-view-routes';
import { applicationListRoutes } from './applications-list/applications-list-routes';
import {
  checkpointDir,
  createCheckpointWriter,
  startAuditCheckpoints,
} from './audit/audit-checkpoints';
import { auditKeysFromEnv } from './audit/audit-keys';
import { createAuditStore } from './audit/audit-store';
import { createAuditTrail } from './audit/audit-trail';
import { auditRoutes } from './audit-log/audit-log-routes';
import { checklistRoutes } from './checklist/checklist-routes';
import { createChecklistService } from './checklist/checklist-service';
import { createChecklistStore } from './checklist/checklist-store';
import { ConfigError, type Env } from './config/env';
import { courseworkRoutes } from './coursework/coursework-routes';
import { createCourseworkUpdatesStore } from './coursework/coursework-updates-store';
import { currentCourseworkAnswers } from './coursework/current-coursework-store';
import { creditEstimateRoutes } from './credit/credit-estimate-routes';
import { createCreditEstimates } from './credit/credit-estimates';
import { creditRoutes } from './credit/credit-routes';
import { CREDIT_SWEEP_INTERVAL_MS, createCreditService } from './credit/credit-service';
import { createCreditStore } from './credit/credit-store';
import { createEquivalenciesStore } from './credit/equivalencies-store';
import { equivalencyRoutes } from './credit/equivalency-routes';
import type { DatabaseHandle } from './db/database';
import { applicantDecisionRoutes } from './decisions/applicant-decision-routes';
import { decisionRoutes } from './decisions/decision-routes';
import { createDecisionService } from './decisions/decision-service';
import { registerConversionJobs } from './documents/conversion-jobs';
import { documentRoutes } from './documents/document-routes';
import { createDocumentsStore } from './documents/documents-store';
import { startUploadCleanup, type UploadCleanup } from './documents/upload-cleanup';
import { exportRoutes } from './exports/exports-routes';
import { createExportsStore } from './exports/exports-store';
import { feedRoutes } from './feeds/feed-routes';
import { createFeedRunner } from './feeds/feed-runner';
import { FeedsDirError, loadFeedsDir, startFeedSchedules } from './feeds/feed-schedules';
import { healthRoutes } from './health/health-routes';
import { registerErrorHandling } from './http/errors-plugin';
import { registerJsonBody } from './http/json-body';
import { appLoggerOptions } from './http/logger-options';
import { registerNoStoreDefault } from './http/no-store-default';
import { registerOriginCheck } from './http/origin-check';
import { OneLinePerRequest } from './http/request-log';
import { registerSecurityHeaders } from './http/security-headers';
import { registerStorableTextCheck } from './http/storable-text-check';
import { type ZodTypeProvider, zodValidatorCompiler } from './http/zod-validation';
import { apiApplications } from './integration/api-applications';
import { createApiApplicationsStore } from './integration/api-applications-store';
import { apiClientRoutes } from './integration/api-client-routes';
import { createApiClients } from './integration/api-clients';
import { createApiClientsStore } from './integration/api-clients-store';
import { apiDocumentRoutes } from './integration/api-document-routes';
import { createApiOperations } from './integration/api-operations';
import { API_PREFIX, apiV1Plugin } from './integration/api-v1-plugin';
import { createJobQueue } from './jobs/create-job-queue';
import { type Periodic, startPeriodic } from './jobs/periodic';
import {
  type AddressProvider,
  loadUsZipCodes,
  zipCodeAddressProvider,
} from './lookup/address-provider';
import { DEFAULT_LISTS_DIR } from './lookup/default-lists';
import { lookupRoutes } from './lookup/lookup-routes';
import { createSchoolSearch } from './lookup/school-search';
import { devMailRoutes } from './mail/dev-mail-routes';
import { type Mailer, outboxMailer, smtpMailer } from './mail/mailer';
import {
  createMetrics,
  jobAttemptObserver,
  observeDatabasePool,
  observeEmbeddedDatabase,
  observeJobQueue,
} from './metrics/metrics';
import { metricsRoutes, registerHttpMetrics } from './metrics/metrics-routes';
import { createMemoryRateLimiter } from './rate-limit/memory-rate-limiter';
import { createRateLimiter } from './rate-limit/rate-limiter';
import { receiptRoutes } from './receipts/receipt-routes';
import { receiptStaffRoutes } from './receipts/receipt-staff-routes';
import { createReceipts } from './receipts/receipts-service';
import { scheduleRetention } from './retention/retention-job';
import { assignmentRoutes } from './review/assignment-routes';
import { createAssignmentService } from './review/assignment-service';
import { nextPdfsPreparer } from './review/next-pdfs';
import { reviewRoutes } from './review/review-routes';
import { createReviewStore } from './review/review-store';
import { serviceLinkRoutes } from './service/service-link-routes';
import { serviceRoutes } from './service/service-routes';
import { testLinkRoutes } from './service/test-link-routes';
import { spaRoutes } from './spa/spa-routes';
import { registerStaffRequests, staffPlugin } from './staff/staff-plugin';
import { createStaffSessions, STAFF_SESSION_ABSOLUTE_HOURS } from './staff/staff-sessions';
import { createStaffStore } from './staff/staff-store';
import { staffTestRoutes } from './staff/staff-test-routes';
import { receivesUploads, type StorageDriver } from './storage/storage';
import { storageFromEnv } from './storage/storage-from-env';
import { uploadRoutes } from './storage/upload-routes';
import { temporaryAnswersRoutes } from './temporary-answers/temporary-answers-routes';
import { tenantRoutes } from './tenant/tenant-routes';
import { createWebhooks } from './webhooks/webhooks';
import { webhooksApiCapability } from './webhooks/webhooks-api-capability';
import { webhooksStaffRoutes } from './webhooks/webhooks-staff-routes';

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
  /** Replaces the storage chosen from the environment (S3_* or DATA_DIR/uploads). */
  storage?: StorageDriver;
  /** Replaces the ZIP-code address suggestions, e.g. with a street-level geocoder. */
  addresses?: AddressProvider;
  /**
   * Import the school lists that ship with the project into empty lookup categories before the
   * server is ready, never replacing an imported list (off with LOOKUP_DEFAULT_LISTS=false).
   * main.ts says yes; left out, no, so tests that build many apps stay quick.
   */
  defaultLookupLists?: boolean;
  /** Gives reads waiting for a reader (a third read started by a score gap) one, after a submit. */
  onReadsWaiting?: (accountId: string) => Promise<void>;
}

/** The composition root: every capability is a plugin registered here with what it needs. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { env, tenant, database } = deps;
  // A feed mapping file that cannot be used stops the start, before anything else is set up.
  const feedMappings = env.FEEDS_DIR
    ? await loadFeedsDir(env.FEEDS_DIR, deps.model).catch((error: unknown) => {
        throw error instanceof FeedsDirError ? new ConfigError(error.message) : error;
      })
    : [];
  const trustedProxies = env.TRUST_PROXY;
  const app = Fastify({
    logger: deps.logger ?? appLoggerOptions(env.LOG_LEVEL),
    genReqId: () => randomUUID(),
    bodyLimit: env.BODY_LIMIT_BYTES,
    // A hop count trusts the nearest N proxies; Fastify's types take it as a function.
    trustProxy:
      typeof trustedProxies === 'number'
        ? (_address: string, hop: number) => hop < trustedProxies
        : trustedProxies,
    forceCloseConnections: 'idle',
    // A first start imports the school lists before it is ready; on a small or busy machine
    // that has taken longer than Fastify's default 10 s, which would stop the start.
    pluginTimeout: 120_000,
    logController: new OneLinePerRequest(),
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(zodValidatorCompiler);
  registerErrorHandling(app);
  registerJsonBody(app);
  registerStorableTextCheck(app);
  registerNoStoreDefault(app);
  const storage = deps.storage ?? (await storageFromEnv(env, app.log));
  // First of the request hooks, so even a request refused by a later one carries them.
  registerSecurityHeaders(app, storage.uploadOrigin ? [storage.uploadOrigin] : []);
  // This app's own registry: nothing global, so apps built side by side never share metrics.
  const metrics = createMetrics();
  registerHttpMetrics(app, metrics);
  observeDatabasePool(metrics, database);
  observeEmbeddedDatabase(metrics, database, app.log);
  const mailer =
    deps.mailer ??
    (env.SMTP_URL
      ? smtpMailer(env.SMTP_URL, env.MAIL_FROM, app.log, metrics)
      : outboxMailer(database.db, app.log, metrics));
  const jobQueue = await createJobQueue(database, {
    log: app.log,
    runJobs: env.RUN_JOBS,
    observeAttempt: jobAttemptObserver(metrics),
  });
  observeJobQueue(metrics, jobQueue, app.log);
  const checklist = createChecklistService({ db: database.db, model: deps.model, tenant });
  const conversionJobs = await registerConversionJobs(jobQueue, {
    db: database.db,
    storage,
    log: app.log,
    metrics,
    onSettled: (accountId) => checklist.refresh(accountId),
  });
  let uploadCleanup: UploadCleanup | undefined;
  let auditCheckpoints: Periodic | undefined;
  let creditSweep: Periodic | undefined;
  let feedSchedules: Periodic | undefined;
  let webhooksRunner: { stop(): Promise<void> } | undefined;
  // Old application data is deleted on a schedule only when RETENTION_* days are set.
  const retention = await scheduleRetention(jobQueue, {
    db: database.db,
    storage,
    log: app.log,
    settings: {
      unsubmittedDays: env.RETENTION_UNSUBMITTED_DAYS,
      closedCycleDays: env.RETENTION_CLOSED_CYCLE_DAYS,
    },
  });
  const applicationPdfs = createApplicationPdfs({
    db: database.db,
    storage,
    model: deps.model,
    queue: jobQueue,
    log: app.log,
    institution: tenant.partner_name,
    courseworkRules: tenant.coursework,
  });
  app.addHook('onClose', async () => {
    retention?.stop();
    await uploadCleanup?.stop();
    await auditCheckpoints?.stop();
    await creditSweep?.stop();
    await feedSchedules?.stop();
    await webhooksRunner?.stop();
    await jobQueue.close();
    await mailer.drain();
    await database.close();
  });
  registerOriginCheck(app, env.PUBLIC_URL);
  await app.register(fastifyCookie);
  // Every request starts without an account; requireSession sets it on signed-in routes.
  app.decorateRequest('accountId', '');
  const audit = createAuditTrail(
    database.db,
    await auditKeysFromEnv(env, (message) => app.log.warn(message)),
  );
  registerStaffRequests(app, audit);

  await app.register(healthRoutes, { database });
  await app.register(metricsRoutes, { metrics, token: env.METRICS_TOKEN });
  await app.register(tenantRoutes, { tenant });
  assertModel(deps.model, env.NODE_ENV, (message) => app.log.error(message));
  const sessions = createSessions(database.db, {
    idleMs: env.SESSION_IDLE_MINUTES * 60_000,
    absoluteMs: SESSION_ABSOLUTE_HOURS * 3_600_000,
    secureCookies: env.NODE_ENV === 'production',
  });
  await app.register(accountsRoutes, {
    store: createAccountsStore(database.db),
    mailer,
    tenant,
    publicUrl: env.PUBLIC_URL,
    limiter: createRateLimiter(database.db),
    sessions,
  });
  const receipts = createReceipts({
    db: database.db,
    storage,
    tenant,
    mailer,
    log: app.log,
    publicUrl: env.PUBLIC_URL,
  });
  await app.register(receiptRoutes, { sessions, receipts });
  const courseworkUpdates = createCourseworkUpdatesStore(database.db);
  const creditStore = createCreditStore(database.db);
  const equivalenciesStore = createEquivalenciesStore(database.db);
  // Transfer credit is derived data: a failed refresh is logged and made good by the next change.
  const credit = createCreditService({
    model: deps.model,
    tenant,
    store: creditStore,
    coursework: courseworkUpdates,
    equivalencies: equivalenciesStore,
    log: app.log,
  });
  const refreshCredit = (accountId: string) =>
    credit.refresh(accountId).then(
      () => undefined,
      (error: unknown) => app.log.error({ err: error, accountId }, 'credit summary not refreshed'),
    );
  const applications = createApplicationsStore(database.db);
  // Reading assignments: the rules give an application its readers as it is submitted.
  const assignments = createAssignmentService({
    db: database.db,
    model: deps.model,
    review: tenant.review,
    audit,
  });
  const assignOnSubmit = (accountId: string) =>
    assignments.assignOnSubmit(accountId).then(
      () => undefined,
      (error: unknown) => app.log.error({ err: error, accountId }, 'reads not assigned on submit'),
    );
  // Submit goes through the reserved connections, so it never queues behind the saves.
  const submitApplications = createApplicationsStore(database.reserved);
  await app.register(applicationRoutes, {
    store: applications,
    submitStore: submitApplications,
    saveStatements: database.concurrentStatements,
    sessions,
    model: deps.model,
    courseworkRules: tenant.coursework,
    receipts,
    onSubmitted: async (accountId) => {
      await Promise.all([
        refreshCredit(accountId),
        applicationPdfs.requestAfterSubmit(accountId),
        assignOnSubmit(accountId),
      ]);
    },
  });
  await app.register(applicationPdfRoutes, { sessions, pdfs: applicationPdfs });
  // Coursework after submit: dated updates beside the submitted answers, which never change.
  await app.register(courseworkRoutes, {
    sessions,
    store: courseworkUpdates,
    model: deps.model,
    courseworkRules: tenant.coursework,
    limiter: createRateLimiter(database.db),
    onUpdated: refreshCredit,
  });
  const documents = createDocumentsStore(database.db);
  if (receivesUploads(storage)) {
    await app.register(uploadRoutes, {
      storage,
      maxBytes: FILE_MAX_BYTES,
      acceptKey: (key) => documents.isUploadAwaited(key),
    });
  }
  await app.register(documentRoutes, {
    db: database.db,
    store: documents,
    applications,
    sessions,
    model: deps.model,
    storage,
    jobs: conversionJobs,
  });
  await app.register(applicantStatusRoutes, {
    db: database.db,
    env,
    tenant,
    model: deps.model,
    sessions,
    mailer,
    checklist,
  });
  // The chain's head leaves the database on the servers that run jobs, each into its own file.
  if (env.RUN_JOBS) {
    const dir = checkpointDir(env);
    const writer = createCheckpointWriter({ trail: audit, keys: audit.keys, dir, log: app.log });
    app.addHook('onReady', async () => {
      try {
        auditCheckpoints = await startAuditCheckpoints({
          trail: audit,
          writer,
          log: app.log,
          intervalMs: env.AUDIT_CHECKPOINT_MINUTES * 60_000,
        });
      } catch (error) {
        throw new Error(
          `Audit trail checkpoints cannot be written to ${dir} (AUDIT_CHECKPOINT_DIR): ${(error as Error).message}`,
          { cause: error },
        );
      }
    });
  }
  // One service for both sides: staff record and release decisions, applicants read and reply.
  const decisions = createDecisionService({
    db: database.db,
    tenant,
    mailer,
    audit,
    env,
    log: app.log,
  });
  await app.register(applicantDecisionRoutes, { tenant, sessions, decisions });
  await app.register(serviceRoutes, {
    db: database.db,
    documents,
    applications,
    model: deps.model,
    storage,
    pdfs: applicationPdfs,
  });

  // Staff register after the applicants' routes and before the web app's catch-all. Each staff
  // capability gets the one session guard and only the stores and services it uses.
  const staffStore = createStaffStore(database.db);
  const staffSessions = createStaffSessions(database.db, {
    idleMs: env.STAFF_SESSION_IDLE_MINUTES * 60_000,
    absoluteMs: STAFF_SESSION_ABSOLUTE_HOURS * 3_600_000,
    secureCookies: env.NODE_ENV === 'production',
  });
  const auditStore = createAuditStore(database.db);
  const applicationViews = createApplicationViewStore(database.db);
  await app.register(staffPlugin, {
    db: database.db,
    env,
    tenant,
    mailer,
    limiter: createRateLimiter(database.db),
    sessions: staffSessions,
    store: staffStore,
    audit,
  });
  await app.register(auditRoutes, { sessions: staffSessions, store: auditStore });
  await app.register(serviceLinkRoutes, {
    db: database.db,
    env,
    sessions: staffSessions,
    store: staffStore,
  });
  await app.register(applicationListRoutes, { db: database.db, tenant, sessions: staffSessions });
  await app.register(exportRoutes, {
    env,
    tenant,
    model: deps.model,
    sessions: staffSessions,
    store: createExportsStore(database.db),
    storage,
    pdfs: applicationPdfs,
    queue: jobQueue,
    checklist,
  });
  await app.register(checklistRoutes, {
    env,
    sessions: staffSessions,
    store: createChecklistStore(database.db),
    checklist,
    db: database.db,
    model: deps.model,
    tenant,
  });
  await app.register(applicationViewRoutes, {
    db: database.db,
    model: deps.model,
    sessions: staffSessions,
    store: applicationViews,
    documents,
    auditStore,
    storage,
    pdfs: applicationPdfs,
    checklist,
    decisions,
    coursework: courseworkUpdates,
  });
  await app.register(savedViewRoutes, { sessions: staffSessions, store: applicationViews });
  await app.register(decisionRoutes, { env, sessions: staffSessions, decisions });
  await app.register(assignmentRoutes, { sessions: staffSessions, assignments });
  await app.register(reviewRoutes, {
    sessions: staffSessions,
    store: createReviewStore(database.db),
    tenant,
    // A third read started by a score gap gets its reader as soon as the submit has committed.
    onReadsWaiting:
      deps.onReadsWaiting ??
      (async (accountId: string) => {
        await assignments.assignWaitingReads(accountId);
      }),
    onOpenReadViewed: nextPdfsPreparer({
      queue: (readerId) => assignments.queue(readerId, 'open'),
      request: (accountId) => applicationPdfs.request(accountId),
    }),
  });
  await app.register(creditRoutes, {
    sessions: staffSessions,
    checklist,
    credit,
    store: creditStore,
    storage,
  });
  await app.register(equivalencyRoutes, {
    db: database.db,
    sessions: staffSessions,
    store: equivalenciesStore,
    onImported: (ceebs) => credit.refreshColleges(ceebs),
  });
  await app.register(creditEstimateRoutes, {
    tenant,
    sessions,
    staffSessions,
    estimates: createCreditEstimates({
      db: database.db,
      tenant,
      env,
      mailer,
      credit,
      store: creditStore,
    }),
  });
  await app.register(receiptStaffRoutes, { db: database.db, storage, sessions: staffSessions });
  // The integrators' API: its own authentication (OAuth client credentials), errors and limits.
  const apiClients = createApiClients(createApiClientsStore(database.db));
  await app.register(apiClientRoutes, { sessions: staffSessions, clients: apiClients });
  const apiOperations = createApiOperations();
  const webhooks = await createWebhooks({
    db: database.db,
    queue: jobQueue,
    audit,
    mailer,
    staff: staffStore,
    tenant,
    log: app.log,
    production: env.NODE_ENV === 'production',
    privateNetworks: env.WEBHOOK_PRIVATE_NETWORKS,
    runJobs: env.RUN_JOBS,
    publicUrl: env.PUBLIC_URL,
  });
  await app.register(webhooksStaffRoutes, { sessions: staffSessions, service: webhooks.service });
  const feedRunner = createFeedRunner({
    db: database.db,
    audit,
    checklist,
    destinations: { s3: env, secret: (name) => process.env[name] },
  });
  await app.register(feedRoutes, {
    sessions: staffSessions,
    mappings: feedMappings,
    runner: feedRunner,
  });
  await app.register(apiV1Plugin, {
    prefix: API_PREFIX,
    clients: apiClients,
    operations: apiOperations,
    limiter: createMemoryRateLimiter(),
    tokenLimiter: createRateLimiter(database.db),
    capabilities: [
      apiApplications({
        operations: apiOperations,
        store: createApiApplicationsStore(database.db),
        cursorSecret: env.AUDIT_CHAIN_KEY,
        model: deps.model,
        tenant,
        checklist,
        documents,
        pdfs: applicationPdfs,
        storage,
        currentCoursework: async (id) =>
          (await currentCourseworkAnswers(database.db, [id])).get(id) ?? {},
      }),
      webhooksApiCapability(webhooks.service, apiOperations),
      apiDocumentRoutes(apiOperations),
    ],
  });
  await app.register(temporaryAnswersRoutes, { db: database.db, model: deps.model });
  // The outbox and the test link calls reveal codes and links: they need a key only the log shows.
  const devToolsKey = env.DEV_TOOLS_KEY ?? randomBytes(24).toString('base64url');
  if (env.NODE_ENV === 'test') {
    await app.register(testLinkRoutes, { db: database.db, model: deps.model, devToolsKey });
    await app.register(staffTestRoutes, {
      store: staffStore,
      audit,
      mailer,
      tenant,
      env,
      devToolsKey,
    });
  }
  // A restart leaves no conversion stuck: rows still waiting are queued again.
  app.addHook('onReady', async () => {
    // Summaries missing (earlier submissions) or stale (a table imported from the command line)
    // are written at start and each minute, in the background.
    if (env.RUN_JOBS)
      creditSweep = startPeriodic(
        app.log,
        'credit summaries not written',
        CREDIT_SWEEP_INTERVAL_MS,
        async () => {
          await credit.refreshOutdated();
        },
      );
    if (env.RUN_JOBS && feedMappings.some((mapping) => mapping.schedule)) {
      feedSchedules = startFeedSchedules({
        runner: feedRunner,
        mappings: feedMappings.filter((mapping) => mapping.schedule),
        log: app.log,
      });
    }
    await conversionJobs.recover();
    uploadCleanup = startUploadCleanup({ db: database.db, storage, log: app.log });
    retention?.start();
    webhooks.runner.start();
    webhooksRunner = webhooks.runner;
  });
  await app.register(lookupRoutes, {
    db: database.db,
    limiter: createMemoryRateLimiter(),
    schools: createSchoolSearch(database.db),
    addresses: deps.addresses ?? zipCodeAddressProvider(loadUsZipCodes),
    ...(deps.defaultLookupLists && env.LOOKUP_DEFAULT_LISTS
      ? { defaultListsDir: DEFAULT_LISTS_DIR }
      : {}),
  });
  if (env.NODE_ENV === 'production' && !deps.mailer && !env.SMTP_URL) {
    app.addHook('onReady', async () => {
      app.log.warn('SMTP_URL is not set: mail is kept in the database and nobody receives it');
    });
  }
  if (env.NODE_ENV !== 'production' && !deps.mailer && !env.SMTP_URL) {
    await app.register(devMailRoutes, { db: database.db, devToolsKey });
    app.addHook('onReady', async () => {
      app.log.info(
        `mail is kept in the outbox: open /dev/mail?key=${devToolsKey} on this machine to read it`,
      );
    });
  }
  await app.register(spaRoutes, { webRoot: deps.webRoot ?? env.WEB_ROOT });

  return app;
}
