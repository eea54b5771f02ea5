import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import { BUSINESS, PSYCHOLOGY } from '../../shared/application/option-lists';
import {
  ASSIGNMENT_MESSAGES_API,
  type AssignmentResult,
  type Queue,
  REVIEW_API,
  REVIEW_MESSAGES_API,
  type ReaderConflict,
  type ReaderLoad,
  type ReviewRules,
} from '../../shared/review/review-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { createAuditTrail } from '../audit/audit-trail';
import { accounts, auditEvents, reviewReads, staffMembers } from '../db/schema';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { insertApplications } from '../test/export-helpers';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testAuditKeys, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { createAssignmentService } from './assignment-service';

describe.each(databaseKinds)('reading assignments on %s', (kind) => {
  let app: FastifyInstance;
  let admin: SignedInStaff;
  let tenant: TenantConfig;
  let counter = 0;

  beforeAll(async () => {
    app = await buildTestApp(kind, {
      tenant: (sample) => {
        tenant = sample;
        return sample;
      },
    });
    admin = await signedInStaff(app, { role: 'admin' });
  });
  afterAll(async () => {
    await app.close();
  });

  const db = () => testDatabaseOf(app);
  const call = (
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    payload?: unknown,
    member: SignedInStaff = admin,
  ) => callAs(app, member.cookie, method, url, payload);
  const tag = () => `T${kind}${++counter}x${Date.now()}`;
  const readers = (count: number) =>
    Promise.all(Array.from({ length: count }, () => signedInStaff(app, { role: 'reader' })));

  /** Submitted applications (and some not submitted) under one entry term of their own. */
  async function seeded(
    submitted: number,
    options: { started?: number; answers?: (index: number) => Record<string, string> } = {},
  ) {
    const term = tag();
    const ids = await insertApplications(app, term, [
      ...Array.from({ length: submitted }, (_, index) => ({
        status: 'submitted' as const,
        submittedAt: '2026-03-01T10:00:00Z',
        answers: { first_name: `Ana${index}`, last_name: 'Reyes', ...options.answers?.(index) },
      })),
      ...Array.from({ length: options.started ?? 0 }, () => ({ status: 'started' as const })),
    ]);
    return { term, ids, submittedIds: ids.slice(0, submitted), query: `term=${term}` };
  }

  const readsOf = (ids: readonly string[]) =>
    db()
      .select()
      .from(reviewReads)
      .where(inArray(reviewReads.accountId, [...ids]))
      .orderBy(asc(reviewReads.accountId), asc(reviewReads.round));
  const auditCount = async () =>
    (await db().select({ seq: auditEvents.seq }).from(auditEvents)).length;
  const lastAudit = async (action: string) => {
    const [row] = await db()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, action))
      .orderBy(sql`${auditEvents.seq} desc`)
      .limit(1);
    return row;
  };

  it('assigns a list: first and blind second reads, balanced, every read a different reader', async () => {
    const list = await seeded(10, { started: 2 });
    const team = await readers(3);
    const response = await call('POST', REVIEW_API.assignments, {
      query: list.query,
      reader_ids: team.map((member) => member.staffId),
      // The two started applications are in the list but get no reads, so are not counted.
      expected_count: 10,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const result = response.json<AssignmentResult>();
    expect(result.assigned).toBe(20);
    expect(result.unassigned).toBe(0);
    expect(result.already_assigned).toBe(0);
    const counts = result.per_reader.map((row) => row.count);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(20);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(result.per_reader[0]?.name).toBe(team[0]?.email.split('@')[0]);

    const reads = await readsOf(list.ids);
    expect(reads).toHaveLength(20);
    for (const id of list.submittedIds) {
      const mine = reads.filter((read) => read.accountId === id);
      expect(mine.map((read) => read.round).sort()).toEqual(['first', 'second']);
      expect(mine[0]?.readerId).not.toBe(mine[1]?.readerId);
    }
    expect(reads.every((read) => read.status === 'assigned')).toBe(true);
    const form = tenant.review.forms.find((one) => one.cycle === '*') ?? tenant.review.forms[0];
    expect(reads[0]?.formCycle).toBe('*');
    expect(reads[0]?.formVersion).toBe(form?.version ?? 1);

    const entry = await lastAudit('review.assigned');
    expect(entry?.detail).toMatchObject({ batch: true, count: 20, applications: 10 });
    expect(JSON.stringify(entry?.detail)).not.toContain('Ana');

    // Again: nothing new, every application already has its reads.
    const again = await call('POST', REVIEW_API.assignments, {
      query: list.query,
      reader_ids: team.map((member) => member.staffId),
      expected_count: 10,
    });
    expect(again.json()).toMatchObject({ assigned: 0, already_assigned: 10, unassigned: 0 });
  });

  it('refuses a list whose count changed, and changes nothing', async () => {
    const list = await seeded(3);
    const team = await readers(2);
    const before = await auditCount();
    const response = await call('POST', REVIEW_API.assignments, {
      query: list.query,
      reader_ids: team.map((member) => member.staffId),
      expected_count: 4,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(REVIEW_MESSAGES_API.countChanged(4, 3));
    expect(await readsOf(list.ids)).toEqual([]);
    // Nothing but the refused attempt itself.
    expect(await auditCount()).toBe(before + 1);
    expect((await lastAudit('review.refused'))?.detail).toEqual({
      call: `POST ${REVIEW_API.assignments}`,
      status: 409,
      read_id: null,
    });
  });

  it('refuses an empty list and a list of no submitted application', async () => {
    const list = await seeded(0, { started: 2 });
    const team = await readers(1);
    const response = await call('POST', REVIEW_API.assignments, {
      query: list.query,
      reader_ids: [team[0]?.staffId],
      expected_count: 0,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(REVIEW_MESSAGES_API.batchEmpty);
  });

  it('refuses a disabled member by name and assigns nothing', async () => {
    const list = await seeded(2);
    const team = await readers(2);
    const disabled = team[1] as SignedInStaff;
    await db()
      .update(staffMembers)
      .set({ disabledAt: new Date() })
      .where(eq(staffMembers.id, disabled.staffId));
    const before = await auditCount();
    const response = await call('POST', REVIEW_API.assignments, {
      query: list.query,
      reader_ids: team.map((member) => member.staffId),
      expected_count: 2,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(
      `${disabled.email.split('@')[0]}: ${REVIEW_MESSAGES_API.readerDisabled}`,
    );
    expect(await readsOf(list.ids)).toEqual([]);
    expect(await auditCount()).toBe(before + 1);
    expect((await lastAudit('review.refused'))?.detail).toMatchObject({ status: 422 });

    const unknown = await call('POST', REVIEW_API.assignments, {
      query: list.query,
      reader_ids: [randomUUID()],
      expected_count: 2,
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe(ASSIGNMENT_MESSAGES_API.unknownReader);
  });

  it('never goes above a cap and counts the reads left', async () => {
    const list = await seeded(6);
    const team = await readers(2);
    const response = await call('POST', REVIEW_API.assignments, {
      query: list.query,
      reader_ids: team.map((member) => member.staffId),
      second_reads: false,
      cap: 2,
      expected_count: 6,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ assigned: 4, unassigned: 2 });
    const loads = (await call('GET', REVIEW_API.readers)).json<ReaderLoad[]>();
    for (const member of team)
      expect(loads.find((row) => row.id === member.staffId)).toMatchObject({
        open: 2,
        submitted: 0,
        disabled: false,
      });
  });

  it('keeps conflicted readers off an application, by CEEB code, college name and applicant', async () => {
    const list = await seeded(3, {
      answers: (index): Record<string, string> =>
        index === 0
          ? { college_ceeb: '4321', college_name: 'Valley College' }
          : index === 1
            ? { college_name: 'Hill College' }
            : {},
    });
    const [a, b] = (await readers(2)) as [SignedInStaff, SignedInStaff];
    const add = (body: unknown) => call('POST', REVIEW_API.conflicts, body);
    const code = await add({ reader_id: a.staffId, kind: 'college', value: '4321' });
    expect(code.statusCode, code.body).toBe(201);
    expect((await add({ reader_id: a.staffId, kind: 'college', value: '4321' })).statusCode).toBe(
      409,
    );
    expect(
      (await add({ reader_id: a.staffId, kind: 'college', value: 'hill college', note: 'alumna' }))
        .statusCode,
    ).toBe(201);
    const applicant = await add({
      reader_id: b.staffId,
      kind: 'applicant',
      value: list.ids[2],
    });
    expect(applicant.statusCode).toBe(201);
    expect(
      (await add({ reader_id: b.staffId, kind: 'applicant', value: 'Ana Reyes' })).statusCode,
    ).toBe(400);

    const response = await call('POST', REVIEW_API.assignments, {
      query: list.query,
      reader_ids: [a.staffId, b.staffId],
      second_reads: true,
      expected_count: 3,
    });
    expect(response.json()).toMatchObject({ assigned: 3, unassigned: 3 });
    const reads = await readsOf(list.ids);
    const readerOf = (id: string | undefined) =>
      reads.filter((read) => read.accountId === id).map((read) => read.readerId);
    expect(readerOf(list.ids[0])).toEqual([b.staffId]);
    expect(readerOf(list.ids[1])).toEqual([b.staffId]);
    expect(readerOf(list.ids[2])).toEqual([a.staffId]);

    const listed = (await call('GET', REVIEW_API.conflicts)).json<ReaderConflict[]>();
    const mine = listed.filter((row) => row.reader_id === a.staffId);
    expect(mine.map((row) => row.value).sort()).toEqual(['4321', 'hill college']);
    const removed = await call('DELETE', `${REVIEW_API.conflicts}/${mine[0]?.id}`);
    expect(removed.statusCode).toBe(204);
    expect((await call('DELETE', `${REVIEW_API.conflicts}/${mine[0]?.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `${REVIEW_API.conflicts}/nope`)).statusCode).toBe(400);
  });

  it('reassigns a draft keeping its answers, and refuses what it must', async () => {
    const list = await seeded(1, { answers: () => ({ college_ceeb: '9876' }) });
    const [a, b, c, d] = (await readers(4)) as SignedInStaff[];
    if (!a || !b || !c || !d) throw new Error('four readers');
    await call('POST', REVIEW_API.assignments, {
      query: list.query,
      reader_ids: [a.staffId, b.staffId],
      expected_count: 1,
    });
    const [first, second] = await readsOf(list.ids);
    if (!first || !second) throw new Error('two reads');
    await db()
      .update(reviewReads)
      .set({ status: 'draft', answers: { notes: 'half way' }, savedAt: new Date() })
      .where(eq(reviewReads.id, first.id));

    const moved = await call('PUT', REVIEW_API.reassign(first.id), { reader_id: c.staffId });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ id: first.id, status: 'draft', reader_id: c.staffId });
    const [kept] = await db().select().from(reviewReads).where(eq(reviewReads.id, first.id));
    expect(kept).toMatchObject({
      readerId: c.staffId,
      status: 'draft',
      answers: { notes: 'half way' },
    });
    expect((await lastAudit('review.reassigned'))?.detail).toMatchObject({
      read_id: first.id,
      from: first.readerId,
      to: c.staffId,
    });

    const already = await call('PUT', REVIEW_API.reassign(first.id), {
      reader_id: second.readerId,
    });
    expect(already.statusCode).toBe(422);
    expect(already.json().message).toContain(REVIEW_MESSAGES_API.readerAlreadyReads);

    await call('POST', REVIEW_API.conflicts, {
      reader_id: d.staffId,
      kind: 'college',
      value: '9876',
    });
    const conflicted = await call('PUT', REVIEW_API.reassign(first.id), { reader_id: d.staffId });
    expect(conflicted.statusCode).toBe(422);
    expect(conflicted.json().message).toContain(REVIEW_MESSAGES_API.readerConflict);

    await db()
      .update(staffMembers)
      .set({ disabledAt: new Date() })
      .where(eq(staffMembers.id, a.staffId));
    const disabled = await call('PUT', REVIEW_API.reassign(first.id), { reader_id: a.staffId });
    expect(disabled.statusCode).toBe(422);
    expect(disabled.json().message).toContain(REVIEW_MESSAGES_API.readerDisabled);

    await db()
      .update(reviewReads)
      .set({ status: 'submitted', submittedAt: new Date() })
      .where(eq(reviewReads.id, second.id));
    const submitted = await call('PUT', REVIEW_API.reassign(second.id), { reader_id: a.staffId });
    expect(submitted.statusCode).toBe(409);
    expect(
      (await call('PUT', REVIEW_API.reassign(randomUUID()), { reader_id: c.staffId })).statusCode,
    ).toBe(404);
    expect(
      (await call('PUT', REVIEW_API.reassign(first.id), { reader_id: c.staffId, extra: 1 }))
        .statusCode,
    ).toBe(400);
    const [after] = await db().select().from(reviewReads).where(eq(reviewReads.id, first.id));
    expect(after?.readerId).toBe(c.staffId);
  });

  it('shows a reader their queue, open first by assignment, without caching, on record', async () => {
    const list = await seeded(2, {
      answers: () => ({ applied_major_desc: 'Psychology (B.S.)', entry_term_desc: 'Fall 2026' }),
    });
    const [reader] = (await readers(1)) as [SignedInStaff];
    await call('POST', REVIEW_API.assignments, {
      query: list.query,
      reader_ids: [reader.staffId],
      second_reads: false,
      expected_count: 2,
    });
    const response = await call('GET', REVIEW_API.queue, undefined, reader);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const queue = response.json<Queue>();
    expect(queue).toMatchObject({ open_count: 2, submitted_count: 0 });
    expect(queue.items.map((item) => item.applicant_name).sort()).toEqual([
      'Ana0 Reyes',
      'Ana1 Reyes',
    ]);
    expect(queue.items[0]).toMatchObject({
      program: 'Psychology (B.S.)',
      entry_term: 'Fall 2026',
      round: 'first',
      status: 'assigned',
    });
    const entry = await lastAudit('review.queue');
    expect(entry).toMatchObject({ actorId: reader.staffId });
    expect(entry?.detail).toMatchObject({ status: 'open', rows: 2 });

    const done = await call('GET', `${REVIEW_API.queue}?status=submitted`, undefined, reader);
    expect(done.json()).toMatchObject({ open_count: 2, submitted_count: 0, items: [] });
    expect(
      (await call('GET', `${REVIEW_API.queue}?status=all`, undefined, reader)).statusCode,
    ).toBe(400);
    // A reader cannot assign, see loads or rules.
    for (const [method, url] of [
      ['GET', REVIEW_API.readers],
      ['GET', REVIEW_API.rules],
      ['GET', REVIEW_API.conflicts],
    ] as const)
      expect((await call(method, url, undefined, reader)).statusCode).toBe(403);
  });

  it('asks for a fresh second factor before assigning a list', async () => {
    const stale = await signedInStaff(app, { role: 'admin', fresh2fa: false });
    const list = await seeded(1);
    const response = await call(
      'POST',
      REVIEW_API.assignments,
      { query: list.query, reader_ids: [stale.staffId], expected_count: 1 },
      stale,
    );
    expect(response.statusCode).toBe(403);
    expect(await readsOf(list.ids)).toEqual([]);
  });

  it('refuses malformed assignment bodies', async () => {
    const [reader] = (await readers(1)) as [SignedInStaff];
    for (const body of [
      { query: '', reader_ids: [], expected_count: 0 },
      { query: '', reader_ids: [reader.staffId], expected_count: -1 },
      { query: '', reader_ids: ['x'], expected_count: 1 },
      { query: '', reader_ids: [reader.staffId], expected_count: 1, extra: true },
      { query: 'page=2', reader_ids: [reader.staffId], expected_count: 1 },
    ]) {
      const response = await call('POST', REVIEW_API.assignments, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('saves rules and assigns as applications are submitted through the real submit', async () => {
    const [x, y, z] = (await readers(3)) as SignedInStaff[];
    if (!x || !y || !z) throw new Error('three readers');
    const badKey = await call('PUT', REVIEW_API.rules, {
      rules: [
        {
          name: 'Nope',
          match: { valueKey: 'favourite_colour', operator: 'equals', target: 'red' },
          reader_ids: [x.staffId],
          cap: null,
          enabled: true,
        },
      ],
    });
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json().message).toBe(
      ASSIGNMENT_MESSAGES_API.unknownAnswerKey('favourite_colour'),
    );
    const badReader = await call('PUT', REVIEW_API.rules, {
      rules: [{ name: 'Nope', match: null, reader_ids: [randomUUID()], cap: null, enabled: true }],
    });
    expect(badReader.statusCode).toBe(422);

    const saved = await call('PUT', REVIEW_API.rules, {
      rules: [
        {
          name: 'Off',
          match: null,
          reader_ids: [x.staffId],
          cap: null,
          enabled: false,
        },
        {
          name: 'Psychology',
          match: { valueKey: 'applied_major', operator: 'in', target: [PSYCHOLOGY] },
          reader_ids: [y.staffId, z.staffId],
          cap: 10,
          enabled: true,
        },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const rules = (await call('GET', REVIEW_API.rules)).json<ReviewRules>();
    expect(rules.rules.map((rule) => rule.name)).toEqual(['Off', 'Psychology']);
    expect(rules.rules[1]?.reader_ids).toEqual([y.staffId, z.staffId]);

    const psychology = await submitApplication(validApplicationAnswers(PSYCHOLOGY));
    const business = await submitApplication(validApplicationAnswers(BUSINESS));
    const reads = await waitForReads(psychology, 2);
    expect(reads.map((read) => read.readerId).sort()).toEqual([y.staffId, z.staffId].sort());
    expect(reads.map((read) => read.round)).toEqual(['first', 'second']);
    expect(reads[0]?.formCycle).toBe('*');
    expect(await readsOf([business])).toEqual([]);

    expect((await call('PUT', REVIEW_API.rules, { rules: [] })).statusCode).toBe(200);
    expect((await call('GET', REVIEW_API.rules)).json()).toEqual({ rules: [] });
  });

  it('gives a waiting read the least-loaded eligible reader, once however often it is called', async () => {
    const list = await seeded(1);
    const [a, b, c, d] = (await readers(4)) as SignedInStaff[];
    if (!a || !b || !c || !d) throw new Error('four readers');
    await call('POST', REVIEW_API.assignments, {
      query: list.query,
      reader_ids: [a.staffId, b.staffId],
      expected_count: 1,
    });
    const id = list.ids[0] as string;
    await db().insert(reviewReads).values({
      accountId: id,
      round: 'third',
      readerId: null,
      formCycle: '*',
      formVersion: 1,
      assignedBy: 'score gap',
    });
    // d is conflicted with the applicant; a and b already read it.
    await call('POST', REVIEW_API.conflicts, {
      reader_id: d.staffId,
      kind: 'applicant',
      value: id,
    });
    const loads = (await call('GET', REVIEW_API.readers)).json<ReaderLoad[]>();
    const eligible = loads.filter(
      (row) => !row.disabled && ![a, b, d].some((member) => member.staffId === row.id),
    );
    const least = Math.min(...eligible.map((row) => row.open));
    const service = createAssignmentService({
      db: db(),
      model: applicationModel,
      review: tenant.review,
      audit: createAuditTrail(db(), testAuditKeys),
    });
    const [once, twice] = await Promise.all([
      service.assignWaitingReads(id),
      service.assignWaitingReads(id),
    ]);
    expect(once + twice).toBe(1);
    expect(await service.assignWaitingReads(id)).toBe(0);
    const [third] = await db()
      .select()
      .from(reviewReads)
      .where(and(eq(reviewReads.accountId, id), eq(reviewReads.round, 'third')));
    const chosen = eligible.find((row) => row.id === third?.readerId);
    expect(chosen?.open).toBe(least);
    expect(await lastAudit('review.assigned')).toMatchObject({
      actorType: 'system',
      applicationId: id,
    });
  });

  async function submitApplication(answers: Record<string, string | boolean>): Promise<string> {
    const email = `assigned${++counter}.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    const saved = await callAs(app, cookie, 'PUT', '/api/answer', answers);
    expect(saved.statusCode, saved.body).toBe(200);
    const done = await callAs(app, cookie, 'POST', '/api/submit');
    expect(done.statusCode, done.body).toBe(200);
    const [row] = await db()
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    return row?.id as string;
  }

  async function waitForReads(id: string, count: number) {
    for (let attempt = 0; attempt < 300; attempt++) {
      const reads = await readsOf([id]);
      if (reads.length >= count) return reads;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('no reads were assigned');
  }
});
