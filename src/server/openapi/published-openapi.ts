import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applicationModel } from '../../shared/application/application-model';
import { buildApp } from '../app';
import { loadEnv } from '../config/env';
import { projectRoot } from '../config/project-root';
import { loadTenantConfig } from '../config/tenant';
import { openDatabase } from '../db/database';
import type { OpenApiDocument } from '../integration/openapi-document';

/** Where the published document is kept, reviewed like code: a change to it is a change to the API. */
export const PUBLISHED_OPENAPI_FILE = path.join(projectRoot, 'docs', 'openapi-v1.json');

/**
 * The document exactly as a server serves it: the whole app built on an empty in-memory database
 * (the document depends on no data), asked for `/api/v1/openapi.json`, and closed.
 */
export async function generateOpenApiDocument(): Promise<OpenApiDocument> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-openapi-'));
  try {
    const env = loadEnv({ NODE_ENV: 'development', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
    const app = await buildApp({
      env,
      tenant: await loadTenantConfig(path.join(projectRoot, 'tenant', 'sample-tenant.json')),
      database: await openDatabase({ kind: 'pglite-memory' }),
      logger: false,
      model: applicationModel,
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      if (response.statusCode !== 200)
        throw new Error(`the document was not served: ${response.statusCode}`);
      return response.json() as OpenApiDocument;
    } finally {
      await app.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
