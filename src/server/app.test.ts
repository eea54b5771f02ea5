import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../shared/api/errors';
import { buildTestApp } from './test/test-app';
import { databaseKinds } from './test/test-database';

describe.each(databaseKinds)('the app on %s', (kind) => {
  let app: FastifyInstance;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = await mkdtemp(path.join(tmpdir(), 'portal-web-'));
    await mkdir(path.join(webRoot, 'assets'));
    await writeFile(path.join(webRoot, 'index.html'), '<!doctype html><title>portal shell</title>');
    await writeFile(path.join(webRoot, 'assets', 'app-1234.js'), 'console.log(1)');
    app = await buildTestApp(kind, {
      webRoot,
      extend(instance) {
        instance.get('/api/test-throws', async () => {
          throw new Error('secret internal detail');
        });
        instance.post('/api/test-echo', async (request) => ({ received: request.body }));
      },
    });
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers /healthz and /readyz', async () => {
    const health = await app.inject('/healthz');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: kind });
  });

  it('serves the web app for client routes, keeping API paths JSON', async () => {
    const page = await app.inject('/about?x=1');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('portal shell');

    const unknownRoute = await app.inject('/nowhere/at/all');
    expect(unknownRoute.body).toContain('portal shell');

    const asset = await app.inject('/assets/app-1234.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');

    for (const url of [
      '/assets/missing.js',
      '/api/nothing-here',
      '/public/nothing',
      '/favicon.ico',
    ]) {
      const missing = await app.inject(url);
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json(), url).toEqual({ message: 'There is nothing at this address.' });
    }
    const post = await app.inject({ method: 'POST', url: '/about', payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it('answers 401 for the profile of an anonymous visitor', async () => {
    const profile = await app.inject('/api/profile');
    expect(profile.statusCode).toBe(401);
    expect(profile.json()).toEqual({ message: 'Your session has ended. Please log in again.' });
  });

  it('sends the security headers', async () => {
    const page = await app.inject('/about');
    const csp = String(page.headers['content-security-policy']);
    const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src'));
    expect(scriptSrc?.trim()).toBe("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(page.headers['strict-transport-security']).toContain('max-age=31536000');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('hides thrown errors behind the generic message', async () => {
    const response = await app.inject('/api/test-throws');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: GENERIC_SERVER_ERROR_MESSAGE });
    expect(response.body).not.toContain('secret internal detail');
  });

  it('refuses malformed, oversized and non-JSON bodies with a sentence', async () => {
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/test-echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'The request body is not valid JSON.' });

    const huge = await app.inject({
      method: 'POST',
      url: '/api/test-echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'x'.repeat(600 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ message: 'The request body is too large.' });

    const wrongType = await app.inject({
      method: 'POST',
      url: '/api/test-echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json()).toEqual({ message: 'Send the request body as application/json.' });
  });

  it('serves the tenant configuration and its theme as CSS custom properties', async () => {
    const tenant = await app.inject('/public/tenant');
    expect(tenant.statusCode).toBe(200);
    expect(tenant.json().partner_name).toBe('Northfield State University');
    // Decision letters are the office's: not published.
    expect(tenant.json()).not.toHaveProperty('decisions');
    // The GPA rules are published: the coursework grid computes the totals as the server does.
    expect(tenant.json().coursework.grade_points['A-']).toBe(3.7);
    const css = await app.inject('/tenant.css');
    expect(css.headers['content-type']).toMatch(/text\/css/);
    expect(css.body).toContain('--color-primary-main: #0b3d91;');
    expect(css.body).toContain('--color-neutral-extra-light: #f7f7f8;');
  });
});
