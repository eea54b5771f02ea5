import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplicationReviews, REVIEW_API } from '../../shared/review/review-api';
import { reviewReads } from '../db/schema';
import { callAs } from '../test/accounts-helpers';
import { insertApplications, parseCsv } from '../test/export-helpers';
import { listRoutes } from '../test/route-list';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

/*
 * The blind guarantee, route by route: a reader who has not submitted their own read of an
 * application gets nothing of another read's blind answers, score or recommendation from any
 * staff route they can call. The routes are read from the app, so a route added later is called
 * here too, and one whose parameters this test cannot fill fails it until it says how.
 */

const COMMENT = 'BLIND-COMMENT-7f3a';
/** (5*2 + 4*2 + 5 + 4) / 6 */
const FIRST_SCORE = 4.5;
const FIRST_ANSWERS = {
  academic: '5',
  coursework_fit: '4',
  writing: '5',
  trajectory: '4',
  comments: COMMENT,
  recommendation: 'waitlist',
};
const HIDDEN_VALUES = new Set<unknown>([FIRST_SCORE, '4.5', '4.50', 'waitlist', 'Waitlist']);
const SCORE_OR_RECOMMENDATION = /score|recommendation/i;

/** Where a body gives away the first read: its comment anywhere, its score or recommendation in such a field. */
function leaks(body: string, firstReadId: string): string[] {
  const found: string[] = [];
  if (body.includes(COMMENT)) found.push('the comment');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return found;
  }
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        walk(item, `${path}[${index}]`);
      });
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (record.id === firstReadId) {
      if ('score' in record || 'recommendation' in record) found.push(`${path}: the read's score`);
      const answers = (record.answers ?? {}) as Record<string, unknown>;
      for (const key of ['academic', 'coursework_fit', 'writing', 'trajectory', 'recommendation'])
        if (key in answers) found.push(`${path}.answers.${key}`);
    }
    for (const [key, child] of Object.entries(record)) {
      if (SCORE_OR_RECOMMENDATION.test(key) && HIDDEN_VALUES.has(child))
        found.push(`${path}.${key} = ${String(child)}`);
      walk(child, `${path}.${key}`);
    }
  };
  walk(parsed, '$');
  return found;
}

describe.each(databaseKinds)('the blind guarantee on %s', (kind) => {
  let app: FastifyInstance;
  let firstReader: SignedInStaff;
  let secondReader: SignedInStaff;
  let applicationId: string;
  let firstReadId: string;
  let secondReadId: string;
  const tag = `BLIND${kind === 'pglite' ? 'P' : 'G'}`;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    firstReader = await signedInStaff(app, { role: 'evaluator' });
    secondReader = await signedInStaff(app, { role: 'reader' });
    [applicationId] = (await insertApplications(app, tag, [
      { status: 'submitted', submittedAt: '2026-02-01T10:00:00Z' },
    ])) as [string];
    const rows = await testDatabaseOf(app)
      .insert(reviewReads)
      .values(
        (['first', 'second'] as const).map((round) => ({
          accountId: applicationId,
          round,
          readerId: (round === 'first' ? firstReader : secondReader).staffId,
          formCycle: '*',
          formVersion: 1,
          assignedBy: 'test',
        })),
      )
      .returning({ id: reviewReads.id, round: reviewReads.round });
    firstReadId = rows.find((row) => row.round === 'first')?.id as string;
    secondReadId = rows.find((row) => row.round === 'second')?.id as string;
    const saved = await callAs(app, firstReader.cookie, 'PUT', REVIEW_API.draft(firstReadId), {
      answers: FIRST_ANSWERS,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const submitted = await callAs(
      app,
      firstReader.cookie,
      'POST',
      REVIEW_API.submit(firstReadId),
      {},
    );
    expect(submitted.json()).toMatchObject({ score: FIRST_SCORE, recommendation: 'waitlist' });
    // The second reader has begun: their own draft is theirs to see.
    await callAs(app, secondReader.cookie, 'PUT', REVIEW_API.draft(secondReadId), {
      answers: { academic: '2', comments: 'my own notes' },
    });
    await callAs(app, firstReader.cookie, 'POST', REVIEW_API.notes(applicationId), {
      body: 'A staff note.',
    });
  });
  afterAll(async () => {
    await app.close();
  });

  /** Each parameter a staff route may take, as this test fills it. */
  const params = (): Record<string, string> => ({
    applicationId,
    readId: secondReadId,
    id: crypto.randomUUID(),
    key: 'personal_statement',
    gridKey: 'college_1_coursework',
    staffId: secondReader.staffId,
  });

  /** The query strings each route is also called with (besides none). */
  const queries = (): Record<string, string[]> => ({
    '/staff/api/applications': [
      `term=${tag}`,
      `term=${tag}&recommendation=waitlist`,
      `term=${tag}&review_status=in_progress&sort=submitted_at`,
      `q=${tag}`,
    ],
    '/staff/api/exports/applications.csv': [
      `term=${tag}&columns=id,review_score,review_recommendation,decision,decision_label`,
      `term=${tag}&recommendation=waitlist&columns=id`,
    ],
    '/staff/api/exports/courses.csv': [`term=${tag}`],
    '/staff/api/audit': [`application=${applicationId}`],
    '/staff/api/audit.csv': [`application=${applicationId}`],
  });

  function urlsOf(route: string): string[] {
    const filled = route.replace(/:([A-Za-z]+)/g, (_, name: string) => {
      const value = params()[name];
      if (value === undefined)
        throw new Error(`${route}: say in review-blind.test.ts how to fill :${name}`);
      return value;
    });
    return [filled, ...(queries()[route] ?? []).map((query) => `${filled}?${query}`)];
  }

  it('gives the second reader nothing of the first read from any staff GET route', async () => {
    const routes = listRoutes(app)
      .filter((route) => route.methods.includes('GET') && route.url.startsWith('/staff/api/'))
      .map((route) => route.url);
    expect(routes).toContain('/staff/api/applications/:applicationId/reviews');
    expect(routes).toContain('/staff/api/applications/:applicationId/committee');
    const answered: Record<string, number> = {};
    for (const route of routes) {
      for (const url of urlsOf(route)) {
        const response = await callAs(app, secondReader.cookie, 'GET', url);
        answered[url] = response.statusCode;
        expect(leaks(response.body, firstReadId), url).toEqual([]);
        if (response.headers['content-type']?.toString().startsWith('text/csv')) {
          const [header, ...records] = parseCsv(response.body.replace(/^\uFEFF/, ''));
          for (const column of ['review_score', 'review_recommendation']) {
            const at = header?.indexOf(column) ?? -1;
            if (at >= 0) for (const record of records) expect(record[at], url).toBe('');
          }
        }
      }
    }
    expect(Object.keys(answered).length).toBeGreaterThan(routes.length);
    // The check finds what it looks for: the first reader's own view shows all of it.
    const own = await callAs(
      app,
      firstReader.cookie,
      'GET',
      REVIEW_API.applicationReviews(applicationId),
    );
    expect(leaks(own.body, firstReadId).length).toBeGreaterThan(3);
    // The routes a reader uses answered them, and the committee's and the audit log refused.
    expect(answered[REVIEW_API.applicationReviews(applicationId)]).toBe(200);
    expect(answered[`/staff/api/applications/${applicationId}`]).toBe(200);
    expect(answered[`/staff/api/applications/${applicationId}/history`]).toBe(200);
    expect(answered[REVIEW_API.notes(applicationId)]).toBe(200);
    expect(answered[`/staff/api/applications?term=${tag}`]).toBe(200);
    expect(
      answered[
        `/staff/api/exports/applications.csv?${queries()['/staff/api/exports/applications.csv']?.[0]}`
      ],
    ).toBe(200);
    expect(answered[REVIEW_API.committee(applicationId)]).toBe(403);
    expect(answered[REVIEW_API.agreement]).toBe(403);
    expect(answered['/staff/api/audit']).toBe(403);
  });

  it('says nothing through the list filter and keeps the second reader’s own draft theirs', async () => {
    const filtered = await callAs(
      app,
      secondReader.cookie,
      'GET',
      `/staff/api/applications?term=${tag}&recommendation=waitlist`,
    );
    expect(filtered.json().applications).toEqual([]);
    const reviews = (
      await callAs(app, secondReader.cookie, 'GET', REVIEW_API.applicationReviews(applicationId))
    ).json() as ApplicationReviews;
    expect(reviews.mine?.answers).toEqual({ academic: '2', comments: 'my own notes' });
    expect(reviews.others[0]).toMatchObject({ id: firstReadId, blinded: true, answers: {} });
  });

  it('shows the first read once the second reader submits their own', async () => {
    const saved = await callAs(app, secondReader.cookie, 'PUT', REVIEW_API.draft(secondReadId), {
      answers: { coursework_fit: '2', writing: '2', trajectory: '2', recommendation: 'deny' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const submitted = await callAs(
      app,
      secondReader.cookie,
      'POST',
      REVIEW_API.submit(secondReadId),
      {},
    );
    expect(submitted.statusCode, submitted.body).toBe(200);
    const reviews = (
      await callAs(app, secondReader.cookie, 'GET', REVIEW_API.applicationReviews(applicationId))
    ).json() as ApplicationReviews;
    expect(reviews.others.find((read) => read.id === firstReadId)).toMatchObject({
      blinded: false,
      score: FIRST_SCORE,
      recommendation: 'waitlist',
      answers: FIRST_ANSWERS,
    });
    const list = await callAs(
      app,
      secondReader.cookie,
      'GET',
      `/staff/api/applications?term=${tag}&recommendation=waitlist`,
    );
    // (4.5 + 2) / 2; a tie between waitlist and deny goes to the code first in alphabetical
    // order; 2.5 points apart, so a third read now waits for a reader.
    expect(list.json().applications).toEqual([]);
    const all = await callAs(
      app,
      secondReader.cookie,
      'GET',
      `/staff/api/applications?term=${tag}`,
    );
    expect(all.json().applications[0]).toMatchObject({
      review_score: '3.25',
      reads: '2 of 3 submitted',
      review_recommendation: 'deny',
    });
  });
});
