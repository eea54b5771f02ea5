import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import {
  CREDIT_MESSAGES,
  type CreditEvaluationView,
  creditUrls,
} from '../../shared/credit/credit-api';
import { equivalencyUrls } from '../../shared/credit/equivalency-api';
import {
  CREDIT_CASE_CEEB,
  CREDIT_CASE_COURSEWORK,
  CREDIT_CASE_TABLE,
} from '../../shared/test/credit-fixtures';
import { loadTenantConfig } from '../config/tenant';
import { createCourseworkUpdatesStore } from '../coursework/coursework-updates-store';
import {
  auditEvents,
  creditReviews,
  creditSummaries,
  equivalencies,
  equivalencyTables,
} from '../db/schema';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { creditApplicant, seedEquivalencyTable } from '../test/credit-helpers';
import { makePdf } from '../test/sample-files';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, sampleTenantFile, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { createCreditService } from './credit-service';
import { createCreditStore } from './credit-store';
import { createEquivalenciesStore } from './equivalencies-store';

const CEEB = CREDIT_CASE_CEEB;
const table = CREDIT_CASE_TABLE;

describe.each(databaseKinds)('transfer credit in the console on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;
  let evaluator: SignedInStaff;
  let counter = 0;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader' });
    evaluator = await signedInStaff(app, { role: 'evaluator' });
    await seedEquivalencyTable(app, CEEB, table);
  });
  afterAll(async () => {
    await app.close();
  });

  async function applicant(submit = true): Promise<string> {
    const email = `credit${++counter}.${kind}@example.edu`;
    return (
      await creditApplicant(app, email, {
        ceeb: CEEB,
        coursework: CREDIT_CASE_COURSEWORK,
        submit,
      })
    ).id;
  }

  const evaluation = async (id: string, who = reader) => {
    const response = await callAs(app, who.cookie, 'GET', creditUrls.evaluation(id));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    return response.json<CreditEvaluationView>();
  };
  const review = (id: string, body: unknown, who = evaluator) =>
    callAs(app, who.cookie, 'PUT', creditUrls.review(id), body);
  const refOf = (view: CreditEvaluationView, subject: string) =>
    view.courses.find((entry) => entry.subject === subject)?.ref as string;
  const summaryOf = async (id: string) => {
    const [row] = await testDatabaseOf(app)
      .select()
      .from(creditSummaries)
      .where(eq(creditSummaries.accountId, id));
    return row;
  };
  async function summaryAfterSubmit(id: string) {
    for (;;) {
      const row = await summaryOf(id);
      if (row) return row;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it('maps each course through the table, counts the mapped share and evaluates requirements', async () => {
    const id = await applicant();
    const view = await evaluation(id);
    expect(view.courses.map((entry) => [entry.subject, entry.mapping.kind, entry.outcome])).toEqual(
      [
        ['MATH', 'course', 'transfers'],
        ['ENGL', 'course', 'transfers'],
        ['COMM', 'course', 'transfers'],
        ['PHIL', 'elective', 'transfers'],
        ['ART', 'needs_review', 'needs_review'],
        ['CHEM', 'course', 'pending'],
      ],
    );
    // 5 of 6 mapped.
    expect(view.summary).toMatchObject({
      courses: 6,
      mapped: 5,
      needs_review: 1,
      mapped_share: '0.83',
    });
    expect(view.totals).toMatchObject({
      transfer_gpa: '3.26',
      transfer_units: '15.00',
      in_progress_units: '5.00',
      credit_units: '13.00',
      pending_credit_units: '5.00',
    });
    const status = Object.fromEntries(view.requirements.map((entry) => [entry.id, entry.status]));
    expect(status).toEqual({
      units_60: 'not_met',
      gpa_2: 'met',
      golden_four: 'met',
      adt: 'not_met',
    });
    expect(view.can_evaluate).toBe(false);
    const summary = await summaryAfterSubmit(id);
    expect(summary).toMatchObject({ courses: 6, mapped: 5, needsReview: 1, colleges: [CEEB] });
    const audited = await testDatabaseOf(app)
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, id), eq(auditEvents.action, 'credit.view')));
    expect(audited).toHaveLength(1);
  });

  it('lets an evaluator verify, correct with a reason and undo; the totals follow', async () => {
    const id = await applicant();
    const before = await evaluation(id, evaluator);
    expect(before.can_evaluate).toBe(true);
    const verified = await review(id, { course_ref: refOf(before, 'MATH'), status: 'verified' });
    expect(verified.statusCode, verified.body).toBe(200);
    // ENGL 1A was a C- on the transcript: (16 + 3 x 1.7 + 6 + 9.9 + 8) / 15 = 45 / 15 = 3.00, and
    // a C- no longer satisfies GE-A2 (the Golden Four asks for a C).
    const corrected = await review(id, {
      course_ref: refOf(before, 'ENGL'),
      status: 'corrected',
      grade: 'c-',
      reason: 'Transcript shows C-',
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    const after = corrected.json<CreditEvaluationView>();
    expect(after.totals.transfer_gpa).toBe('3.00');
    expect(after.requirements.find((entry) => entry.id === 'golden_four')).toMatchObject({
      status: 'not_met',
      reason: 'Missing GE-A2.',
    });
    expect(after.courses.find((entry) => entry.subject === 'ENGL')?.review).toMatchObject({
      status: 'corrected',
      grade: 'C-',
      reason: 'Transcript shows C-',
    });
    // ART 5 mapped by hand: no longer needs review.
    const mapped = await review(id, {
      course_ref: refOf(before, 'ART'),
      status: 'corrected',
      mapping: { kind: 'elective', local_course: 'ART 1XX', local_units: 2 },
      reason: 'Studio art elective',
    });
    expect(mapped.json<CreditEvaluationView>().summary).toMatchObject({
      mapped: 6,
      needs_review: 0,
    });
    expect((await summaryOf(id))?.needsReview).toBe(0);

    const undone = await callAs(
      app,
      evaluator.cookie,
      'DELETE',
      `${creditUrls.review(id)}?course_ref=${encodeURIComponent(refOf(before, 'ENGL'))}`,
    );
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json<CreditEvaluationView>().totals.transfer_gpa).toBe('3.26');
    const actions = await testDatabaseOf(app)
      .select({ action: auditEvents.action, detail: auditEvents.detail })
      .from(auditEvents)
      .where(eq(auditEvents.applicationId, id));
    const reviewed = actions.filter((entry) => entry.action === 'credit.course_reviewed');
    expect(reviewed).toHaveLength(3);
    expect(reviewed[1]?.detail).toMatchObject({
      status: 'corrected',
      grade: { from: 'B', to: 'C-' },
      reason: 'Transcript shows C-',
    });
    expect(actions.some((entry) => entry.action === 'credit.review_undone')).toBe(true);
  });

  it('maps the applications of a college again when its table is imported, and at the sweep', async () => {
    const id = await applicant();
    expect((await summaryAfterSubmit(id)).needsReview).toBe(1);
    const admin = await signedInStaff(app, { role: 'admin' });
    const csv = [
      'sending_ceeb,subject,number,title,units,local_course,local_units,kind,satisfies',
      ...table.map(
        ([subject, number, local, units, mappingKind, satisfies]) =>
          `${CEEB},${subject},${number},${subject} ${number},${units},${local},${units},${mappingKind},${satisfies.join(';')}`,
      ),
      `${CEEB},ART,5,Studio art,2,ART 100,2,course,`,
    ].join('\n');
    const imported = await app.inject({
      method: 'POST',
      url: `${equivalencyUrls.tables}?file_name=broward.csv`,
      headers: { cookie: admin.cookie, 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    // Answered after the college's applications were mapped again.
    expect((await summaryOf(id))?.needsReview).toBe(0);

    // A table imported from the command line leaves summaries stale until the servers' sweep.
    await testDatabaseOf(app)
      .update(equivalencies)
      .set({ kind: 'no_credit', localCourse: '', localUnits: '0' })
      .where(and(eq(equivalencies.sendingCeeb, CEEB), eq(equivalencies.courseKey, 'ART 5')));
    await testDatabaseOf(app)
      .update(equivalencyTables)
      .set({ importedAt: new Date(Date.now() + 1000) })
      .where(eq(equivalencyTables.sendingCeeb, CEEB));
    const service = createCreditService({
      model: applicationModel,
      tenant: await loadTenantConfig(sampleTenantFile),
      store: createCreditStore(testDatabaseOf(app)),
      coursework: createCourseworkUpdatesStore(testDatabaseOf(app)),
      equivalencies: createEquivalenciesStore(testDatabaseOf(app)),
    });
    expect(await service.refreshOutdated()).toBeGreaterThanOrEqual(1);
    const after = await evaluation(id);
    expect(after.courses.find((entry) => entry.subject === 'ART')?.mapping.kind).toBe('no_credit');
    expect(await service.refreshOutdated()).toBe(0);
  });

  it('refuses bad reviews and changes nothing', async () => {
    const id = await applicant();
    const ref = refOf(await evaluation(id), 'MATH');
    const cases: Array<[unknown, number, string | RegExp]> = [
      [{ course_ref: ref, status: 'corrected', grade: 'B' }, 400, CREDIT_MESSAGES.reasonRequired],
      [{ course_ref: ref, status: 'corrected', reason: 'x' }, 400, CREDIT_MESSAGES.correctionEmpty],
      [
        { course_ref: ref, status: 'corrected', grade: 'Q', reason: 'x' },
        400,
        CREDIT_MESSAGES.grade,
      ],
      [
        { course_ref: ref, status: 'corrected', units: 31, reason: 'x' },
        400,
        CREDIT_MESSAGES.units,
      ],
      [
        { course_ref: ref, status: 'corrected', units: '4', reason: 'x' },
        400,
        CREDIT_MESSAGES.units,
      ],
      [
        { course_ref: 'college_coursework:fall-2024:NOPE 1', status: 'verified' },
        400,
        CREDIT_MESSAGES.unknownCourse,
      ],
      [{ course_ref: ref, status: 'approved' }, 400, /status/],
      [{ course_ref: ref, status: 'verified', extra: 1 }, 400, /extra|Unrecognized/i],
      [{ course_ref: ref, status: 'corrected', grade: 'B', reason: 'a\u0000b' }, 400, /./],
      [{ course_ref: ref, status: 'corrected', grade: 'B', reason: '\ud800' }, 400, /./],
    ];
    for (const [body, status, message] of cases) {
      const response = await review(id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.body).toMatch(message);
    }
    const malformed = await app.inject({
      method: 'PUT',
      url: creditUrls.review(id),
      headers: { cookie: evaluator.cookie, 'content-type': 'application/json' },
      payload: '{"course_ref":',
    });
    expect(malformed.statusCode).toBe(400);
    const stored = await testDatabaseOf(app)
      .select()
      .from(creditReviews)
      .where(eq(creditReviews.accountId, id));
    expect(stored).toEqual([]);
  });

  it('lets only an evaluator review or attach, and only for a submitted application', async () => {
    const id = await applicant();
    const ref = refOf(await evaluation(id), 'MATH');
    const asReader = await review(id, { course_ref: ref, status: 'verified' }, reader);
    expect(asReader.statusCode).toBe(403);
    const draft = await applicant(false);
    const unsubmitted = await callAs(app, reader.cookie, 'GET', creditUrls.evaluation(draft));
    expect(unsubmitted.statusCode).toBe(409);
    const unknown = await callAs(
      app,
      reader.cookie,
      'GET',
      creditUrls.evaluation('00000000-0000-4000-8000-000000000000'),
    );
    expect(unknown.statusCode).toBe(404);
    const applicantCookie = await signedInApplicant(app, `credit-nosy.${kind}@example.edu`);
    const asApplicant = await callAs(app, applicantCookie, 'GET', creditUrls.evaluation(id));
    expect(asApplicant.statusCode).toBe(401);
  });

  it('attaches a college transcript as a rebuilt PDF and serves it, audited', async () => {
    const id = await applicant();
    const url = `${creditUrls.transcript(id, 'college_coursework')}?file_name=broward.pdf`;
    const attach = (payload: Uint8Array | string, who = evaluator, type = 'application/pdf') =>
      app.inject({
        method: 'POST',
        url,
        headers: { cookie: who.cookie, 'content-type': type },
        payload: Buffer.from(payload),
      });
    expect((await attach('not a pdf at all')).statusCode).toBe(400);
    const wrongType = await attach('%PDF-1.7 as text', evaluator, 'text/plain');
    expect(wrongType.statusCode, wrongType.body).toBe(415);
    expect((await attach(await makePdf(), reader)).statusCode).toBe(403);
    const attached = await attach(await makePdf([['Broward College official transcript']]));
    expect(attached.statusCode, attached.body).toBe(200);
    expect(attached.json<CreditEvaluationView>().transcripts).toEqual([
      {
        grid_key: 'college_coursework',
        file_name: 'broward.pdf',
        pdf_url: `${creditUrls.transcript(id, 'college_coursework')}/pdf`,
      },
    ]);
    const other = await app.inject({
      method: 'POST',
      url: creditUrls.transcript(id, 'college_3_coursework'),
      headers: { cookie: evaluator.cookie, 'content-type': 'application/pdf' },
      payload: Buffer.from(await makePdf()),
    });
    expect(other.statusCode).toBe(404);
    const pdf = await callAs(
      app,
      reader.cookie,
      'GET',
      `${creditUrls.transcript(id, 'college_coursework')}/pdf`,
    );
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['cache-control']).toBe('private, no-store');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The office has the college's official transcript: its checklist item is received.
    const detail = await callAs(app, reader.cookie, 'GET', `/staff/api/applications/${id}`);
    const items = detail.json<{ checklist: { items: Array<{ key: string; state: string }> } }>()
      .checklist.items;
    expect(items.find((item) => item.key === 'transcript:1')?.state).toBe('received');
    const viewed = await testDatabaseOf(app)
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(
        and(eq(auditEvents.applicationId, id), eq(auditEvents.action, 'credit.transcript_view')),
      );
    expect(viewed).toHaveLength(1);
  });
});
