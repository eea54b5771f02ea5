import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SERVICE_LINK_REFUSED_MESSAGE,
  serviceDocumentPdfUrl,
  servicePdfUrl,
  serviceViewUrl,
} from '../../shared/api/service';
import {
  type AuditEventView,
  type CreatedServiceLink,
  type ServiceLinkSummary,
  STAFF_MESSAGES,
} from '../../shared/staff/staff-api';
import { sha256 } from '../accounts/secrets';
import { createAuditTrail } from '../audit/audit-trail';
import { accounts, applications, serviceTokens } from '../db/schema';
import { STAFF_FORBIDDEN_MESSAGE, STAFF_SESSION_ENDED_MESSAGE } from '../staff/staff-sessions';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testAuditKeys, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import {
  APPLICATION_NOT_FOUND_MESSAGE,
  SERVICE_LINK_NOT_FOUND_MESSAGE,
} from './service-link-routes';
import { mintServiceToken } from './service-tokens';

const DAY_MS = 86_400_000;

describe.each(databaseKinds)('read-only links in the console on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;
  let admin: SignedInStaff;
  let counter = 0;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader' });
    admin = await signedInStaff(app, { role: 'admin' });
  });
  afterAll(async () => {
    await app.close();
  });

  const db = () => testDatabaseOf(app);
  const call = (
    method: 'GET' | 'POST',
    url: string,
    options: { cookie?: string; payload?: object } = {},
  ) =>
    app.inject({
      method,
      url,
      headers: { cookie: options.cookie ?? reader.cookie },
      ...(options.payload ? { payload: options.payload } : {}),
    });
  const linksOf = (applicationId: string) => `/staff/api/applications/${applicationId}/links`;

  /** An applicant's account and application, written as signing up and submitting leave them. */
  async function applicant(submitted = true): Promise<{ email: string; applicationId: string }> {
    const email = `link${++counter}.${kind}@example.edu`;
    const [row] = await db()
      .insert(accounts)
      .values({ email, confirmedAt: sql`now()` })
      .returning({ id: accounts.id });
    const applicationId = row?.id as string;
    await db()
      .insert(applications)
      .values({
        accountId: applicationId,
        answers: { first_name: `Applicant ${counter}` },
        submittedAt: submitted ? sql`now()` : null,
      });
    return { email, applicationId };
  }

  async function create(applicationId: string, days = 7, cookie = reader.cookie) {
    const response = await call('POST', linksOf(applicationId), { cookie, payload: { days } });
    expect(response.statusCode, response.body).toBe(201);
    const link: CreatedServiceLink = response.json();
    const token = new URL(link.url).searchParams.get('service_token') as string;
    return { link, token };
  }

  /** The trail's entries about one application, newest first, as an administrator reads them. */
  async function auditOf(query: string): Promise<AuditEventView[]> {
    const response = await call('GET', `/staff/api/audit?${query}`, { cookie: admin.cookie });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().events;
  }

  it('finds an application by its applicant’s exact address, and records the search', async () => {
    const { email, applicationId } = await applicant();
    const found = await call('GET', `/staff/api/applications?email=${email.toUpperCase()}`);
    expect(found.statusCode).toBe(200);
    expect(found.headers['cache-control']).toBe('no-store');
    expect(found.json()).toEqual([
      { id: applicationId, email, status: 'submitted', submitted_at: expect.any(String) },
    ]);
    const draft = await applicant(false);
    expect((await call('GET', `/staff/api/applications?email=${draft.email}`)).json()).toEqual([
      { id: draft.applicationId, email: draft.email, status: 'started', submitted_at: null },
    ]);
    const partial = `/staff/api/applications?email=${email.replace('link', 'lin')}`;
    expect((await call('GET', partial)).json()).toEqual([]);
    expect((await call('GET', '/staff/api/applications?email=not-an-address')).statusCode).toBe(
      400,
    );

    const [search] = await auditOf(`application=${applicationId}&action=application.search`);
    expect(search).toMatchObject({
      actor_type: 'staff',
      actor_id: reader.staffId,
      actor_label: reader.email,
      detail: { email: email.toUpperCase(), found: 1 },
      ip: '127.0.0.1',
    });
    const misses = await auditOf(`actor=${reader.staffId}&action=application.search`);
    expect(misses.some((event) => event.detail.found === 0)).toBe(true);
  });

  it('creates a link shown once, stored hashed, that opens the application read-only', async () => {
    const { applicationId } = await applicant();
    const before = Date.now();
    const { link, token } = await create(applicationId, 7);
    expect(link.url).toBe(`http://localhost:80/about?service_token=${token}`);
    expect(link.pdf_url).toBe(`http://localhost:80${servicePdfUrl(token)}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link).toMatchObject({ state: 'live', revoked_at: null, created_by: reader.email });
    const lifetime = new Date(link.expires_at).getTime() - before;
    expect(Math.abs(lifetime - 7 * DAY_MS)).toBeLessThan(60_000);

    const [row] = await db().select().from(serviceTokens).where(eq(serviceTokens.id, link.id));
    expect(row).toMatchObject({ tokenHash: sha256(token), createdBy: reader.staffId });
    expect(JSON.stringify(row)).not.toContain(token);

    const view = await app.inject(serviceViewUrl(token));
    expect(view.statusCode).toBe(200);
    expect(view.json().answer.first_name).toMatch(/^Applicant /);

    const [created] = await auditOf(`application=${applicationId}&action=service_link.created`);
    expect(created).toMatchObject({
      actor_id: reader.staffId,
      detail: { link_id: link.id, days: 7, expires_at: link.expires_at },
    });
    expect(JSON.stringify(created)).not.toContain(token);
  });

  it('makes links for 1 to 30 days only', async () => {
    const { applicationId } = await applicant();
    expect((await create(applicationId, 30)).link.state).toBe('live');
    expect((await create(applicationId, 1)).link.state).toBe('live');
    for (const payload of [{ days: 31 }, { days: 0 }, { days: 1.5 }, { days: '7' }, {}]) {
      const response = await call('POST', linksOf(applicationId), { payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errors.days).toEqual([STAFF_MESSAGES.linkDaysInvalid]);
    }
    expect(
      await db().select().from(serviceTokens).where(eq(serviceTokens.accountId, applicationId)),
    ).toHaveLength(2);
  });

  it('lists an application’s links, newest first, live, expired or revoked, never a token', async () => {
    const { applicationId } = await applicant();
    const fromCommand = await mintServiceToken(db(), applicationId, DAY_MS);
    const expired = await create(applicationId, 1);
    await db()
      .update(serviceTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(serviceTokens.id, expired.link.id));
    const revoked = await create(applicationId, 2, admin.cookie);
    expect(
      (await call('POST', `${linksOf(applicationId)}/${revoked.link.id}/revoke`)).statusCode,
    ).toBe(200);
    const live = await create(applicationId, 3);

    const response = await call('GET', linksOf(applicationId));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const links: ServiceLinkSummary[] = response.json();
    expect(links.map((link) => [link.id, link.state, link.created_by])).toEqual([
      [live.link.id, 'live', reader.email],
      [revoked.link.id, 'revoked', admin.email],
      [expired.link.id, 'expired', reader.email],
      [fromCommand.id, 'live', null],
    ]);
    expect(links[1]?.revoked_at).toEqual(expect.any(String));
    for (const { token } of [expired, revoked, live]) expect(response.body).not.toContain(token);
    expect(response.body).not.toContain(fromCommand.token);
    expect(Object.keys(links[0] ?? {}).sort()).toEqual([
      'created_at',
      'created_by',
      'expires_at',
      'id',
      'revoked_at',
      'state',
    ]);
  });

  it('revokes a link: the spec’s refusal follows, and the revocation is recorded', async () => {
    const { applicationId } = await applicant();
    const { link, token } = await create(applicationId);
    const kept = await create(applicationId);
    const response = await call('POST', `${linksOf(applicationId)}/${link.id}/revoke`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: link.id, state: 'revoked' });

    for (const url of [serviceViewUrl(token), serviceDocumentPdfUrl('statement_doc', token)]) {
      const refused = await app.inject(url);
      expect(refused.statusCode, url).toBe(401);
      expect(refused.json()).toEqual({ message: SERVICE_LINK_REFUSED_MESSAGE });
    }
    expect((await app.inject(serviceViewUrl(kept.token))).statusCode).toBe(200);

    const [revoked] = await auditOf(`application=${applicationId}&action=service_link.revoked`);
    expect(revoked).toMatchObject({ actor_id: reader.staffId, detail: { link_id: link.id } });
    // A refused link reaches no application, so nothing is recorded as its use.
    expect(await auditOf(`actor=${link.id}`)).toEqual([]);
  });

  it('answers 404 for an unknown application, or a link of another application', async () => {
    const first = await applicant();
    const second = await applicant();
    const { link, token } = await create(first.applicationId);
    const unknown = randomUUID();

    const elsewhere = await call('POST', `${linksOf(second.applicationId)}/${link.id}/revoke`);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().message).toBe(SERVICE_LINK_NOT_FOUND_MESSAGE);
    const noSuchLink = await call('POST', `${linksOf(first.applicationId)}/${unknown}/revoke`);
    expect(noSuchLink.statusCode).toBe(404);
    expect((await app.inject(serviceViewUrl(token))).statusCode).toBe(200);

    for (const [method, url, payload] of [
      ['GET', linksOf(unknown)],
      ['POST', linksOf(unknown), { days: 1 }],
      ['POST', `${linksOf(unknown)}/${link.id}/revoke`],
    ] as const) {
      const response = await call(method, url, payload ? { payload } : {});
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().message).toBe(APPLICATION_NOT_FOUND_MESSAGE);
    }
    expect((await call('GET', linksOf('not-a-uuid'))).statusCode).toBe(400);
    expect(
      (await call('POST', `${linksOf(first.applicationId)}/not-a-uuid/revoke`)).statusCode,
    ).toBe(400);
    expect(await auditOf(`application=${second.applicationId}`)).toEqual([]);
  });

  it('is for signed-in staff only', async () => {
    const { applicationId } = await applicant();
    const { link } = await create(applicationId);
    for (const [method, url, payload] of [
      ['GET', '/staff/api/applications?email=a@example.edu'],
      ['GET', linksOf(applicationId)],
      ['POST', linksOf(applicationId), { days: 1 }],
      ['POST', `${linksOf(applicationId)}/${link.id}/revoke`],
    ] as const) {
      const response = await app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json().message).toBe(STAFF_SESSION_ENDED_MESSAGE);
    }
    expect((await call('GET', linksOf(applicationId))).statusCode).toBe(200);
    // Readers manage links, but the trail of what they did is for administrators.
    const trail = await call('GET', `/staff/api/audit?application=${applicationId}`);
    expect(trail.statusCode).toBe(403);
    expect(trail.json().message).toBe(STAFF_FORBIDDEN_MESSAGE);
  });

  it('records every use of a link: which link, what it opened, from where', async () => {
    const { applicationId } = await applicant();
    const { link, token } = await create(applicationId);
    expect((await app.inject(serviceViewUrl(token))).statusCode).toBe(200);
    expect((await app.inject(serviceDocumentPdfUrl('statement_doc', token))).statusCode).toBe(404);

    const uses = await auditOf(`actor=${link.id}`);
    expect(uses.map((use) => [use.action, use.detail])).toEqual([
      ['service_link.used', { what: 'document', answer_key: 'statement_doc' }],
      ['service_link.used', { what: 'view' }],
    ]);
    for (const use of uses) {
      expect(use).toMatchObject({
        actor_type: 'service_link',
        actor_id: link.id,
        actor_label: null,
        application_id: applicationId,
        ip: '127.0.0.1',
      });
    }
    expect(await createAuditTrail(db(), testAuditKeys).verify()).toMatchObject({ ok: true });
  });
});
