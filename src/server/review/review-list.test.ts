import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationListRow } from '../../shared/staff/application-list-api';
import { decisionUrls } from '../../shared/staff/decision-api';
import { decisions, reviewReads } from '../db/schema';
import { callAs } from '../test/accounts-helpers';
import { insertApplications, parseCsv } from '../test/export-helpers';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

const LIST = '/staff/api/applications';
const CSV = '/staff/api/exports/applications.csv';

/**
 * The list's reading columns and filters per member: a score or a recommendation is shown, and
 * matched by a filter, only where the member may see it (the committee, or their own read of
 * that application submitted).
 */
describe.each(databaseKinds)('the list’s reading columns on %s', (kind) => {
  let app: FastifyInstance;
  let admin: SignedInStaff;
  let first: SignedInStaff;
  let second: SignedInStaff;
  const tag = `RL${kind === 'pglite' ? 'P' : 'G'}`;
  let ids: { a: string; b: string; c: string; d: string };

  beforeAll(async () => {
    app = await buildTestApp(kind);
    admin = await signedInStaff(app, { role: 'admin' });
    first = await signedInStaff(app, { role: 'reader' });
    second = await signedInStaff(app, { role: 'reader' });
    const submitted = { status: 'submitted' as const, submittedAt: '2026-02-01T10:00:00Z' };
    const [a, b, c, d] = await insertApplications(app, tag, [
      submitted,
      submitted,
      submitted,
      submitted,
    ]);
    ids = { a: a as string, b: b as string, c: c as string, d: d as string };
    const db = testDatabaseOf(app);
    const read = (
      accountId: string,
      round: 'first' | 'second' | 'third',
      member: SignedInStaff | null,
      done: { score: number; recommendation: string } | null,
    ) => ({
      accountId,
      round,
      readerId: member?.staffId ?? null,
      formCycle: '*',
      formVersion: 1,
      assignedBy: 'test',
      status: done ? ('submitted' as const) : ('assigned' as const),
      score: done?.score ?? null,
      recommendation: done?.recommendation ?? null,
      submittedAt: done ? new Date() : null,
    });
    await db.insert(reviewReads).values([
      // a: the first read submitted (4.5, admit), the second still open.
      read(ids.a, 'first', first, { score: 4.5, recommendation: 'admit' }),
      read(ids.a, 'second', second, null),
      // b: both submitted (admit, admit); c: none; d: far apart, a third read waiting.
      read(ids.b, 'first', first, { score: 4, recommendation: 'admit' }),
      read(ids.b, 'second', second, { score: 3.5, recommendation: 'admit' }),
      read(ids.d, 'first', first, { score: 5, recommendation: 'deny' }),
      read(ids.d, 'second', second, { score: 2, recommendation: 'deny' }),
      read(ids.d, 'third', null, null),
    ]);
  });
  afterAll(async () => {
    await app.close();
  });

  async function rows(
    member: SignedInStaff,
    filters = '',
  ): Promise<Map<string, ApplicationListRow>> {
    const response = await callAs(app, member.cookie, 'GET', `${LIST}?term=${tag}${filters}`);
    expect(response.statusCode, response.body).toBe(200);
    const list = response.json().applications as ApplicationListRow[];
    return new Map(list.map((row) => [row.id, row]));
  }

  it('shows the reads to everyone and the score and recommendation only where the member may see them', async () => {
    const asSecond = await rows(second);
    expect(asSecond.get(ids.a)).toMatchObject({
      reads: '1 of 2 submitted',
      review_score: null,
      review_recommendation: null,
      review_recommendation_label: null,
    });
    expect(asSecond.get(ids.b)).toMatchObject({
      reads: '2 of 2 submitted',
      review_score: '3.75',
      review_recommendation: 'admit',
      review_recommendation_label: 'Admit',
    });
    expect(asSecond.get(ids.c)).toMatchObject({ reads: null, review_score: null });
    expect(asSecond.get(ids.d)).toMatchObject({ reads: '2 of 3 submitted', review_score: '3.50' });

    const asFirst = await rows(first);
    expect(asFirst.get(ids.a)).toMatchObject({
      review_score: '4.50',
      review_recommendation: 'admit',
    });

    const asAdmin = await rows(admin);
    expect(asAdmin.get(ids.a)).toMatchObject({
      review_score: '4.50',
      review_recommendation: 'admit',
    });
  });

  it('filters on where reading stands', async () => {
    const ofStatus = async (status: string) =>
      [...(await rows(second, `&review_status=${status}`)).keys()].sort();
    expect(await ofStatus('unassigned')).toEqual([ids.c]);
    expect(await ofStatus('in_progress')).toEqual([ids.a]);
    expect(await ofStatus('needs_third_read')).toEqual([ids.d]);
    expect(await ofStatus('complete')).toEqual([ids.b]);
    const both = await rows(second, '&review_status=unassigned&review_status=complete');
    expect([...both.keys()].sort()).toEqual([ids.b, ids.c].sort());
    const bad = await callAs(app, second.cookie, 'GET', `${LIST}?review_status=done`);
    expect(bad.statusCode).toBe(400);
  });

  it('matches the recommendation only where the member may see it', async () => {
    const admitted = async (member: SignedInStaff) =>
      [...(await rows(member, '&recommendation=admit')).keys()].sort();
    expect(await admitted(admin)).toEqual([ids.a, ids.b].sort());
    expect(await admitted(first)).toEqual([ids.a, ids.b].sort());
    // The second reader has not submitted a: the filter does not tell them what it says.
    expect(await admitted(second)).toEqual([ids.b]);
  });

  it('exports the columns as the member may see them', async () => {
    const csv = async (member: SignedInStaff) => {
      const response = await callAs(
        app,
        member.cookie,
        'GET',
        `${CSV}?term=${tag}&columns=id,review_score,review_recommendation`,
      );
      expect(response.statusCode, response.body).toBe(200);
      const [header, ...records] = parseCsv(response.body.replace(/^\uFEFF/, ''));
      expect(header).toEqual(['id', 'review_score', 'review_recommendation']);
      return new Map(records.map((record) => [record[0], record.slice(1)]));
    };
    const asSecond = await csv(second);
    expect(asSecond.get(ids.a)).toEqual(['', '']);
    expect(asSecond.get(ids.b)).toEqual(['3.75', 'admit']);
    const asAdmin = await csv(admin);
    expect(asAdmin.get(ids.a)).toEqual(['4.50', 'admit']);
    const filtered = await callAs(
      app,
      second.cookie,
      'GET',
      `${CSV}?term=${tag}&recommendation=admit&columns=id`,
    );
    expect(parseCsv(filtered.body.replace(/^\uFEFF/, '')).slice(1)).toEqual([[ids.b]]);
  });

  it('decides for the list by the readers’ recommendation: exactly those it filters', async () => {
    const response = await callAs(app, admin.cookie, 'POST', decisionUrls.batch, {
      query: `term=${tag}&recommendation=admit`,
      code: 'admit',
    });
    expect(response.statusCode, response.body).toBe(200);
    const decided = await testDatabaseOf(app)
      .select({ id: decisions.accountId, code: decisions.code })
      .from(decisions)
      .where(inArray(decisions.accountId, Object.values(ids)));
    expect(decided.map((row) => row.id).sort()).toEqual([ids.a, ids.b].sort());
    expect(decided.every((row) => row.code === 'admit')).toBe(true);
    await testDatabaseOf(app).delete(decisions).where(eq(decisions.code, 'admit'));
  });
});
