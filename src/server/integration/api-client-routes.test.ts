import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiClientSecretResponse,
  type ApiClientView,
  apiClientUrls,
} from '../../shared/integration/api-clients-api';
import { apiClients, auditEvents } from '../db/schema';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe.each(databaseKinds)('API clients in the console on %s', (kind) => {
  let app: FastifyInstance;
  let admin: SignedInStaff;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    admin = await signedInStaff(app, { role: 'admin' });
  });
  afterAll(async () => {
    await app.close();
  });

  const uniqueName = (base: string) => `${base} ${randomBytes(4).toString('hex')}`;
  const create = (body: unknown, member: SignedInStaff = admin) =>
    app.inject({
      method: 'POST',
      url: apiClientUrls.clients,
      headers: { cookie: member.cookie },
      payload: body as object,
    });
  const postTo = (url: string, member: SignedInStaff = admin) =>
    app.inject({ method: 'POST', url, headers: { cookie: member.cookie }, payload: {} });
  const token = (clientId: string, secret: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/oauth/token',
      headers: FORM,
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
      }).toString(),
    });
  const auditOf = (action: string, clientId: string) =>
    testDatabaseOf(app)
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, action), sql`${auditEvents.detail}->>'client_id' = ${clientId}`),
      );

  it('makes a client whose secret is shown once, stored as a hash, and gets a token', async () => {
    const name = uniqueName('Banner nightly');
    const response = await create({
      name: `  ${name}  `,
      scopes: ['decisions:read', 'applications:read', 'applications:read'],
      rate_limit_per_minute: 120,
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json() as ApiClientSecretResponse;
    expect(body.client).toMatchObject({
      name,
      scopes: ['applications:read', 'decisions:read'],
      rate_limit_per_minute: 120,
      revoked_at: null,
    });
    expect(body.client_secret).toMatch(/^ics_/);
    const [row] = await testDatabaseOf(app)
      .select()
      .from(apiClients)
      .where(eq(apiClients.id, body.client.id));
    expect(row?.secretHash).not.toContain(body.client_secret);
    expect(JSON.stringify(row)).not.toContain(body.client_secret);

    const list = await app.inject({
      method: 'GET',
      url: apiClientUrls.clients,
      headers: { cookie: admin.cookie },
    });
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.body).not.toContain(body.client_secret);
    const listed = (list.json() as ApiClientView[]).find((client) => client.id === body.client.id);
    expect(listed?.created_by).toBeTruthy();

    expect((await token(body.client.client_id, body.client_secret)).statusCode).toBe(200);
    const [entry] = await auditOf('api_client.created', body.client.client_id);
    expect(entry).toMatchObject({ actorType: 'staff', actorId: admin.staffId });
    expect(JSON.stringify(entry?.detail)).not.toContain(body.client_secret);
  });

  it('rotates a secret: the old one and its tokens stop, the new one works', async () => {
    const made = (
      await create({ name: uniqueName('Rotating'), scopes: ['applications:read'] })
    ).json() as ApiClientSecretResponse;
    const rotated = await postTo(apiClientUrls.rotate(made.client.id));
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    const fresh = rotated.json() as ApiClientSecretResponse;
    expect(fresh.client_secret).not.toBe(made.client_secret);
    expect((await token(made.client.client_id, made.client_secret)).statusCode).toBe(401);
    expect((await token(made.client.client_id, fresh.client_secret)).statusCode).toBe(200);
    expect(await auditOf('api_client.secret_rotated', made.client.client_id)).toHaveLength(1);
  });

  it('revokes a client for good, once on record, and refuses to rotate it after', async () => {
    const made = (
      await create({ name: uniqueName('Revoked'), scopes: ['webhooks:manage'] })
    ).json() as ApiClientSecretResponse;
    const first = await postTo(apiClientUrls.revoke(made.client.id));
    expect(first.statusCode).toBe(200);
    expect((first.json() as ApiClientView).revoked_at).not.toBeNull();
    expect((await postTo(apiClientUrls.revoke(made.client.id))).statusCode).toBe(200);
    expect(await auditOf('api_client.revoked', made.client.client_id)).toHaveLength(1);
    expect((await token(made.client.client_id, made.client_secret)).statusCode).toBe(401);
    expect((await postTo(apiClientUrls.rotate(made.client.id))).statusCode).toBe(409);
  });

  it('refuses bad input with a sentence per field', async () => {
    const scopes = ['applications:read'];
    const cases: Array<[unknown, string]> = [
      [{ name: uniqueName('Extra'), scopes, secret: 'mine' }, ''],
      [{ name: uniqueName('Unknown'), scopes: ['applications:read', 'everything'] }, 'everything'],
      [{ name: uniqueName('None'), scopes: [] }, 'at least one scope'],
      [{ name: '   ', scopes }, 'Enter a name'],
      [{ name: 'x'.repeat(81), scopes }, 'at most 80'],
      [{ name: 'Tab\there', scopes }, 'control characters'],
      [{ name: uniqueName('Rate'), scopes, rate_limit_per_minute: 0 }, 'rate limit'],
      [{ name: uniqueName('Rate'), scopes, rate_limit_per_minute: 1.5 }, 'rate limit'],
      [{ name: 'NUL\u0000name', scopes }, ''],
      [{ name: 'Lone \ud800 surrogate', scopes }, ''],
      [{ scopes }, 'Enter a name'],
    ];
    for (const [body, text] of cases) {
      const response = await create(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.body).toContain(text);
    }
  });

  it('answers a taken name 409 and an unknown client 404', async () => {
    const name = uniqueName('Twice');
    expect((await create({ name, scopes: ['applications:read'] })).statusCode).toBe(201);
    const again = await create({ name, scopes: ['decisions:read'] });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already exists');
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await postTo(apiClientUrls.rotate(missing))).statusCode).toBe(404);
    expect((await postTo(apiClientUrls.revoke(missing))).statusCode).toBe(404);
    expect((await postTo(apiClientUrls.revoke('not-a-uuid'))).statusCode).toBe(400);
  });

  it('keeps readers and evaluators out, and asks an administrator for a fresh second factor', async () => {
    const reader = await signedInStaff(app, { role: 'reader' });
    const evaluator = await signedInStaff(app, { role: 'evaluator' });
    for (const member of [reader, evaluator]) {
      const list = await app.inject({
        method: 'GET',
        url: apiClientUrls.clients,
        headers: { cookie: member.cookie },
      });
      expect(list.statusCode).toBe(403);
      expect(
        (await create({ name: uniqueName('No'), scopes: ['applications:read'] }, member))
          .statusCode,
      ).toBe(403);
    }
    const stale = await signedInStaff(app, { role: 'admin', fresh2fa: false });
    const list = await app.inject({
      method: 'GET',
      url: apiClientUrls.clients,
      headers: { cookie: stale.cookie },
    });
    expect(list.statusCode).toBe(200);
    const refused = await create(
      { name: uniqueName('Stale'), scopes: ['applications:read'] },
      stale,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('step_up_required');
  });
});
