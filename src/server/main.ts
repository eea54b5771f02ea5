import { applicationModel } from '../shared/application/application-model';
import { buildApp } from './app';
import { ConfigError, loadEnv } from './config/env';
import { loadTenantConfig } from './config/tenant';
import { DataDirLockedError } from './db/data-dir-lock';
import { type DatabaseHandle, openDatabase } from './db/database';

async function main(): Promise<void> {
  const env = loadEnv();
  const tenant = await loadTenantConfig(env.TENANT_CONFIG);
  const database: DatabaseHandle = await openDatabase(
    env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: env.DATA_DIR },
  );
  const app = await buildApp({
    env,
    tenant,
    database,
    model: applicationModel,
    defaultLookupLists: true,
  });

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    try {
      // close() stops accepting, lets requests in flight finish, then runs onClose (the database).
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);

  await app.listen({ port: env.PORT, host: env.HOST });
  app.log.info(
    { database: database.kind, tenant: tenant.partner_name },
    `${tenant.partner_name} application portal ready on port ${env.PORT}`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(`Cannot start: ${error.message}`);
  } else {
    console.error('Cannot start:', error);
  }
  process.exit(1);
});
