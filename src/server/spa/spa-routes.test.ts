import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/test-app';
import { webPageFile } from './spa-routes';

describe('the web app pages', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const webRoot = mkdtempSync(path.join(tmpdir(), 'portal-web-'));
    writeFileSync(path.join(webRoot, 'index.html'), '<title>applicant</title>');
    writeFileSync(path.join(webRoot, 'staff.html'), '<title>staff</title>');
    app = await buildTestApp('pglite', { webRoot });
  });
  afterAll(async () => {
    await app.close();
  });

  it('picks the staff console for /staff and below, the applicant app elsewhere', () => {
    expect(webPageFile('/staff')).toBe('staff.html');
    expect(webPageFile('/staff/audit')).toBe('staff.html');
    expect(webPageFile('/staffing')).toBe('index.html');
    expect(webPageFile('/about')).toBe('index.html');
  });

  it('serves each page its app, and a JSON 404 for unknown staff API paths', async () => {
    const staffPage = await app.inject({ url: '/staff/sign-in?error=sso_no_role' });
    expect(staffPage.statusCode).toBe(200);
    expect(staffPage.body).toBe('<title>staff</title>');
    expect((await app.inject({ url: '/about' })).body).toBe('<title>applicant</title>');
    const unknown = await app.inject({ url: '/staff/api/no-such-thing' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/json');
  });
});
