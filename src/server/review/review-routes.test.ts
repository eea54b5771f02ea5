import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApplicationReviews,
  type CommitteeView,
  REVIEW_API,
  REVIEW_MESSAGES_API,
  type ReadView,
} from '../../shared/review/review-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { loadTenantConfig } from '../config/tenant';
import { auditEvents, reviewReads } from '../db/schema';
import { callAs } from '../test/accounts-helpers';
import { insertApplications } from '../test/export-helpers';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, sampleTenantFile, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { createReviewService, type ReviewAuditNote } from './review-service';
import { createReviewStore } from './review-store';

/** Every question of the built-in form, each score `point`. */
function complete(point: string, recommendation = 'admit', comments = '') {
  return {
    academic: point,
    coursework_fit: point,
    writing: point,
    trajectory: point,
    comments,
    recommendation,
  };
}

describe.each(databaseKinds)('reads on %s', (kind) => {
  let app: FastifyInstance;
  let admin: SignedInStaff;
  let first: SignedInStaff;
  let second: SignedInStaff;
  let outsider: SignedInStaff;
  let counter = 0;

  let tenant: TenantConfig;
  const tenantReview = () => tenant.review;
  const tenantDecisions = () => tenant.decisions;

  beforeAll(async () => {
    tenant = await loadTenantConfig(sampleTenantFile);
    app = await buildTestApp(kind);
    admin = await signedInStaff(app, { role: 'admin' });
    first = await signedInStaff(app, { role: 'reader' });
    second = await signedInStaff(app, { role: 'evaluator' });
    outsider = await signedInStaff(app, { role: 'reader' });
  });
  afterAll(async () => {
    await app.close();
  });

  const db = () => testDatabaseOf(app);
  const call = (
    member: SignedInStaff,
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    payload?: unknown,
  ) => callAs(app, member.cookie, method, url, payload);

  async function application(submitted = true): Promise<string> {
    const [id] = await insertApplications(app, `READ${++counter}${kind}`, [
      submitted
        ? { status: 'submitted', submittedAt: '2026-02-01T10:00:00Z' }
        : { status: 'validating' },
    ]);
    return id as string;
  }

  async function assign(
    accountId: string,
    round: 'first' | 'second' | 'third',
    member: SignedInStaff,
  ): Promise<string> {
    const [row] = await db()
      .insert(reviewReads)
      .values({
        accountId,
        round,
        readerId: member.staffId,
        formCycle: '*',
        formVersion: 1,
        assignedBy: 'test',
      })
      .returning({ id: reviewReads.id });
    return row?.id as string;
  }

  const readRow = async (id: string) =>
    (await db().select().from(reviewReads).where(eq(reviewReads.id, id)))[0];
  const readsOf = (accountId: string) =>
    db()
      .select()
      .from(reviewReads)
      .where(eq(reviewReads.accountId, accountId))
      .orderBy(asc(reviewReads.round));
  const auditOf = (accountId: string, action: string) =>
    db()
      .select({ detail: auditEvents.detail, actorId: auditEvents.actorId })
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, accountId), eq(auditEvents.action, action)));

  async function submitWith(member: SignedInStaff, readId: string, answers: object) {
    const saved = await call(member, 'PUT', REVIEW_API.draft(readId), { answers });
    expect(saved.statusCode, saved.body).toBe(200);
    const done = await call(member, 'POST', REVIEW_API.submit(readId), {});
    expect(done.statusCode, done.body).toBe(200);
    return done.json() as ReadView;
  }

  it('saves a draft as a patch merged into the stored answers, no-store', async () => {
    const id = await application();
    const readId = await assign(id, 'first', first);
    const one = await call(first, 'PUT', REVIEW_API.draft(readId), { answers: { academic: '4' } });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.headers['cache-control']).toBe('no-store');
    const two = await call(first, 'PUT', REVIEW_API.draft(readId), {
      answers: { writing: '3', comments: 'Strong calculus.' },
    });
    expect(two.statusCode, two.body).toBe(200);
    const view = two.json() as ReadView;
    expect(view.status).toBe('draft');
    expect(view.saved_at).not.toBeNull();
    expect(view.answers).toEqual({ academic: '4', writing: '3', comments: 'Strong calculus.' });
    const row = await readRow(readId);
    expect(row?.answers).toEqual({ academic: '4', writing: '3', comments: 'Strong calculus.' });
    expect(row?.status).toBe('draft');
    // A draft is not a submission: nothing of its answers goes to the audit trail.
    const entries = await db()
      .select({ detail: auditEvents.detail })
      .from(auditEvents)
      .where(eq(auditEvents.applicationId, id));
    expect(JSON.stringify(entries)).not.toContain('Strong calculus.');
  });

  it('refuses a score outside its scale, an unknown key, an option not offered and NUL; nothing changes', async () => {
    const id = await application();
    const readId = await assign(id, 'first', first);
    await call(first, 'PUT', REVIEW_API.draft(readId), { answers: { academic: '4' } });
    const before = await readRow(readId);
    for (const [answers, key] of [
      [{ academic: '6' }, 'academic'],
      [{ academic: '0', writing: '3' }, 'academic'],
      [{ nonsense: '1' }, 'nonsense'],
      [{ recommendation: 'maybe' }, 'recommendation'],
      [{ academic: 5 }, 'academic'],
    ] as const) {
      const refused = await call(first, 'PUT', REVIEW_API.draft(readId), { answers });
      expect(refused.statusCode, JSON.stringify(answers)).toBe(422);
      expect(refused.json().message).toBe(REVIEW_MESSAGES_API.invalidAnswers);
      expect(Object.keys(refused.json().errors)).toContain(key);
    }
    // Each refused attempt is in the audit trail (the call and its status, never the answers).
    const refusals = (
      await db()
        .select({ detail: auditEvents.detail })
        .from(auditEvents)
        .where(eq(auditEvents.action, 'review.refused'))
    ).filter((entry) => (entry.detail as { read_id?: string }).read_id === readId);
    expect(refusals.map((entry) => entry.detail)).toEqual(
      Array.from({ length: 5 }, () => ({
        call: `PUT ${REVIEW_API.draft(':readId')}`,
        status: 422,
        read_id: readId,
      })),
    );
    // NUL and a lone surrogate are refused wherever they are (400) or by the answer check (422).
    for (const text of ['a\\u0000b', '\\ud800']) {
      const refused = await app.inject({
        method: 'PUT',
        url: REVIEW_API.draft(readId),
        headers: { cookie: first.cookie, 'content-type': 'application/json' },
        payload: `{"answers":{"comments":"${text}"}}`,
      });
      expect([400, 422], text).toContain(refused.statusCode);
    }
    for (const body of [{}, { answers: {}, extra: 1 }, { answers: [] }]) {
      const bad = await call(first, 'PUT', REVIEW_API.draft(readId), body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
    const malformed = await app.inject({
      method: 'PUT',
      url: REVIEW_API.draft(readId),
      headers: { cookie: first.cookie, 'content-type': 'application/json' },
      payload: '{"answers":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(await readRow(readId)).toEqual(before);
  });

  it("refuses another member's read with 403, audited, and changes nothing", async () => {
    const id = await application();
    const readId = await assign(id, 'first', first);
    await call(first, 'PUT', REVIEW_API.draft(readId), { answers: { academic: '4' } });
    const before = await readRow(readId);
    const draft = await call(second, 'PUT', REVIEW_API.draft(readId), {
      answers: { academic: '1' },
    });
    expect(draft.statusCode).toBe(403);
    expect(draft.json().message).toBe(REVIEW_MESSAGES_API.notYours);
    const submit = await call(second, 'POST', REVIEW_API.submit(readId), {});
    expect(submit.statusCode).toBe(403);
    expect(await readRow(readId)).toEqual(before);
    const refused = await auditOf(id, 'review.refused');
    expect(refused.map((entry) => entry.detail)).toEqual([
      { read_id: readId, attempt: 'draft', reason: 'not_yours' },
      { read_id: readId, attempt: 'submit', reason: 'not_yours' },
    ]);
    expect(refused.every((entry) => entry.actorId === second.staffId)).toBe(true);
    // Unknown and malformed read ids.
    const unknown = await call(first, 'PUT', REVIEW_API.draft(crypto.randomUUID()), {
      answers: {},
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await call(first, 'PUT', REVIEW_API.draft('nope'), { answers: {} });
    expect(malformed.statusCode).toBe(400);
  });

  it('submits once: validation first (422, nothing changed), then the score and recommendation; again 409', async () => {
    const id = await application();
    const readId = await assign(id, 'first', first);
    await call(first, 'PUT', REVIEW_API.draft(readId), { answers: { academic: '5' } });
    const before = await readRow(readId);
    const incomplete = await call(first, 'POST', REVIEW_API.submit(readId), {});
    expect(incomplete.statusCode).toBe(422);
    expect(incomplete.json().message).toBe(REVIEW_MESSAGES_API.incomplete);
    expect(Object.keys(incomplete.json().errors).sort()).toEqual(
      ['coursework_fit', 'recommendation', 'trajectory', 'writing'].sort(),
    );
    expect(await readRow(readId)).toEqual(before);

    // (5*2 + 3*2 + 4 + 2) / 6 = 22/6
    await call(first, 'PUT', REVIEW_API.draft(readId), {
      answers: { coursework_fit: '3', writing: '4', trajectory: '2', recommendation: 'waitlist' },
    });
    const done = await call(first, 'POST', REVIEW_API.submit(readId), {});
    expect(done.statusCode, done.body).toBe(200);
    const view = done.json() as ReadView;
    expect(view).toMatchObject({
      status: 'submitted',
      score: 3.67,
      recommendation: 'waitlist',
      blinded: false,
    });
    expect(view.submitted_at).not.toBeNull();
    const again = await call(first, 'POST', REVIEW_API.submit(readId), {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(REVIEW_MESSAGES_API.submitted);
    const draft = await call(first, 'PUT', REVIEW_API.draft(readId), {
      answers: { academic: '1' },
    });
    expect(draft.statusCode).toBe(409);
    expect((await readRow(readId))?.answers.academic).toBe('5');
    const submitted = await auditOf(id, 'review.submitted');
    expect(submitted.map((entry) => entry.detail)).toEqual([{ read_id: readId, round: 'first' }]);
  });

  it('starts a third read, waiting for a reader, when two scores are further apart than the gap', async () => {
    // The sample tenant's gap is 1 point.
    const far = await application();
    await submitWith(first, await assign(far, 'first', first), complete('5'));
    await submitWith(second, await assign(far, 'second', second), complete('3', 'deny'));
    const reads = await readsOf(far);
    const third = reads.find((read) => read.round === 'third');
    expect(third).toMatchObject({
      status: 'assigned',
      formCycle: '*',
      formVersion: 1,
      assignedBy: 'Score gap',
    });
    // The app gives it at once to a member who can read and does not read it yet.
    expect([admin.staffId, outsider.staffId]).toContain(third?.readerId);

    // A server given a way to find waiting reads a reader calls it after the submit commits.
    const waiting: string[] = [];
    const reviews = createReviewService({
      store: createReviewStore(db()),
      tenant: { review: { ...tenantReview(), third_read_gap: 0.5 }, decisions: tenantDecisions() },
      onReadsWaiting: async (accountId) => {
        waiting.push(accountId);
        expect((await readsOf(accountId)).some((read) => read.round === 'third')).toBe(true);
      },
    });
    const called = await application();
    const noAudit: ReviewAuditNote = async () => {};
    for (const [round, member, point] of [
      ['first', first, '4'],
      ['second', second, '3'],
    ] as const) {
      const readId = await assign(called, round, member);
      const reader = {
        id: member.staffId,
        role: round === 'first' ? 'reader' : 'evaluator',
      } as const;
      await reviews.saveDraft(readId, complete(point), reader, noAudit);
      await reviews.submit(readId, reader, noAudit);
    }
    expect(waiting).toEqual([called]);

    // At the gap exactly, and below it: no third read.
    for (const [a, b] of [
      ['4', '3'],
      ['4', '4'],
    ] as const) {
      const near = await application();
      await submitWith(first, await assign(near, 'first', first), complete(a));
      await submitWith(second, await assign(near, 'second', second), complete(b));
      expect((await readsOf(near)).map((read) => read.round).sort()).toEqual(['first', 'second']);
    }
  });

  it('shows others’ reads blind until the member submits their own; the committee sees them whole', async () => {
    const id = await application();
    const firstRead = await assign(id, 'first', first);
    const secondRead = await assign(id, 'second', second);
    await submitWith(first, firstRead, complete('5', 'admit', 'BLIND-COMMENT-review-routes'));
    await call(second, 'PUT', REVIEW_API.draft(secondRead), { answers: { academic: '2' } });

    const blind = await call(second, 'GET', REVIEW_API.applicationReviews(id));
    expect(blind.statusCode, blind.body).toBe(200);
    expect(blind.headers['cache-control']).toBe('no-store');
    const seen = blind.json() as ApplicationReviews;
    expect(blind.body).not.toContain('BLIND-COMMENT-review-routes');
    expect(seen.mine).toMatchObject({ id: secondRead, answers: { academic: '2' } });
    expect(seen.others).toHaveLength(1);
    expect(seen.others[0]).toMatchObject({ id: firstRead, blinded: true, answers: {} });
    expect(seen.others[0]).not.toHaveProperty('score');
    expect(seen.others[0]).not.toHaveProperty('recommendation');
    expect(seen.can_start).toBe(false);
    expect(seen.form.title).toBe('Review');
    expect(seen.decision_codes.map((code) => code.value)).toContain('admit');
    expect(await auditOf(id, 'review.view')).toHaveLength(1);

    const whole = (await call(admin, 'GET', REVIEW_API.applicationReviews(id))).json();
    expect(whole.others[0]).toMatchObject({ blinded: false, score: 5, recommendation: 'admit' });
    expect(whole.can_start).toBe(true);

    await submitWith(second, secondRead, complete('4', 'deny'));
    const after = (
      await call(second, 'GET', REVIEW_API.applicationReviews(id))
    ).json() as ApplicationReviews;
    expect(after.others[0]).toMatchObject({
      blinded: false,
      score: 5,
      recommendation: 'admit',
      answers: { academic: '5', comments: 'BLIND-COMMENT-review-routes' },
    });
  });

  it('starts an unassigned read only with reviews.read_unassigned; refusals audited', async () => {
    const id = await application();
    const refused = await call(outsider, 'POST', REVIEW_API.applicationReviews(id), {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(REVIEW_MESSAGES_API.notAssigned);
    expect(await readsOf(id)).toEqual([]);
    expect(await auditOf(id, 'review.refused')).toHaveLength(1);

    await assign(id, 'first', first);
    const started = await call(admin, 'POST', REVIEW_API.applicationReviews(id), {});
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ round: 'second', reader_id: admin.staffId });
    const twice = await call(admin, 'POST', REVIEW_API.applicationReviews(id), {});
    expect(twice.statusCode).toBe(409);
    expect(await auditOf(id, 'review.started')).toHaveLength(1);
    const extra = await call(admin, 'POST', REVIEW_API.applicationReviews(id), { x: 1 });
    expect(extra.statusCode).toBe(400);
  });

  it('answers only submitted applications, and 404 for unknown ones', async () => {
    const draft = await application(false);
    for (const [member, method, url] of [
      [first, 'GET', REVIEW_API.applicationReviews(draft)],
      [admin, 'POST', REVIEW_API.applicationReviews(draft)],
      [admin, 'GET', REVIEW_API.committee(draft)],
    ] as const) {
      const response = await call(member, method, url, method === 'POST' ? {} : undefined);
      expect(response.statusCode, url).toBe(409);
      expect(response.json().message).toBe(REVIEW_MESSAGES_API.notSubmittedApplication);
    }
    const unknown = crypto.randomUUID();
    for (const url of [
      REVIEW_API.applicationReviews(unknown),
      REVIEW_API.committee(unknown),
      REVIEW_API.notes(unknown),
    ]) {
      expect((await call(admin, 'GET', url)).statusCode, url).toBe(404);
    }
    expect((await call(admin, 'GET', REVIEW_API.applicationReviews('x'))).statusCode).toBe(400);
  });

  it('gives the committee every read with spreads, the tally and bands; others 403', async () => {
    const id = await application();
    await submitWith(first, await assign(id, 'first', first), complete('5', 'admit'));
    await submitWith(second, await assign(id, 'second', second), complete('4', 'admit'));
    expect((await call(first, 'GET', REVIEW_API.committee(id))).statusCode).toBe(403);
    expect((await call(second, 'GET', REVIEW_API.agreement)).statusCode).toBe(403);
    const response = await call(admin, 'GET', REVIEW_API.committee(id));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const view = response.json() as CommitteeView;
    expect(view.reads.map((read) => [read.round, read.score, read.reader_name])).toEqual([
      ['first', 5, first.email.split('@')[0]],
      ['second', 4, second.email.split('@')[0]],
    ]);
    expect(view.mean_score).toBe(4.5);
    expect(view.criteria.find((criterion) => criterion.key === 'academic')).toMatchObject({
      count: 2,
      mean: 4.5,
      spread: 0.5,
      min: 4,
      max: 5,
    });
    expect(view.recommendations).toEqual([{ code: 'admit', label: 'Admit', count: 2 }]);
    expect(view.bands?.[0]).toEqual({ label: 'Strong', min: 4 });
    expect(view.third_read_gap).toBe(1);
    expect(await auditOf(id, 'review.committee_view')).toHaveLength(1);

    const agreement = await call(admin, 'GET', REVIEW_API.agreement);
    expect(agreement.statusCode, agreement.body).toBe(200);
    const cycle = agreement.json().cycles[0];
    expect(cycle.count).toBeGreaterThanOrEqual(1);
    expect(cycle.within).toBe(1);
    expect(cycle.criteria.map((criterion: { key: string }) => criterion.key)).toContain('academic');
  });
});
