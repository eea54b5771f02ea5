import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { applicationModel } from '../../shared/application/application-model';
import type { FormModel } from '../../shared/form/model';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { buildApp } from '../app';
import { auditKeyring } from '../audit/audit-keys';
import { loadEnv } from '../config/env';
import { projectRoot } from '../config/project-root';
import { loadTenantConfig } from '../config/tenant';
import type { AppDatabase, DatabaseHandle } from '../db/database';
import { createTestDatabase, type DatabaseKind } from './test-database';

export const sampleTenantFile = path.join(projectRoot, 'tenant', 'sample-tenant.json');

/** Opens the outbox and the test link calls of a test app (see devToolsGuard). */
export const TEST_DEV_TOOLS_KEY = 'test-dev-tools-key-0123456789abcdef';

/** A path of the development tools with the test key added to its query. */
export function devToolsPath(pathname: string): string {
  return `${pathname}${pathname.includes('?') ? '&' : '?'}key=${TEST_DEV_TOOLS_KEY}`;
}

/** The audit chain's key in every test app, so a test can verify the trail its app wrote. */
export const TEST_AUDIT_CHAIN_KEY = 'test-audit-chain-key-0123456789abcdef';
export const testAuditKeys = auditKeyring(TEST_AUDIT_CHAIN_KEY);

const databases = new WeakMap<FastifyInstance, AppDatabase>();

/** The database behind a test app, for arranging states no request can reach (an expired code). */
export function testDatabaseOf(app: FastifyInstance): AppDatabase {
  const db = databases.get(app);
  if (!db) throw new Error('not a test app');
  return db;
}

/** The whole app on a fresh database, for `inject` calls. Closing the app drops the database. */
export async function buildTestApp(
  kind: DatabaseKind,
  options: {
    env?: Record<string, string>;
    webRoot?: string;
    model?: FormModel;
    extend?: (app: FastifyInstance) => void;
    /** Silent unless given, e.g. `{ level: 'info', stream }` to read what the app logs. */
    logger?: FastifyServerOptions['logger'];
    /** Import the default school lists into the empty lookup table, as main.ts does. */
    defaultLookupLists?: boolean;
    /** An existing database instead of a fresh one, to start again on it; the app closes it. */
    database?: DatabaseHandle;
    /** Changes to the sample tenant's configuration (decision codes, a reply deadline). */
    tenant?: (tenant: TenantConfig) => TenantConfig;
  } = {},
): Promise<FastifyInstance> {
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    // Files a test app stores go to a folder of its own, never the developer's ./data.
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'portal-test-data-')),
    ...(options.env?.NODE_ENV === 'production' ? {} : { DEV_TOOLS_KEY: TEST_DEV_TOOLS_KEY }),
    AUDIT_CHAIN_KEY: TEST_AUDIT_CHAIN_KEY,
    ...options.env,
  });
  const sample = await loadTenantConfig(sampleTenantFile);
  const tenant = options.tenant ? options.tenant(sample) : sample;
  const database = options.database ?? (await createTestDatabase(kind));
  const app = await buildApp({
    env,
    tenant,
    database,
    logger: options.logger ?? false,
    webRoot: options.webRoot,
    model: options.model ?? applicationModel,
    defaultLookupLists: options.defaultLookupLists,
  });
  databases.set(app, database.db);
  options.extend?.(app);
  await app.ready();
  return app;
}
