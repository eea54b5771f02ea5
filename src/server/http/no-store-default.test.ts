import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInApplicant } from '../test/accounts-helpers';
import { buildTestApp } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

/** A stand-in for the built web app: an index page and one hashed asset. */
function builtWebRoot(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'portal-web-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Apply</title>');
  writeFileSync(path.join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
  return root;
}

describe.each(databaseKinds)('caching of responses on %s', (kind) => {
  let app: FastifyInstance;
  let cookie: string;
  beforeAll(async () => {
    app = await buildTestApp(kind, { webRoot: builtWebRoot() });
    cookie = await signedInApplicant(app, `cache.${kind}@example.edu`);
  });
  afterAll(async () => {
    await app.close();
  });

  it('keeps every response with an applicant’s data out of caches', async () => {
    for (const url of [
      '/api/profile',
      '/api/document-answer',
      '/api/tabs',
      '/api/add-another',
      '/api/pdf',
      '/api/pdf/document-answer/hs_transcript',
    ]) {
      const response = await app.inject({ url, headers: { cookie } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('keeps refusals and errors out of caches too', async () => {
    for (const url of ['/api/profile', '/api/nothing-here', '/service/tmp-pdf']) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('lets what holds no personal data be cached as its route says', async () => {
    const asset = await app.inject('/assets/index-abc123.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await app.inject('/about')).headers['cache-control']).toBe('no-cache');
    expect((await app.inject('/public/tenant')).headers['cache-control']).toBe('no-cache');
    const lookup = await app.inject('/lookup/find?category=address&text=97201');
    expect(lookup.headers['cache-control']).toBe('private, max-age=300');
  });
});
