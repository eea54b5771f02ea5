import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import {
  APPLICATION_API_MESSAGES,
  type Checklist,
  checklistSchema,
} from '../../shared/staff/application-api';
import type { ApplicationListResponse } from '../../shared/staff/application-list-api';
import { accounts, applications, auditEvents, checklistCounts, checklistMarks } from '../db/schema';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { uploadDocument } from '../test/document-helpers';
import { makePng } from '../test/sample-files';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { type ChecklistService, createChecklistService } from './checklist-service';

const url = (id: string, item: string) =>
  `/staff/api/applications/${id}/checklist/${encodeURIComponent(item)}`;

describe.each(databaseKinds)('the application checklist on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;
  let admin: SignedInStaff;
  /** The same service the app runs, on the same database, for what no request reaches. */
  let service: ChecklistService;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader', email: 'ada.officer@example.edu' });
    admin = await signedInStaff(app, { role: 'admin' });
    service = createChecklistService({
      db: testDatabaseOf(app),
      model: applicationModel,
      tenant: { checklist_items: [] },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  /** An applicant with answers saved as the browser saves them; returns the account id. */
  async function applicant(answers: Record<string, string> = {}) {
    const email = `cl-${randomBytes(4).toString('hex')}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    const saved = await callAs(app, cookie, 'PUT', '/api/answer', {
      first_name: 'Grace',
      ...answers,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const [account] = await testDatabaseOf(app)
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    return { id: account?.id as string, cookie };
  }

  function mark(id: string, item: string, payload: unknown, cookie: string | null = reader.cookie) {
    return app.inject({
      method: 'PUT',
      url: url(id, item),
      headers: cookie ? { cookie } : {},
      payload: payload as object,
    });
  }

  async function counted(id: string): Promise<number | null> {
    const [row] = await testDatabaseOf(app)
      .select({ missing: checklistCounts.missing })
      .from(checklistCounts)
      .where(eq(checklistCounts.accountId, id));
    return row?.missing ?? null;
  }

  async function tableSizes() {
    const db = testDatabaseOf(app);
    return {
      marks: (await db.select().from(checklistMarks)).length,
      audit: (await db.select().from(auditEvents)).length,
    };
  }

  it('derives the items from the answers and takes staff marks, with who and when', async () => {
    const { id } = await applicant({ college_name: 'Valley College', fee_waiver: 'Y' });
    const before = await service.of(id);
    expect(before?.items.map((item) => [item.key, item.label, item.state])).toEqual([
      ['document:hs_transcript', 'Unofficial high school transcript', 'awaiting'],
      ['transcript:1', 'Official transcript: Valley College', 'awaiting'],
      ['fee', 'Application fee waiver', 'awaiting'],
    ]);
    expect(before?.missing).toBe(3);

    let previous = 'awaiting';
    for (const state of ['received', 'waived', 'awaiting'] as const) {
      const response = await mark(id, 'transcript:1', { state });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const checklist = checklistSchema.parse(response.json());
      const item = checklist.items.find((entry) => entry.key === 'transcript:1');
      expect(item).toMatchObject({
        state,
        set_by: { type: 'staff', id: reader.staffId, label: 'ada.officer' },
      });
      expect(Date.now() - Date.parse(item?.set_at ?? '')).toBeLessThan(60_000);
      expect(checklist.missing).toBe(state === 'awaiting' ? 3 : 2);
      expect(await counted(id)).toBe(checklist.missing);
      const [entry] = await testDatabaseOf(app)
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.applicationId, id))
        .orderBy(sql`${auditEvents.seq} desc`)
        .limit(1);
      expect(entry).toMatchObject({
        action: 'checklist.mark',
        actorId: reader.staffId,
        detail: { item: 'transcript:1', state, previous },
      });
      previous = state;
    }
    expect((await service.of(id))?.items.map((item) => item.state)).toEqual([
      'awaiting',
      'awaiting',
      'awaiting',
    ]);
  });

  it("counts the applicant's converted upload as Received, and a later staff mark over it", async () => {
    const { id, cookie } = await applicant();
    await service.refresh(id);
    expect(await counted(id)).toBe(2);
    const uploaded = await uploadDocument(
      app,
      cookie,
      'hs_transcript',
      makePng({ width: 40, height: 40 }),
      'hs.png',
    );
    expect(uploaded.status).toBe('COMPLETED');
    const checklist = (await service.of(id)) as Checklist;
    expect(checklist.items[0]).toMatchObject({
      key: 'document:hs_transcript',
      answer_key: 'hs_transcript',
      state: 'received',
      set_by: { type: 'applicant', id: null },
    });
    // The conversion job recounts once the upload settled, just after its status says so.
    for (let i = 0; i < 500 && (await counted(id)) !== 1; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await counted(id)).toBe(1);

    const overridden = await mark(id, 'document:hs_transcript', { state: 'awaiting' });
    expect(overridden.statusCode, overridden.body).toBe(200);
    expect(overridden.json<Checklist>().items[0]).toMatchObject({
      state: 'awaiting',
      set_by: { type: 'staff', id: reader.staffId },
    });
    expect(await counted(id)).toBe(2);
  });

  it('refuses bad input with 400 or 404, never 500, and changes nothing', async () => {
    const { id } = await applicant({ college_name: 'Valley College' });
    const other = await applicant();
    const before = await tableSizes();
    const cases: Array<[string, string, unknown, number]> = [
      [id, 'document:no_such_question', { state: 'received' }, 404],
      [id, 'tenant:interview', { state: 'received' }, 404],
      [id, 'transcript:2', { state: 'received' }, 404],
      // Another application's item: this one names no college.
      [other.id, 'transcript:1', { state: 'received' }, 404],
      [id, 'fee', { state: 'done' }, 400],
      [id, 'fee', { state: 'received', by: 'me' }, 400],
      [id, 'fee', {}, 400],
      [id, 'fee', { state: 'received\u0000' }, 400],
      [id, 'fee\u0000', { state: 'received' }, 400],
      [id, 'Fee', { state: 'received' }, 400],
      [id, 'document:../x', { state: 'received' }, 400],
      [id, `document:${'a'.repeat(81)}`, { state: 'received' }, 400],
      ['00000000-0000-4000-8000-000000000000', 'fee', { state: 'received' }, 404],
      ['not-a-uuid', 'fee', { state: 'received' }, 400],
      ['%00', 'fee', { state: 'received' }, 400],
    ];
    for (const [target, item, payload, status] of cases) {
      const response = await mark(target, item, payload);
      expect(response.statusCode, `${target} ${item} ${JSON.stringify(payload)}`).toBe(status);
      expect(response.json()).toHaveProperty('message');
    }
    const unknownItem = await mark(id, 'document:no_such_question', { state: 'received' });
    expect(unknownItem.json().message).toBe(APPLICATION_API_MESSAGES.checklistItem);
    const notJson = await app.inject({
      method: 'PUT',
      url: url(id, 'fee'),
      headers: { cookie: reader.cookie, 'content-type': 'application/json' },
      payload: '{"state":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(await tableSizes()).toEqual(before);
  });

  it('lets readers and admins mark, and nobody else', async () => {
    const { id, cookie } = await applicant();
    expect((await mark(id, 'fee', { state: 'received' }, admin.cookie)).statusCode).toBe(200);
    expect((await mark(id, 'fee', { state: 'waived' }, reader.cookie)).statusCode).toBe(200);
    const before = await tableSizes();
    expect((await mark(id, 'fee', { state: 'awaiting' }, null)).statusCode).toBe(401);
    expect((await mark(id, 'fee', { state: 'awaiting' }, cookie)).statusCode).toBe(401);
    expect(await tableSizes()).toEqual(before);
    expect((await service.of(id))?.items.find((item) => item.key === 'fee')?.state).toBe('waived');
  });

  it("has the tenant's items, and none for an account without an application", async () => {
    const { id } = await applicant();
    const withTenant = createChecklistService({
      db: testDatabaseOf(app),
      model: applicationModel,
      tenant: { checklist_items: [{ id: 'interview', label: 'Interview' }] },
    });
    const checklist = await withTenant.mark(id, 'tenant:interview', 'received', {
      id: admin.staffId,
      label: 'Admin',
    });
    expect(checklist.items.at(-1)).toMatchObject({
      key: 'tenant:interview',
      kind: 'tenant',
      label: 'Interview',
      state: 'received',
    });
    // Without the tenant's item the mark is kept but not shown.
    expect((await service.of(id))?.items.map((item) => item.key)).toEqual([
      'document:hs_transcript',
      'fee',
    ]);
    expect(await service.of('00000000-0000-4000-8000-000000000000')).toBeNull();
    const many = await service.forApplications([id, '00000000-0000-4000-8000-000000000000']);
    expect([...many.keys()]).toEqual([id]);
    expect(many.get(id)?.missing).toBe(2);
  });

  it('recounts applications changed since their count, not the others', async () => {
    const { id, cookie } = await applicant();
    await service.recountStale();
    expect(await counted(id)).toBe(2);
    // The applicant names a college: the save only makes the count stale, it does not recount.
    await callAs(app, cookie, 'PUT', '/api/answer', { college_name: 'Hill College' });
    expect(await counted(id)).toBe(2);
    const db = testDatabaseOf(app);
    const [stored] = await db
      .select({ updatedAt: applications.updatedAt })
      .from(applications)
      .where(eq(applications.accountId, id));
    await service.recountStale({ activeSince: new Date(Date.now() - 60_000) });
    expect(await counted(id)).toBe(3);
    const [count] = await db
      .select()
      .from(checklistCounts)
      .where(eq(checklistCounts.accountId, id));
    expect(count?.sourceUpdatedAt.getTime()).toBe(stored?.updatedAt.getTime());
    // Nothing changed since: nothing to recount among the applications active since the save.
    const again = await service.recountStale({ activeSince: stored?.updatedAt ?? null });
    expect(await counted(id)).toBe(3);
    expect(again).toBe(0);
  });

  it('counts at start every application never counted', async () => {
    const database = await createTestDatabase(kind);
    const [account] = await database.db
      .insert(accounts)
      .values({ email: 'before-upgrade@example.edu' })
      .returning({ id: accounts.id });
    const id = account?.id as string;
    await database.db
      .insert(applications)
      .values({ accountId: id, answers: {}, updatedAt: new Date('2025-01-01T00:00:00Z') });
    const restarted = await buildTestApp(kind, { database });
    try {
      const countOf = async () =>
        (
          await database.db
            .select({ missing: checklistCounts.missing })
            .from(checklistCounts)
            .where(eq(checklistCounts.accountId, id))
        )[0]?.missing;
      for (let i = 0; i < 500 && (await countOf()) === undefined; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await countOf()).toBe(2);
    } finally {
      await restarted.close();
    }
  });

  it('sweeps in the background until stopped', async () => {
    const { id } = await applicant();
    const sweep = service.startSweep({ warn: () => {}, error: () => {} }, 10);
    for (let i = 0; i < 500 && (await counted(id)) === null; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await sweep.stop();
    expect(await counted(id)).toBe(2);
  });

  it('gives the list its missing items, a filter and an order', async () => {
    // A last name of letters only that no other test uses: the search finds these three.
    const name = `Zz${[...randomBytes(6)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('')}`;
    const none = await applicant({ last_name: name });
    const some = await applicant({ last_name: name, college_name: 'Valley College' });
    const uncounted = await applicant({ last_name: name });
    // Idle since long ago and never counted: the app's own sweep looks only at recent activity.
    const db = testDatabaseOf(app);
    await db
      .update(applications)
      .set({ updatedAt: new Date('2025-01-01T00:00:00Z') })
      .where(eq(applications.accountId, uncounted.id));
    await db.delete(checklistCounts).where(eq(checklistCounts.accountId, uncounted.id));
    for (const item of ['document:hs_transcript', 'fee'])
      expect((await mark(none.id, item, { state: 'waived' })).statusCode).toBe(200);
    await service.refresh(some.id);
    const list = async (query: string) => {
      const response = await app.inject({
        url: `/staff/api/applications?q=${name}&${query}`,
        headers: { cookie: reader.cookie },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<ApplicationListResponse>().applications;
    };
    const rows = await list('sort=missing_items');
    expect(rows.map((row) => [row.id, row.missing_items])).toEqual([
      [none.id, 0],
      [some.id, 3],
      [uncounted.id, null],
    ]);
    expect((await list('sort=missing_items&direction=desc')).map((row) => row.id)).toEqual([
      some.id,
      none.id,
      uncounted.id,
    ]);
    expect((await list('has_missing=true')).map((row) => row.id)).toEqual([some.id]);
    expect((await list('has_missing=false')).map((row) => row.id)).toEqual([none.id]);
    const bad = await app.inject({
      url: `/staff/api/applications?has_missing=yes`,
      headers: { cookie: reader.cookie },
    });
    expect(bad.statusCode).toBe(400);
  });
});
