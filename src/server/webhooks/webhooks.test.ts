import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiScope } from '../../shared/integration/api-scopes';
import {
  auditEvents,
  checklistMarks,
  decisions,
  integrationEvents,
  webhookAttempts,
  webhookDeliveries,
  webhookSubscriptions,
} from '../db/schema';
import { createApiClients } from '../integration/api-clients';
import { createApiClientsStore } from '../integration/api-clients-store';
import { mailsTo } from '../test/accounts-helpers';
import { insertApplications } from '../test/export-helpers';
import { signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { RETRY_SCHEDULE_MS } from './webhook-delivery';
import { type ReceivedRequest, startReceiver } from './webhooks-test-support';

/** An API client holding these scopes and a token for all of them. */
async function apiToken(
  app: FastifyInstance,
  name: string,
  scopes: ApiScope[],
): Promise<{ token: string; id: string }> {
  const clients = createApiClients(createApiClientsStore(testDatabaseOf(app)));
  const made = await clients.create({ name, scopes, createdBy: 'test' });
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: made.client.client_id,
      client_secret: made.secret,
    }).toString(),
  });
  return { token: (response.json() as { access_token: string }).access_token, id: made.client.id };
}

const WAIT = { timeout: 15_000, interval: 25 };

function payloadOf(request: ReceivedRequest): {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
} {
  return JSON.parse(request.body);
}

describe.each(databaseKinds)('signed webhooks on %s', (kind) => {
  let app: FastifyInstance;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let full: { token: string; id: string };
  let narrow: { token: string; id: string };
  /** Paths whose next N requests are refused with a 500. */
  const failures = new Map<string, number>();
  let tag = 0;

  beforeAll(async () => {
    receiver = await startReceiver((request) => {
      if (request.path.startsWith('/down')) return 503;
      const left = failures.get(request.path) ?? 0;
      if (left > 0) {
        failures.set(request.path, left - 1);
        return 500;
      }
      return 204;
    });
    app = await buildTestApp(kind);
    full = await apiToken(app, `full-${kind}`, [
      'applications:read',
      'decisions:read',
      'webhooks:manage',
    ]);
    narrow = await apiToken(app, `narrow-${kind}`, ['applications:read', 'webhooks:manage']);
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  const api = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function subscribe(
    token: string,
    path: string,
    events: string[],
  ): Promise<{ id: string; secret: string; path: string }> {
    const response = await api(token, 'POST', '/webhooks', {
      url: `${receiver.url}${path}`,
      events,
      description: `test ${path}`,
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json() as { id: string; secret: string };
    return { id: body.id, secret: body.secret, path };
  }

  const requestsTo = (path: string) => receiver.received.filter((r) => r.path === path);

  async function submittedApplication(): Promise<string> {
    tag += 1;
    const [id] = await insertApplications(app, `hooks-${kind}-${tag}`, [
      { status: 'submitted', submittedAt: '2026-11-01T10:00:00Z' },
    ]);
    return id as string;
  }

  async function deliveriesOf(subscriptionId: string) {
    return testDatabaseOf(app)
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.subscriptionId, subscriptionId))
      .orderBy(webhookDeliveries.eventSeq);
  }

  /** Moves a pending delivery's next attempt to now, as if its wait had passed. */
  async function dueNow(deliveryId: string) {
    await testDatabaseOf(app)
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(webhookDeliveries.id, deliveryId));
  }

  it('sends a signed event promptly that an independent Standard Webhooks library verifies', async () => {
    const hook = await subscribe(full.token, '/signed', ['application.submitted']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const before = Date.now();
    const applicationId = await submittedApplication();
    await vi.waitFor(() => expect(requestsTo('/signed')).toHaveLength(1), WAIT);
    const [request] = requestsTo('/signed') as [ReceivedRequest];
    // The first attempt comes within seconds (the promise is a minute).
    expect(request.at.getTime() - before).toBeLessThan(60_000);
    const verified = new Webhook(hook.secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    }) as { type: string; data: { application_id: string } };
    expect(verified).toMatchObject({
      type: 'application.submitted',
      data: { application_id: applicationId },
    });
    expect(request.headers['webhook-id']).toMatch(/^msg_/);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toContain('admissions portal');
    expect(payloadOf(request).timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    // A tampered body does not verify.
    expect(() =>
      new Webhook(hook.secret).verify(request.body.replace('submitted', 'updated'), {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      }),
    ).toThrow();
    await vi.waitFor(async () => {
      const [delivery] = await deliveriesOf(hook.id);
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 204 });
    }, WAIT);
  });

  it('retries a failed delivery on the schedule with the same id, then delivers it', async () => {
    const hook = await subscribe(full.token, '/flaky', ['application.submitted']);
    failures.set('/flaky', 2);
    await submittedApplication();
    await vi.waitFor(async () => {
      const [delivery] = await deliveriesOf(hook.id);
      expect(delivery?.attempts).toBe(1);
    }, WAIT);
    const [first] = await deliveriesOf(hook.id);
    if (!first?.lastAttemptAt || !first.nextAttemptAt) throw new Error('no attempt');
    expect(first.status).toBe('pending');
    expect(first.lastStatusCode).toBe(500);
    expect(first.nextAttemptAt.getTime() - first.lastAttemptAt.getTime()).toBeGreaterThanOrEqual(
      (RETRY_SCHEDULE_MS[0] ?? 0) - 1_000,
    );
    await dueNow(first.id);
    await vi.waitFor(async () => {
      const [delivery] = await deliveriesOf(hook.id);
      expect(delivery?.attempts).toBe(2);
    }, WAIT);
    const [second] = await deliveriesOf(hook.id);
    if (!second?.lastAttemptAt || !second.nextAttemptAt) throw new Error('no attempt');
    // The waits grow: the second is minutes, not seconds.
    expect(second.nextAttemptAt.getTime() - second.lastAttemptAt.getTime()).toBeGreaterThan(60_000);
    await dueNow(second.id);
    await vi.waitFor(async () => {
      const [delivery] = await deliveriesOf(hook.id);
      expect(delivery?.status).toBe('delivered');
    }, WAIT);
    const sent = requestsTo('/flaky');
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(sent.map((r) => r.body)).size).toBe(1);
    const attempts = await testDatabaseOf(app)
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.deliveryId, first.id));
    expect(attempts.map((a) => a.statusCode)).toEqual([500, 500, 204]);
  });

  it('covers at least a day of retries, then disables the subscription, tells the administrators and audits it', async () => {
    const totalWait = RETRY_SCHEDULE_MS.reduce((sum, wait) => sum + wait, 0);
    expect(totalWait).toBeGreaterThanOrEqual(24 * 3_600_000);
    const admin = await signedInStaff(app, {
      role: 'admin',
      email: `hooks-admin-${kind}@example.edu`,
    });
    const hook = await subscribe(full.token, '/down', ['application.submitted']);
    await submittedApplication();
    for (let made = 1; made <= RETRY_SCHEDULE_MS.length + 1; made++) {
      await vi.waitFor(async () => {
        const [delivery] = await deliveriesOf(hook.id);
        expect(delivery?.attempts).toBe(made);
      }, WAIT);
      const [delivery] = await deliveriesOf(hook.id);
      if (delivery?.status === 'pending') await dueNow(delivery.id);
    }
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery?.status).toBe('failed');
    const got = await api(full.token, 'GET', `/webhooks/${hook.id}`);
    expect(got.json()).toMatchObject({ state: 'disabled' });
    expect(got.json().disabled_reason).toContain('failed 8 times');
    await vi.waitFor(async () => {
      const mails = await mailsTo(app, admin.email, /webhook subscription .* was disabled/);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toContain(`${receiver.url}/down`);
      expect(mails[0]?.text).toContain(`npm run webhooks -- enable ${hook.id}`);
    }, WAIT);
    const audited = await testDatabaseOf(app)
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'webhook.subscription_disabled'));
    expect(
      audited.some(
        (row) => (row.detail as { subscription_id?: string }).subscription_id === hook.id,
      ),
    ).toBe(true);
    expect(
      audited.find(
        (row) => (row.detail as { subscription_id?: string }).subscription_id === hook.id,
      )?.actorType,
    ).toBe('system');

    // Events while disabled wait; enabled again, it goes on from where it stopped.
    const later = await submittedApplication();
    const enabled = await app.inject({
      method: 'POST',
      url: `/staff/api/webhooks/${hook.id}/enable`,
      headers: { cookie: admin.cookie },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toMatchObject({ state: 'active', disabled_reason: null });
    await testDatabaseOf(app)
      .update(webhookSubscriptions)
      .set({ url: `${receiver.url}/back` })
      .where(eq(webhookSubscriptions.id, hook.id));
    await vi.waitFor(() => expect(requestsTo('/back')).toHaveLength(1), WAIT);
    expect(payloadOf(requestsTo('/back')[0] as ReceivedRequest).data.application_id).toBe(later);
  });

  it('replays a delivery now with the same id and body, logged as a replay', async () => {
    const hook = await subscribe(full.token, '/replay', ['application.submitted']);
    await submittedApplication();
    await vi.waitFor(() => expect(requestsTo('/replay')).toHaveLength(1), WAIT);
    const [delivery] = await deliveriesOf(hook.id);
    const replayed = await api(
      full.token,
      'POST',
      `/webhooks/${hook.id}/deliveries/${delivery?.id}/replay`,
    );
    expect(replayed.statusCode, replayed.body).toBe(200);
    const [original, again] = requestsTo('/replay') as [ReceivedRequest, ReceivedRequest];
    expect(again.headers['webhook-id']).toBe(original.headers['webhook-id']);
    expect(again.body).toBe(original.body);
    new Webhook(hook.secret).verify(again.body, {
      'webhook-id': String(again.headers['webhook-id']),
      'webhook-timestamp': String(again.headers['webhook-timestamp']),
      'webhook-signature': String(again.headers['webhook-signature']),
    });
    expect(replayed.json().attempt_log.map((a: { replay: boolean }) => a.replay)).toEqual([
      false,
      true,
    ]);
    const log = await api(full.token, 'GET', `/webhooks/${hook.id}/deliveries`);
    expect(log.statusCode).toBe(200);
    expect(log.json()[0]).toMatchObject({ id: delivery?.id, status: 'delivered', attempts: 1 });
  });

  it('keeps one application’s events in order: a later one waits while an earlier is pending', async () => {
    const hook = await subscribe(full.token, '/ordered', [
      'application.submitted',
      'checklist.changed',
    ]);
    failures.set('/ordered', 1);
    const first = await submittedApplication();
    await testDatabaseOf(app)
      .insert(checklistMarks)
      .values({ accountId: first, itemKey: 'transcript', state: 'received', setByType: 'staff' });
    await vi.waitFor(async () => {
      const rows = await deliveriesOf(hook.id);
      expect(rows).toHaveLength(2);
      expect(rows[0]?.attempts).toBe(1);
    }, WAIT);
    // Another application's event goes by meanwhile; the first application's second waits.
    const other = await submittedApplication();
    await vi.waitFor(
      () =>
        expect(
          requestsTo('/ordered').filter((r) => payloadOf(r).data.application_id === other),
        ).toHaveLength(1),
      WAIT,
    );
    const waiting = await deliveriesOf(hook.id);
    expect(waiting[1]).toMatchObject({
      eventType: 'checklist.changed',
      attempts: 0,
      status: 'pending',
    });
    await dueNow(waiting[0]?.id as string);
    await vi.waitFor(async () => {
      const rows = await deliveriesOf(hook.id);
      expect(rows.every((row) => row.status === 'delivered')).toBe(true);
    }, WAIT);
    const ofFirst = requestsTo('/ordered')
      .map(payloadOf)
      .filter((p) => p.data.application_id === first)
      .map((p) => p.type);
    expect(ofFirst).toEqual([
      'application.submitted',
      'application.submitted',
      'checklist.changed',
    ]);
  });

  // One connection on the embedded database: no transaction can stay open beside the server's.
  it.skipIf(kind === 'pglite')(
    'delivers an event whose transaction commits after a later event was delivered',
    async () => {
      const hook = await subscribe(full.token, '/late', ['checklist.changed']);
      const [slow, quick] = [await submittedApplication(), await submittedApplication()];
      const db = testDatabaseOf(app);
      let commit: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let written: () => void = () => undefined;
      const wrote = new Promise<void>((resolve) => {
        written = resolve;
      });
      const late = db.transaction(async (tx) => {
        await tx.insert(checklistMarks).values({
          accountId: slow,
          itemKey: 'transcript',
          state: 'received',
          setByType: 'staff',
        });
        written();
        await held;
      });
      await wrote;
      await db
        .insert(checklistMarks)
        .values({ accountId: quick, itemKey: 'transcript', state: 'received', setByType: 'staff' });
      await vi.waitFor(() => expect(requestsTo('/late')).toHaveLength(1), WAIT);
      commit();
      await late;
      await vi.waitFor(() => expect(requestsTo('/late')).toHaveLength(2), WAIT);
      expect(requestsTo('/late').map((r) => payloadOf(r).data.application_id)).toEqual([
        quick,
        slow,
      ]);
      const rows = await deliveriesOf(hook.id);
      expect(rows.map((row) => row.accountId).sort()).toEqual([quick, slow].sort());
    },
  );

  it('sends nothing about a decision before its release, and decision.released at release', async () => {
    await subscribe(full.token, '/decisions', ['decision.released', 'checklist.changed']);
    const id = await submittedApplication();
    const db = testDatabaseOf(app);
    await db.insert(decisions).values({
      accountId: id,
      code: 'admit',
      recordedByLabel: 'test',
      releaseAt: new Date(Date.now() + 86_400_000),
    });
    // A later event of the same application is delivered: the decision, recorded, was not.
    await db
      .insert(checklistMarks)
      .values({ accountId: id, itemKey: 'transcript', state: 'received', setByType: 'staff' });
    await vi.waitFor(() => expect(requestsTo('/decisions')).toHaveLength(1), WAIT);
    expect(payloadOf(requestsTo('/decisions')[0] as ReceivedRequest).type).toBe(
      'checklist.changed',
    );
    expect(
      await db
        .select()
        .from(integrationEvents)
        .where(
          and(eq(integrationEvents.accountId, id), eq(integrationEvents.type, 'decision.released')),
        ),
    ).toHaveLength(0);
    await db.update(decisions).set({ releasedAt: new Date() }).where(eq(decisions.accountId, id));
    await vi.waitFor(() => expect(requestsTo('/decisions')).toHaveLength(2), WAIT);
    const released = payloadOf(requestsTo('/decisions')[1] as ReceivedRequest);
    expect(released).toMatchObject({
      type: 'decision.released',
      data: { application_id: id, code: 'admit' },
    });
  });

  it('lets a subscription see only what its scopes allow', async () => {
    const refused = await api(narrow.token, 'POST', '/webhooks', {
      url: `${receiver.url}/narrow`,
      events: ['checklist.changed', 'decision.released', 'offer.replied'],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json().detail).toContain('decision.released needs decisions:read');
    expect(refused.json().detail).toContain('offer.replied needs decisions:read');
    const hook = await subscribe(narrow.token, '/narrow', ['checklist.changed']);
    expect((await api(narrow.token, 'GET', `/webhooks/${hook.id}`)).json().scopes).toEqual([
      'applications:read',
      'webhooks:manage',
    ]);
    const id = await submittedApplication();
    const db = testDatabaseOf(app);
    await db
      .insert(decisions)
      .values({ accountId: id, code: 'admit', recordedByLabel: 'test', releasedAt: new Date() });
    await db
      .insert(checklistMarks)
      .values({ accountId: id, itemKey: 'transcript', state: 'waived', setByType: 'staff' });
    await vi.waitFor(() => expect(requestsTo('/narrow')).toHaveLength(1), WAIT);
    const sent = payloadOf(requestsTo('/narrow')[0] as ReceivedRequest);
    expect(sent).toEqual({
      type: 'checklist.changed',
      timestamp: sent.timestamp,
      data: { application_id: id, item: 'transcript', state: 'waived' },
    });
    expect(JSON.stringify(await deliveriesOf(hook.id))).not.toContain('admit');
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const hook = await subscribe(full.token, '/redirect', ['application.submitted']);
    await submittedApplication();
    await vi.waitFor(async () => {
      const [delivery] = await deliveriesOf(hook.id);
      expect(delivery?.attempts).toBe(1);
    }, WAIT);
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: 'pending', lastStatusCode: 302 });
    expect(delivery?.lastError).toContain('not followed');
    expect(requestsTo('/ok')).toHaveLength(0);
  });

  it('shows a client only its own subscriptions and never the secret again', async () => {
    const mine = await subscribe(full.token, '/mine', ['application.submitted']);
    const listed = await api(narrow.token, 'GET', '/webhooks');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().map((s: { id: string }) => s.id)).not.toContain(mine.id);
    const own = await api(full.token, 'GET', '/webhooks');
    expect(own.json().map((s: { id: string }) => s.id)).toContain(mine.id);
    expect(own.body).not.toContain('whsec_');
    expect((await api(full.token, 'GET', `/webhooks/${mine.id}`)).body).not.toContain('whsec_');
    for (const [method, url] of [
      ['GET', `/webhooks/${mine.id}`],
      ['GET', `/webhooks/${mine.id}/deliveries`],
      ['DELETE', `/webhooks/${mine.id}`],
      ['POST', `/webhooks/${mine.id}/deliveries/msg_x/replay`],
    ] as const) {
      const response = await api(narrow.token, method, url);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    const deleted = await api(full.token, 'DELETE', `/webhooks/${mine.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await api(full.token, 'GET', `/webhooks/${mine.id}`)).statusCode).toBe(404);
    const audited = await testDatabaseOf(app)
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'webhook.subscription_deleted'));
    expect(audited.at(-1)).toMatchObject({ actorType: 'api_client', actorId: full.id });
  });

  it('refuses bodies with unknown keys, NUL, wrong types, bad URLs and unknown events', async () => {
    const good = { url: `${receiver.url}/x`, events: ['application.submitted'] };
    for (const body of [
      { ...good, secret: 'whsec_mine' },
      { ...good, url: `${receiver.url}/a\u0000b` },
      { ...good, description: 'a\u0000b' },
      { ...good, events: 'application.submitted' },
      { ...good, events: [] },
      { ...good, events: ['application.deleted'] },
      { ...good, url: 42 },
      { ...good, url: 'ftp://example.edu/hook' },
      { ...good, url: `https://example.edu/${'a'.repeat(2_000)}` },
      { ...good, url: 'not a url' },
    ]) {
      const response = await api(full.token, 'POST', '/webhooks', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      // A NUL is refused by the app-wide text check before the API's own validation runs.
      if (!JSON.stringify(body).includes('\\u0000'))
        expect(response.headers['content-type'], JSON.stringify(body).slice(0, 80)).toContain(
          'application/problem+json',
        );
    }
    const withoutScope = await apiToken(app, `reader-${kind}`, ['applications:read']);
    expect((await api(withoutScope.token, 'GET', '/webhooks')).statusCode).toBe(403);
    expect((await api(full.token, 'GET', '/webhooks/not-a-uuid')).statusCode).toBe(400);
  });

  it('lets administrators manage subscriptions in the console and refuses other roles', async () => {
    const admin = await signedInStaff(app, { role: 'admin' });
    const created = await app.inject({
      method: 'POST',
      url: '/staff/api/webhooks',
      headers: { cookie: admin.cookie },
      payload: {
        url: `${receiver.url}/console`,
        events: ['decision.released', 'checklist.changed'],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      scopes: ['applications:read', 'decisions:read'],
      secret: expect.stringMatching(/^whsec_/),
    });
    const id = created.json().id as string;
    const listed = await app.inject({
      url: '/staff/api/webhooks',
      headers: { cookie: admin.cookie },
    });
    expect(listed.json().map((s: { id: string }) => s.id)).toContain(id);
    expect(listed.body).not.toContain('whsec_');
    const stale = await signedInStaff(app, { role: 'admin', fresh2fa: false });
    // Reading shows no secret; every change needs a fresh second factor.
    expect(
      (await app.inject({ url: '/staff/api/webhooks', headers: { cookie: stale.cookie } }))
        .statusCode,
    ).toBe(200);
    const unconfirmed = await app.inject({
      method: 'POST',
      url: '/staff/api/webhooks',
      headers: { cookie: stale.cookie },
      payload: { url: `${receiver.url}/console`, events: ['checklist.changed'] },
    });
    expect(unconfirmed.statusCode).toBe(403);
    expect(unconfirmed.json()).toMatchObject({ code: 'step_up_required' });
    for (const role of ['reader', 'evaluator'] as const) {
      const member = await signedInStaff(app, { role });
      for (const [method, url] of [
        ['GET', '/staff/api/webhooks'],
        ['POST', '/staff/api/webhooks'],
        ['DELETE', `/staff/api/webhooks/${id}`],
        ['POST', `/staff/api/webhooks/${id}/enable`],
        ['GET', `/staff/api/webhooks/${id}/deliveries`],
        ['POST', `/staff/api/webhooks/${id}/deliveries/msg_x/replay`],
      ] as const) {
        const response = await app.inject({ method, url, headers: { cookie: member.cookie } });
        expect(response.statusCode, `${role} ${method} ${url}`).toBe(403);
      }
    }
    const removed = await app.inject({
      method: 'DELETE',
      url: `/staff/api/webhooks/${id}`,
      headers: { cookie: admin.cookie },
    });
    expect(removed.statusCode).toBe(204);
    const audited = await testDatabaseOf(app)
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'webhook.subscription_created'));
    expect(audited.some((row) => row.actorId === admin.staffId)).toBe(true);
    expect(audited.find((row) => row.actorId === admin.staffId)?.ip).toBe('127.0.0.1');
  });
});
