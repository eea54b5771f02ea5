import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applicationChanges,
  applicationSisIds,
  auditEvents,
  integrationEvents,
} from '../db/schema';
import { insertApplications } from '../test/export-helpers';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { createApiClients } from './api-clients';
import { createApiClientsStore } from './api-clients-store';

const form = (values: Record<string, string>) => new URLSearchParams(values).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe.each(databaseKinds)('the integrators’ API kernel on %s', (kind) => {
  let app: FastifyInstance;
  let client: { client_id: string; secret: string; id: string };

  beforeAll(async () => {
    app = await buildTestApp(kind);
    const clients = createApiClients(createApiClientsStore(testDatabaseOf(app)));
    const made = await clients.create({
      name: 'Banner nightly',
      scopes: ['applications:read'],
      createdBy: 'test',
    });
    client = { client_id: made.client.client_id, secret: made.secret, id: made.client.id };
  });
  afterAll(async () => {
    await app.close();
  });

  it('issues a token for the right secret, by form or by HTTP Basic, and no-store', async () => {
    const byForm = await app.inject({
      method: 'POST',
      url: '/api/v1/oauth/token',
      headers: FORM,
      payload: form({
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: client.secret,
      }),
    });
    expect(byForm.statusCode).toBe(200);
    expect(byForm.headers['cache-control']).toBe('no-store');
    expect(byForm.json()).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'applications:read',
    });
    const basic = Buffer.from(`${client.client_id}:${client.secret}`).toString('base64');
    const byBasic = await app.inject({
      method: 'POST',
      url: '/api/v1/oauth/token',
      headers: { ...FORM, authorization: `Basic ${basic}` },
      payload: form({ grant_type: 'client_credentials', scope: 'applications:read' }),
    });
    expect(byBasic.statusCode).toBe(200);
  });

  it('refuses a wrong secret, an unheld or unknown scope and another grant, the OAuth way', async () => {
    const ask = (values: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/oauth/token',
        headers: FORM,
        payload: form(values),
      });
    const wrong = await ask({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: `${client.secret}x`,
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: 'invalid_client' });
    const unheld = await ask({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.secret,
      scope: 'decisions:read',
    });
    expect(unheld.statusCode).toBe(400);
    expect(unheld.json()).toMatchObject({ error: 'invalid_scope' });
    const unknown = await ask({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.secret,
      scope: 'everything',
    });
    expect(unknown.json().error_description).toContain('everything');
    const password = await ask({ grant_type: 'password', client_id: client.client_id });
    expect(password.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('answers an unknown address under /api/v1 as problem details', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status: 404, title: 'Not Found' });
  });

  it('records events of submitted applications only, each application once in the change log', async () => {
    const db = testDatabaseOf(app);
    const [draft, submitted] = await insertApplications(app, `kernel-${kind}`, [
      {},
      { status: 'submitted', submittedAt: '2026-11-01T10:00:00Z' },
    ]);
    await db.insert(applicationSisIds).values({
      accountId: draft as string,
      sisId: 'S0',
      setByLabel: 'test',
    });
    await db.insert(applicationSisIds).values({
      accountId: submitted as string,
      sisId: 'S1',
      setByLabel: 'test',
    });
    const events = await db
      .select({ type: integrationEvents.type, account: integrationEvents.accountId })
      .from(integrationEvents)
      .where(sql`${integrationEvents.accountId} in (${draft}, ${submitted})`)
      .orderBy(asc(integrationEvents.seq));
    expect(events).toEqual([
      { type: 'application.submitted', account: submitted },
      { type: 'application.updated', account: submitted },
    ]);
    const changes = await db
      .select({ seq: applicationChanges.seq })
      .from(applicationChanges)
      .where(eq(applicationChanges.accountId, submitted as string));
    expect(changes).toHaveLength(1);
    // Nothing about API clients has been audited yet: only calls are.
    const calls = await db.select().from(auditEvents).where(eq(auditEvents.action, 'api.call'));
    expect(calls).toHaveLength(0);
  });

  it('answers a read written beside its audit entry only once the entry is written', async () => {
    const db = testDatabaseOf(app);
    const [submitted] = await insertApplications(app, `alongside-${kind}`, [
      { status: 'submitted', submittedAt: '2026-11-02T10:00:00Z' },
    ]);
    const issued = await app.inject({
      method: 'POST',
      url: '/api/v1/oauth/token',
      headers: FORM,
      payload: form({
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: client.secret,
      }),
    });
    const headers = { authorization: `Bearer ${issued.json().access_token}` };
    const reads = [`/api/v1/applications?limit=1000`, `/api/v1/applications/${submitted}`];
    await db.execute(sql`
      create function refuse_audit() returns trigger language plpgsql as
        $$ begin raise exception 'the audit trail is unavailable'; end $$`);
    await db.execute(sql`
      create trigger refuse_audit before insert on audit_events
        for each row execute function refuse_audit()`);
    try {
      for (const url of reads) {
        const refused = await app.inject({ method: 'GET', url, headers });
        expect(refused.statusCode, url).toBe(500);
        expect(refused.body).not.toContain(submitted);
        expect(refused.headers['cache-control']).toBe('no-store');
      }
    } finally {
      await db.execute(sql`drop trigger refuse_audit on audit_events`);
      await db.execute(sql`drop function refuse_audit()`);
    }
    for (const url of reads) {
      const answered = await app.inject({ method: 'GET', url, headers });
      expect(answered.statusCode, url).toBe(200);
      expect(answered.body).toContain(submitted);
    }
    const calls = await db
      .select({ detail: auditEvents.detail, applicationId: auditEvents.applicationId })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'api.call'));
    expect(calls).toEqual([
      {
        detail: expect.objectContaining({ operation: 'listApplicationChanges' }),
        applicationId: null,
      },
      {
        detail: expect.objectContaining({ operation: 'getApplication' }),
        applicationId: submitted,
      },
    ]);
  });
});
