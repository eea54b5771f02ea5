import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BULK_CHECKLIST_API,
  BULK_CHECKLIST_MESSAGES,
  bulkChecklistItemsSchema,
  bulkChecklistResultSchema,
} from '../../shared/staff/bulk-checklist';
import { MEMBER_FILTER_NOT_HERE_MESSAGE } from '../applications-list/application-selection';
import { accounts, applications, auditEvents, checklistCounts, checklistMarks } from '../db/schema';
import { signedInApplicant } from '../test/accounts-helpers';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

describe.each(databaseKinds)('bulk checklist marks on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;
  let admin: SignedInStaff;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader', email: 'bulk.reader@example.edu' });
    admin = await signedInStaff(app, { role: 'admin' });
  });
  afterAll(async () => {
    await app.close();
  });

  /**
   * An application with these answers, made in the database: a group of tests signing up dozens
   * of applicants would meet the sign-up limit, and the list reads its columns from the answers.
   */
  async function applicant(answers: Record<string, string>) {
    const id = randomUUID();
    const db = testDatabaseOf(app);
    await db.insert(accounts).values({ id, email: `bulk-${id}@example.edu` });
    await db.insert(applications).values({ accountId: id, answers });
    return id;
  }

  /** Three applicants sharing a last name no other test uses: two name a college, one not. */
  async function group() {
    const name = `Bulk${randomBytes(3).toString('hex')}`;
    const ids = [
      await applicant({ first_name: 'Ann', last_name: name, college_name: 'Valley College' }),
      await applicant({ first_name: 'Ben', last_name: name, college_name: 'Hill College' }),
      await applicant({ first_name: 'Cy', last_name: name }),
    ];
    return { name, ids };
  }

  function bulk(payload: unknown, cookie: string | null = reader.cookie) {
    return app.inject({
      method: 'POST',
      url: BULK_CHECKLIST_API.mark,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  }

  async function marksOf(ids: string[], item: string) {
    return testDatabaseOf(app)
      .select()
      .from(checklistMarks)
      .where(and(inArray(checklistMarks.accountId, ids), eq(checklistMarks.itemKey, item)));
  }

  async function tableSizes() {
    const db = testDatabaseOf(app);
    return {
      marks: (await db.select().from(checklistMarks)).length,
      audit: (await db.select().from(auditEvents)).length,
    };
  }

  it('offers the items a bulk mark may name, with labels that fit every application', async () => {
    const response = await app.inject({
      method: 'GET',
      url: BULK_CHECKLIST_API.items,
      headers: { cookie: reader.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { items } = bulkChecklistItemsSchema.parse(response.json());
    expect(items.map((item) => item.key)).toEqual(
      expect.arrayContaining(['document:hs_transcript', 'transcript:1', 'fee']),
    );
    expect(items.find((item) => item.key === 'transcript:1')?.label).toBe(
      'Official transcript (first college)',
    );
  });

  it('marks a filtered list, skips those without the item, and audits one entry', async () => {
    const { name, ids } = await group();
    const query = `q=${name}&sort=name`;
    const response = await bulk({
      query,
      item_key: 'transcript:1',
      received: true,
      expected_count: 3,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(bulkChecklistResultSchema.parse(response.json())).toEqual({
      marked: 2,
      already: 0,
      not_applicable: 1,
    });
    const marks = await marksOf(ids, 'transcript:1');
    expect(marks.map((mark) => mark.accountId).sort()).toEqual(ids.slice(0, 2).sort());
    for (const mark of marks) {
      expect(mark).toMatchObject({
        state: 'received',
        setByType: 'staff',
        setById: reader.staffId,
        setByLabel: 'bulk.reader',
      });
    }
    // Recounted as a single mark recounts: hs transcript and fee still awaited.
    const counts = await testDatabaseOf(app)
      .select()
      .from(checklistCounts)
      .where(inArray(checklistCounts.accountId, ids.slice(0, 2)));
    expect(counts.map((count) => count.missing)).toEqual([2, 2]);

    const [entry] = await testDatabaseOf(app)
      .select()
      .from(auditEvents)
      .orderBy(sql`${auditEvents.seq} desc`)
      .limit(1);
    expect(entry).toMatchObject({
      action: 'checklist.bulk_mark',
      actorId: reader.staffId,
      applicationId: null,
      detail: {
        item: 'transcript:1',
        state: 'received',
        query,
        matched: 3,
        marked: 2,
        already: 0,
        not_applicable: 1,
      },
    });
    const detail = entry?.detail as { applications?: string[] } | undefined;
    expect(detail?.applications?.sort()).toEqual(ids.slice(0, 2).sort());

    const again = await bulk({
      query,
      item_key: 'transcript:1',
      received: true,
      expected_count: 3,
    });
    expect(again.json()).toEqual({ marked: 0, already: 2, not_applicable: 1 });
  });

  it('marks a selection, and marks it back to awaiting', async () => {
    const { ids } = await group();
    const selection = ids.slice(1);
    const received = await bulk({
      application_ids: selection,
      item_key: 'fee',
      received: true,
      expected_count: 2,
    });
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json()).toEqual({ marked: 2, already: 0, not_applicable: 0 });
    expect((await marksOf(ids, 'fee')).map((mark) => mark.accountId).sort()).toEqual(
      selection.sort(),
    );
    const awaiting = await bulk({
      application_ids: selection,
      item_key: 'fee',
      received: false,
      expected_count: 2,
    });
    expect(awaiting.json()).toEqual({ marked: 2, already: 0, not_applicable: 0 });
    expect((await marksOf(ids, 'fee')).map((mark) => mark.state)).toEqual(['awaiting', 'awaiting']);
  });

  it('refuses a list whose count changed since it was confirmed, changing nothing', async () => {
    const { name, ids } = await group();
    const before = await tableSizes();
    const response = await bulk({
      query: `q=${name}`,
      item_key: 'fee',
      received: true,
      expected_count: 4,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(
      'The list now holds 3 applications, not 4. Check the list and confirm again.',
    );
    const gone = await bulk({
      application_ids: [...ids, randomUUID()],
      item_key: 'fee',
      received: true,
      expected_count: 4,
    });
    expect(gone.statusCode).toBe(409);
    expect(gone.json().message).toBe(BULK_CHECKLIST_MESSAGES.countChanged(3, 4));
    expect(await tableSizes()).toEqual(before);
  });

  it('refuses an item no selected application has (422) and a key that is no item (400)', async () => {
    const { ids } = await group();
    const before = await tableSizes();
    const none = await bulk({
      application_ids: [ids[2]],
      item_key: 'transcript:1',
      received: true,
      expected_count: 1,
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toBe(BULK_CHECKLIST_MESSAGES.noSuchItem);
    const tenant = await bulk({
      application_ids: ids,
      item_key: 'tenant:nothing_here',
      received: true,
      expected_count: 3,
    });
    expect(tenant.statusCode).toBe(422);
    const bad = await bulk({
      application_ids: ids,
      item_key: 'bogus',
      received: true,
      expected_count: 3,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.item_key).toEqual([BULK_CHECKLIST_MESSAGES.item]);
    expect(await tableSizes()).toEqual(before);
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    const { name, ids } = await group();
    const before = await tableSizes();
    const valid = { application_ids: ids, item_key: 'fee', received: true, expected_count: 3 };
    const cases: unknown[] = [
      '{"application_ids":',
      { ...valid, extra: 1 },
      { ...valid, query: `q=${name}` },
      { item_key: 'fee', received: true, expected_count: 3 },
      { ...valid, item_key: 'fee\u0000' },
      {
        application_ids: undefined,
        query: `q=${name}\u0000`,
        item_key: 'fee',
        received: true,
        expected_count: 3,
      },
      { ...valid, received: 'yes' },
      { ...valid, expected_count: 0 },
      { ...valid, expected_count: 2.5 },
      { ...valid, application_ids: ['not-an-id'] },
      { ...valid, application_ids: Array.from({ length: 5_001 }, () => randomUUID()) },
      { query: 'page=2', item_key: 'fee', received: true, expected_count: 3 },
      { query: 'colour=blue', item_key: 'fee', received: true, expected_count: 3 },
    ];
    for (const payload of cases) {
      const response = await bulk(payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(400);
      expect(typeof response.json().message).toBe('string');
    }
    expect(await tableSizes()).toEqual(before);
  });

  it('refuses anyone without a staff session', async () => {
    const { ids } = await group();
    const before = await tableSizes();
    const payload = { application_ids: ids, item_key: 'fee', received: true, expected_count: 3 };
    expect((await bulk(payload, null)).statusCode).toBe(401);
    const applicantCookie = await signedInApplicant(app, `bulk-app-${randomUUID()}@example.edu`);
    expect((await bulk(payload, applicantCookie)).statusCode).toBe(401);
    expect(await tableSizes()).toEqual(before);
  });

  it("selects with the member's own filter: new since I last looked", async () => {
    const { name, ids } = await group();
    const opened = await app.inject({
      method: 'GET',
      url: `/staff/api/applications/${ids[0]}`,
      headers: { cookie: admin.cookie },
    });
    expect(opened.statusCode).toBe(200);
    const response = await bulk(
      { query: `q=${name}&new_since=true`, item_key: 'fee', received: true, expected_count: 2 },
      admin.cookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ marked: 2, already: 0, not_applicable: 0 });
    expect((await marksOf(ids, 'fee')).map((mark) => mark.accountId).sort()).toEqual(
      ids.slice(1).sort(),
    );
  });

  it('marks 5,000 applications in one request', async () => {
    const db = testDatabaseOf(app);
    const ids = Array.from({ length: 5_000 }, () => randomUUID());
    const name = `Many${randomBytes(3).toString('hex')}`;
    // Rows made directly: 5,000 sign-ups would take minutes, and only the mark is measured.
    await db.execute(sql`insert into accounts (id, email)
      select id, 'many-' || id || '@example.edu'
      from unnest(${sql.param(ids)}::uuid[]) as id`);
    await db.execute(sql`insert into applications (account_id, answers)
      select id, jsonb_build_object('first_name', 'Many', 'last_name', ${name}::text)
      from unnest(${sql.param(ids)}::uuid[]) as id`);
    const response = await bulk({
      application_ids: ids,
      item_key: 'fee',
      received: true,
      expected_count: 5_000,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ marked: 5_000, already: 0, not_applicable: 0 });
  }, 120_000);

  it('refuses the member filter where no member is known', async () => {
    const { parseSelectionQueryString } = await import(
      '../applications-list/application-selection'
    );
    expect(() => parseSelectionQueryString('new_since=true')).toThrow(
      MEMBER_FILTER_NOT_HERE_MESSAGE,
    );
    expect(
      parseSelectionQueryString('new_since=true', undefined, {
        id: reader.staffId,
        committee: false,
      }).request.viewer?.id,
    ).toBe(reader.staffId);
  });
});
