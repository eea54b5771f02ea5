import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadEnv } from '../config/env';
import { projectRoot } from '../config/project-root';
import { loadTenantConfig } from '../config/tenant';
import { createTestDatabase, type DatabaseKind } from './test-database';

export const sampleTenantFile = path.join(projectRoot, 'tenant', 'sample-tenant.json');

/** The whole app on a fresh database, for `inject` calls. Closing the app drops the database. */
export async function buildTestApp(
  kind: DatabaseKind,
  options: {
    env?: Record<string, string>;
    webRoot?: string;
    extend?: (app: FastifyInstance) => void;
  } = {},
): Promise<FastifyInstance> {
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...options.env });
  const tenant = await loadTenantConfig(sampleTenantFile);
  const database = await createTestDatabase(kind);
  const app = await buildApp({ env, tenant, database, logger: false, webRoot: options.webRoot });
  options.extend?.(app);
  await app.ready();
  return app;
}
