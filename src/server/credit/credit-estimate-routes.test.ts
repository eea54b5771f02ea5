import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECISION_URL, STATUS_URL } from '../../shared/api/status';
import {
  type ApplicantRequirements,
  CREDIT_ESTIMATE_PDF_URL,
  CREDIT_ESTIMATE_URL,
  CREDIT_MESSAGES,
  CREDIT_REQUIREMENTS_URL,
  type CreditEvaluationView,
  creditUrls,
  ESTIMATE_NOTICE,
  type ReleasedEstimate,
} from '../../shared/credit/credit-api';
import {
  CREDIT_CASE_CEEB,
  CREDIT_CASE_COURSEWORK,
  CREDIT_CASE_TABLE,
} from '../../shared/test/credit-fixtures';
import { auditEvents, creditEstimates } from '../db/schema';
import type { OutboxEntry } from '../mail/mailer';
import { callAs, waitForMail } from '../test/accounts-helpers';
import {
  type CreditApplicant,
  creditApplicant,
  seedEquivalencyTable,
} from '../test/credit-helpers';
import { extractPdfText } from '../test/pdf-text';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, devToolsPath, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { ESTIMATE_MAIL_SUBJECT } from './credit-estimates';

const CEEB = CREDIT_CASE_CEEB;

/** Words only a released estimate may carry. */
const ESTIMATE_WORDS = [/MATH 150/, /estimate/i];

describe.each(databaseKinds)('the credit estimate on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;
  let evaluator: SignedInStaff;
  let counter = 0;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader' });
    evaluator = await signedInStaff(app, { role: 'evaluator' });
    await seedEquivalencyTable(app, CEEB, CREDIT_CASE_TABLE);
  });
  afterAll(async () => {
    await app.close();
  });

  async function applicant(
    options: { submit?: boolean; lastName?: string; coursework?: boolean } = {},
  ): Promise<CreditApplicant> {
    return creditApplicant(app, `learner${++counter}.${kind}@example.edu`, {
      ceeb: CEEB,
      coursework:
        options.coursework === false ? { system: 'semester', terms: [] } : CREDIT_CASE_COURSEWORK,
      answers: options.lastName ? { last_name: options.lastName } : {},
      submit: options.submit,
    });
  }

  const release = (id: string, who = evaluator) =>
    callAs(app, who.cookie, 'POST', creditUrls.release(id));
  const allMail = async (to: string) =>
    ((await app.inject(devToolsPath('/dev/mail.json'))).json() as OutboxEntry[]).filter(
      (mail) => mail.to === to,
    );
  const estimateMails = async (to: string) =>
    (await allMail(to)).filter((mail) => mail.subject === ESTIMATE_MAIL_SUBJECT);
  const released = async (who: CreditApplicant) => {
    const response = await callAs(app, who.cookie, 'GET', CREDIT_ESTIMATE_URL);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return response.json<ReleasedEstimate | null>();
  };
  const requirements = async (who: CreditApplicant) => {
    const response = await callAs(app, who.cookie, 'GET', CREDIT_REQUIREMENTS_URL);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ApplicantRequirements>().requirements;
  };
  const refOf = async (id: string, subject: string) => {
    const view = (
      await callAs(app, evaluator.cookie, 'GET', creditUrls.evaluation(id))
    ).json<CreditEvaluationView>();
    return view.courses.find((entry) => entry.subject === subject)?.ref as string;
  };
  const estimateRows = (ids: string[]) =>
    testDatabaseOf(app)
      .select({ id: creditEstimates.accountId })
      .from(creditEstimates)
      .where(inArray(creditEstimates.accountId, ids));

  it('shows nothing of the estimate before release, then the snapshot, its PDF and one mail', async () => {
    const who = await applicant();
    // An evaluator's correction before release: ENGL 1A was a C- (the Golden Four asks for a C).
    const corrected = await callAs(app, evaluator.cookie, 'PUT', creditUrls.review(who.id), {
      course_ref: await refOf(who.id, 'ENGL'),
      status: 'corrected',
      grade: 'C-',
      reason: 'Transcript shows C-',
    });
    expect(corrected.statusCode, corrected.body).toBe(200);

    expect(await released(who)).toBeNull();
    const missing = await callAs(app, who.cookie, 'GET', CREDIT_ESTIMATE_PDF_URL);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: CREDIT_MESSAGES.noEstimate });
    for (const url of [STATUS_URL, '/api/profile', DECISION_URL]) {
      const response = await callAs(app, who.cookie, 'GET', url);
      expect(response.statusCode, url).toBe(200);
      for (const words of ESTIMATE_WORDS) expect(response.body, url).not.toMatch(words);
    }
    // The requirements are the applicant's own entries: the correction is not among them.
    const shown = await requirements(who);
    expect(shown.map((entry) => entry.id)).toEqual(['units_60', 'gpa_2', 'golden_four', 'adt']);
    expect(shown.every((entry) => entry.show_to_applicant)).toBe(true);
    expect(shown.find((entry) => entry.id === 'golden_four')?.status).toBe('met');
    expect(JSON.stringify(shown)).not.toMatch(/C-|Transcript shows/);
    await waitForMail(app, who.email, /./);
    for (const mail of await allMail(who.email))
      for (const words of ESTIMATE_WORDS) expect(`${mail.subject} ${mail.text}`).not.toMatch(words);

    const response = await release(who.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const body = response.json<{ released_at: string; released_by: string }>();
    expect(body.released_by).toMatch(/\S/);

    const snapshot = await released(who);
    expect(snapshot?.released_at).toBe(body.released_at);
    // Released, the evaluation is the evaluator's: the correction counts.
    expect(
      snapshot?.evaluation.requirements.find((entry) => entry.id === 'golden_four')?.status,
    ).toBe('not_met');
    expect(snapshot?.evaluation.courses.map((entry) => entry.mapping.local_course)).toContain(
      'MATH 150',
    );
    const pdf = await callAs(app, who.cookie, 'GET', CREDIT_ESTIMATE_PDF_URL);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['cache-control']).toBe('private, no-store');
    const text = await extractPdfText(new Uint8Array(pdf.rawPayload));
    expect(text).toContain(ESTIMATE_NOTICE);
    for (const words of ['MATH 1A', 'MATH 150', 'ENGL 100', 'PHIL 1XX', 'Needs review', 'Maria'])
      expect(text).toContain(words);
    expect(text).toContain('Transfers when completed');

    await waitForMail(app, who.email, new RegExp(ESTIMATE_MAIL_SUBJECT));
    const mails = await estimateMails(who.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).not.toMatch(/MATH|units|GPA/);
    const audited = await testDatabaseOf(app)
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.applicationId, who.id),
          eq(auditEvents.action, 'credit.estimate_released'),
        ),
      );
    expect(audited).toHaveLength(1);
  });

  it('keeps the released snapshot until it is released again', async () => {
    const who = await applicant();
    expect((await release(who.id)).statusCode).toBe(200);
    const first = await released(who);
    const ref = await refOf(who.id, 'ART');
    const mapped = await callAs(app, evaluator.cookie, 'PUT', creditUrls.review(who.id), {
      course_ref: ref,
      status: 'corrected',
      mapping: { kind: 'elective', local_course: 'ART 1XX', local_units: 2 },
      reason: 'Studio art elective',
    });
    expect(mapped.statusCode, mapped.body).toBe(200);
    expect(await released(who)).toEqual(first);
    const pdf = await extractPdfText(
      new Uint8Array((await callAs(app, who.cookie, 'GET', CREDIT_ESTIMATE_PDF_URL)).rawPayload),
    );
    expect(pdf).not.toContain('ART 1XX');
    // The staff preview shows it as it would be released now.
    const preview = await callAs(app, reader.cookie, 'GET', creditUrls.preview(who.id));
    expect(preview.statusCode).toBe(200);
    expect(await extractPdfText(new Uint8Array(preview.rawPayload))).toContain('ART 1XX');

    expect((await release(who.id)).statusCode).toBe(200);
    const again = await released(who);
    expect(again?.evaluation.courses.find((entry) => entry.subject === 'ART')?.outcome).toBe(
      'transfers',
    );
    await waitForMail(app, who.email, new RegExp(ESTIMATE_MAIL_SUBJECT), 1);
    expect(await estimateMails(who.email)).toHaveLength(2);
  });

  it('refuses readers, unsubmitted, unknown and empty applications', async () => {
    const who = await applicant();
    expect((await release(who.id, reader)).statusCode).toBe(403);
    const batch = await callAs(app, reader.cookie, 'POST', creditUrls.batchRelease, { query: '' });
    expect(batch.statusCode).toBe(403);
    const draft = await applicant({ submit: false });
    const unsubmitted = await release(draft.id);
    expect(unsubmitted.statusCode).toBe(409);
    expect(unsubmitted.json().message).toBe(CREDIT_MESSAGES.notSubmitted);
    expect(await requirements(draft)).toEqual([]);
    expect((await release('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const empty = await applicant({ coursework: false });
    const nothing = await release(empty.id);
    expect(nothing.statusCode, nothing.body).toBe(400);
    expect(nothing.json().message).toBe(CREDIT_MESSAGES.estimateNothing);
    expect(await requirements(empty)).toEqual([]);
    const applicantCall = await callAs(app, who.cookie, 'POST', creditUrls.release(who.id));
    expect(applicantCall.statusCode).toBe(401);
    expect(await estimateRows([who.id, draft.id, empty.id])).toEqual([]);
  });

  it('releases the estimates of exactly the submitted applications of a filter', async () => {
    const tag = `Batchrelease${kind}`;
    const first = await applicant({ lastName: tag });
    const second = await applicant({ lastName: tag });
    const draft = await applicant({ lastName: tag, submit: false });
    const other = await applicant();
    const query = `q=${tag}`;
    const response = await callAs(app, evaluator.cookie, 'POST', creditUrls.batchRelease, {
      query,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ count: 2, skipped: 0 });
    const rows = await estimateRows([first.id, second.id, draft.id, other.id]);
    expect(rows.map((row) => row.id).sort()).toEqual([first.id, second.id].sort());
    const audited = await testDatabaseOf(app)
      .select({ id: auditEvents.applicationId })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'credit.estimate_released'),
          inArray(auditEvents.applicationId, [first.id, second.id, draft.id, other.id]),
        ),
      );
    expect(audited.map((row) => row.id).sort()).toEqual([first.id, second.id].sort());
    await waitForMail(app, second.email, new RegExp(ESTIMATE_MAIL_SUBJECT));
    expect(await estimateMails(first.email)).toHaveLength(1);
    expect(await estimateMails(draft.email)).toHaveLength(0);
    expect(await released(draft)).toBeNull();

    const none = await callAs(app, evaluator.cookie, 'POST', creditUrls.batchRelease, {
      query: 'q=Nobodyatallhere',
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(CREDIT_MESSAGES.batchEmpty);
  });

  it('refuses bad batch input and changes nothing', async () => {
    const tag = `Badbatch${kind}`;
    const who = await applicant({ lastName: tag });
    const cases: unknown[] = [
      { query: `q=${tag}`, extra: 1 },
      { query: `q=${tag}&${'x'.repeat(2000)}` },
      { query: `q=${tag}\u0000` },
      { query: `q=${tag}&page=2` },
      { query: 42 },
      {},
    ];
    for (const body of cases) {
      const response = await callAs(app, evaluator.cookie, 'POST', creditUrls.batchRelease, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const bad = await callAs(app, evaluator.cookie, 'POST', creditUrls.release('not-an-id'));
    expect(bad.statusCode).toBe(400);
    expect(await estimateRows([who.id])).toEqual([]);
    expect(await estimateMails(who.email)).toHaveLength(0);
  });
});
