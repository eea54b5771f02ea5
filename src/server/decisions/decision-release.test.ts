import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionUrls } from '../../shared/staff/decision-api';
import { createAuditTrail } from '../audit/audit-trail';
import { loadTenantConfig } from '../config/tenant';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { auditEvents, decisions, outbox } from '../db/schema';
import { outboxMailer } from '../mail/mailer';
import { callAs } from '../test/accounts-helpers';
import { insertApplications } from '../test/export-helpers';
import { signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, sampleTenantFile, testAuditKeys, testDatabaseOf } from '../test/test-app';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { createDecisionService, DECISION_MAIL_SUBJECT } from './decision-service';

/** A database handle an app may close without closing it: the next app starts on it again. */
const kept = (handle: DatabaseHandle): DatabaseHandle => ({ ...handle, close: async () => {} });

/** Submitted applications with a waitlist decision scheduled an hour from now. */
async function scheduled(app: FastifyInstance, tag: string, count: number): Promise<string[]> {
  const ids = await insertApplications(
    app,
    tag,
    Array.from({ length: count }, (_, index) => ({
      answers: { first_name: `Applicant ${index}` },
      status: 'submitted' as const,
      submittedAt: '2026-02-01T10:00:00Z',
    })),
  );
  const admin = await signedInStaff(app, { role: 'admin' });
  const query = `term=${tag}`;
  const recorded = await callAs(app, admin.cookie, 'POST', decisionUrls.batch, {
    query,
    code: 'waitlist',
  });
  expect(recorded.json()).toEqual({ count, skipped: 0 });
  const at = new Date(Date.now() + 3_600_000).toISOString();
  const released = await callAs(app, admin.cookie, 'POST', decisionUrls.batchRelease, {
    query,
    at,
  });
  expect(released.json()).toEqual({ count, skipped: 0 });
  return ids;
}

async function releaseState(handle: DatabaseHandle, ids: string[], tag: string) {
  const { db } = handle;
  const rows = await db.select().from(decisions).where(inArray(decisions.accountId, ids));
  const entries = await db
    .select({ applicationId: auditEvents.applicationId })
    .from(auditEvents)
    .where(
      and(eq(auditEvents.action, 'decision.released'), inArray(auditEvents.applicationId, ids)),
    );
  const mails = await db
    .select({ to: outbox.to })
    .from(outbox)
    .where(and(eq(outbox.subject, DECISION_MAIL_SUBJECT), sql`${outbox.to} like ${`${tag}-%`}`));
  return {
    released: rows.filter((row) => row.releasedAt !== null).length,
    audited: entries.map((entry) => entry.applicationId).sort(),
    mailed: mails.map((mail) => mail.to).sort(),
  };
}

const dueNow = (handle: DatabaseHandle, ids: string[]) =>
  handle.db
    .update(decisions)
    .set({ releaseAt: sql`now() - interval '1 minute'` })
    .where(inArray(decisions.accountId, ids));

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out');
}

describe.each(databaseKinds)('a scheduled release after a restart on %s', (kind) => {
  let handle: DatabaseHandle;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    handle = await createTestDatabase(kind);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await handle.close();
  });

  it('releases a decision that fell due while no server ran, once, when one starts', async () => {
    const tag = `RESTART${kind.toUpperCase()}`;
    const first = await buildTestApp(kind, { database: kept(handle) });
    const ids = await scheduled(first, tag, 3);
    await first.close();
    // Time passes while the portal is down.
    await dueNow(handle, ids);
    expect((await releaseState(handle, ids, tag)).released).toBe(0);

    const next = await buildTestApp(kind, { database: kept(handle) });
    apps.push(next);
    await until(async () => (await releaseState(handle, ids, tag)).mailed.length === 3);
    const state = await releaseState(handle, ids, tag);
    expect(state.released).toBe(3);
    expect(state.audited).toEqual([...ids].sort());
    expect(state.mailed).toEqual([0, 1, 2].map((index) => `${tag}-${index}@example.edu`));
    expect(await createAuditTrail(testDatabaseOf(next), testAuditKeys).verify()).toMatchObject({
      ok: true,
    });
  });
});

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Two servers on one PostgreSQL database, each with its own connections, as in production. */
describe.runIf(databaseKinds.includes('postgres'))('scheduled releases on two servers', () => {
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const handles: DatabaseHandle[] = [];
  const apps: FastifyInstance[] = [];
  let url: string;

  const open = async () => {
    const handle = await openDatabase({ kind: 'postgres', url, poolSize: 5 });
    handles.push(handle);
    return handle;
  };

  beforeAll(async () => {
    await admin((client) => client.query(`create database "${name}"`));
    const parsed = new URL(process.env.DATABASE_URL as string);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const handle of handles) await handle.close();
    await admin((client) => client.query(`drop database if exists "${name}" with (force)`));
  });

  it('releases each due decision once when both run the release at the same time', async () => {
    const one = await open();
    const two = await open();
    const first = await buildTestApp('postgres', { database: kept(one) });
    apps.push(first);
    const tag = 'TWOSERVERS';
    const ids = await scheduled(first, tag, 250);
    await dueNow(one, ids);

    const tenant = await loadTenantConfig(sampleTenantFile);
    const serverOf = (handle: DatabaseHandle) =>
      createDecisionService({
        db: handle.db,
        tenant,
        mailer: outboxMailer(handle.db, first.log),
        audit: createAuditTrail(handle.db, testAuditKeys),
        env: {},
      });
    const [a, b] = [serverOf(one), serverOf(two)];
    const counts = await Promise.all([
      a.releaseDue(),
      b.releaseDue(),
      a.releaseDue(),
      b.releaseDue(),
    ]);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(250);

    await until(async () => (await releaseState(one, ids, tag)).mailed.length >= 250);
    const state = await releaseState(one, ids, tag);
    expect(state.released).toBe(250);
    expect(state.audited).toEqual([...ids].sort());
    expect(new Set(state.mailed).size).toBe(250);
    expect(state.mailed).toHaveLength(250);
  });

  it('releases each decision once when two servers start together after it fell due', async () => {
    const [one] = handles as [DatabaseHandle];
    const [first] = apps as [FastifyInstance];
    const tag = 'TWOSTARTS';
    const ids = await scheduled(first, tag, 40);
    await dueNow(one, ids);

    const started = await Promise.all([
      buildTestApp('postgres', { database: kept(await open()) }),
      buildTestApp('postgres', { database: kept(await open()) }),
    ]);
    await until(async () => (await releaseState(one, ids, tag)).mailed.length >= 40);
    // Both servers have run their first release by now; a late duplicate would show here.
    for (const app of started) await app.close();
    const state = await releaseState(one, ids, tag);
    expect(state.released).toBe(40);
    expect(state.audited).toEqual([...ids].sort());
    expect(state.mailed).toHaveLength(40);
    expect(await createAuditTrail(one.db, testAuditKeys).verify()).toMatchObject({ ok: true });
  });
});
