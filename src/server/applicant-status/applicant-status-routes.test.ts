import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALREADY_SUBMITTED_MESSAGE } from '../../shared/api/application-messages';
import { type ApplicantStatus, applicantStatusSchema, STATUS_URL } from '../../shared/api/status';
import type { Answers } from '../../shared/form/model';
import { fixtureModel } from '../../shared/test/fixture-model';
import { createChecklistService } from '../checklist/checklist-service';
import { accounts, applications, checklistMarks, documentAnswers } from '../db/schema';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { multipart, uploadDocument } from '../test/document-helpers';
import { makePng } from '../test/sample-files';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { STATUS_HOW } from './applicant-status';

const KEY = 'statement_doc';
const UPLOAD_TAB = { statement_tabs: 'upload' };

describe.each(databaseKinds)('the applicant status and uploads after submit on %s', (kind) => {
  let app: FastifyInstance;
  let counter = 0;

  async function applicant(): Promise<{ cookie: string; accountId: string; email: string }> {
    const email = `status${++counter}.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    const [row] = await testDatabaseOf(app)
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    return { cookie, accountId: row?.id as string, email };
  }

  /** Submits as the submit route leaves it: answers and tabs final, submitted_at set. */
  async function submit(
    accountId: string,
    state: { answers?: Answers; tabs?: Record<string, string> } = {},
  ) {
    const values = {
      answers: state.answers ?? { first_name: 'Maria' },
      tabs: state.tabs ?? UPLOAD_TAB,
      submittedAt: sql`now()`,
    };
    await testDatabaseOf(app)
      .insert(applications)
      .values({ accountId, ...values })
      .onConflictDoUpdate({
        target: applications.accountId,
        set: { tabs: values.tabs, submittedAt: values.submittedAt },
      });
  }

  async function statusOf(cookie: string): Promise<ApplicantStatus> {
    const response = await callAs(app, cookie, 'GET', STATUS_URL);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return applicantStatusSchema.parse(response.json());
  }

  async function applicationRow(accountId: string) {
    const [row] = await testDatabaseOf(app)
      .select({
        answers: applications.answers,
        tabs: applications.tabs,
        addAnother: applications.addAnother,
        updatedAt: sql<string>`${applications.updatedAt}::text`,
      })
      .from(applications)
      .where(eq(applications.accountId, accountId));
    return row;
  }

  const presign = (cookie: string, answerKey = KEY) =>
    callAs(app, cookie, 'POST', '/api/presigned-url', { answer_key: answerKey });

  beforeAll(async () => {
    app = await buildTestApp(kind, { model: fixtureModel });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers only a signed-in applicant', async () => {
    expect((await app.inject({ method: 'GET', url: STATUS_URL })).statusCode).toBe(401);
    const { cookie } = await applicant();
    const status = await statusOf(cookie);
    expect(status.submitted).toBe(false);
    // Before submit the form is where documents go.
    expect(status.items.every((item) => item.upload_answer_key === null)).toBe(true);
  });

  it('lists the checklist as the applicant sees it, with what they can do about each item', async () => {
    const { cookie, accountId } = await applicant();
    await submit(accountId);
    const status = await statusOf(cookie);
    expect(status.submitted).toBe(true);
    expect(status.missing).toBe(2);
    expect(status.items).toEqual([
      {
        key: `document:${KEY}`,
        label: 'Statement document',
        state: 'awaiting',
        provider: 'applicant',
        upload_answer_key: KEY,
        how: STATUS_HOW.upload,
      },
      {
        key: 'fee',
        label: 'Application fee',
        state: 'awaiting',
        provider: 'applicant',
        upload_answer_key: null,
        how: 'Pay the application fee at https://pay.northfield.example.edu/application-fee.',
      },
    ]);
  });

  it('follows a staff mark at once', async () => {
    const { cookie, accountId } = await applicant();
    await submit(accountId);
    const checklist = createChecklistService({
      db: testDatabaseOf(app),
      model: fixtureModel,
      tenant: { checklist_items: [] },
    });
    await checklist.mark(accountId, 'fee', 'received', { id: accountId, label: 'Reader' });
    const fee = (await statusOf(cookie)).items.find((item) => item.key === 'fee');
    expect(fee).toMatchObject({ state: 'received', how: '' });
  });

  it('takes an awaited document after submit without touching the submitted application', async () => {
    const { cookie, accountId } = await applicant();
    await submit(accountId, { answers: { first_name: 'Maria', [KEY]: '' } });
    const before = await applicationRow(accountId);

    const settled = await uploadDocument(
      app,
      cookie,
      KEY,
      makePng({ width: 30, height: 20 }),
      'late.png',
    );
    expect(settled.status).toBe('COMPLETED');

    expect(await applicationRow(accountId)).toEqual(before);
    const [row] = await testDatabaseOf(app)
      .select({ received: documentAnswers.receivedAfterSubmitAt })
      .from(documentAnswers)
      .where(eq(documentAnswers.accountId, accountId));
    expect(row?.received).toBeInstanceOf(Date);

    const item = (await statusOf(cookie)).items.find((entry) => entry.key === `document:${KEY}`);
    expect(item).toMatchObject({ state: 'received', upload_answer_key: null, how: '' });

    // Received now: neither replaced nor deleted.
    const again = await presign(cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ALREADY_SUBMITTED_MESSAGE);
    expect((await callAs(app, cookie, 'DELETE', `/api/document-answer/${KEY}`)).statusCode).toBe(
      409,
    );
    expect(
      (await callAs(app, cookie, 'DELETE', `/api/pdf/document-answer/${KEY}`)).statusCode,
    ).toBe(409);

    // Staff ask for it again: the document the office received is still never replaced.
    const checklist = createChecklistService({
      db: testDatabaseOf(app),
      model: fixtureModel,
      tenant: { checklist_items: [] },
    });
    await checklist.mark(accountId, `document:${KEY}`, 'awaiting', {
      id: accountId,
      label: 'Reader',
    });
    expect((await presign(cookie)).statusCode).toBe(409);
  });

  it('refuses a document that was submitted, even when staff ask for it again', async () => {
    const { cookie, accountId } = await applicant();
    await testDatabaseOf(app)
      .insert(applications)
      .values({ accountId, tabs: UPLOAD_TAB })
      .onConflictDoUpdate({ target: applications.accountId, set: { tabs: UPLOAD_TAB } });
    const first = await uploadDocument(
      app,
      cookie,
      KEY,
      makePng({ width: 20, height: 20 }),
      'a.png',
    );
    expect(first.status).toBe('COMPLETED');
    await testDatabaseOf(app)
      .update(applications)
      .set({ submittedAt: sql`now()` })
      .where(eq(applications.accountId, accountId));
    await testDatabaseOf(app)
      .insert(checklistMarks)
      .values({
        accountId,
        itemKey: `document:${KEY}`,
        state: 'awaiting',
        setByType: 'staff',
        setAt: sql`now() + interval '1 minute'`,
      });
    const status = await statusOf(cookie);
    const item = status.items.find((entry) => entry.key === `document:${KEY}`);
    expect(item).toMatchObject({ state: 'awaiting', upload_answer_key: null });
    expect(item?.how).toMatch(/^Contact the admissions office at /);
    expect((await presign(cookie)).statusCode).toBe(409);
  });

  it('refuses keys that are no awaited document of the checklist', async () => {
    const { cookie, accountId } = await applicant();
    // The statement is written: its upload question is hidden, so no checklist item.
    await submit(accountId, { tabs: { statement_tabs: 'write' } });
    expect((await presign(cookie)).statusCode).toBe(409);
    const notFile = await presign(cookie, 'first_name');
    expect(notFile.statusCode).toBe(400);
  });

  it("refuses to start a conversion from another applicant's upload key", async () => {
    const owner = await applicant();
    const other = await applicant();
    await submit(owner.accountId);
    await submit(other.accountId);
    const presigned = await presign(owner.cookie);
    expect(presigned.statusCode).toBe(200);
    const { url, fields } = presigned.json() as { url: string; fields: Record<string, string> };
    const png = makePng({ width: 10, height: 10 });
    expect((await app.inject({ method: 'POST', url, ...multipart(fields, png) })).statusCode).toBe(
      204,
    );
    const stolen = await callAs(app, other.cookie, 'POST', `/api/pdf/document-answer/${KEY}`, {
      file_key: fields.key,
      file_name: 'x.png',
    });
    expect(stolen.statusCode).toBe(404);
    const rows = await testDatabaseOf(app)
      .select()
      .from(documentAnswers)
      .where(eq(documentAnswers.accountId, other.accountId));
    expect(rows).toEqual([]);
  });

  it('refuses to start a late conversion once the item is no longer awaited', async () => {
    const { cookie, accountId } = await applicant();
    await submit(accountId);
    const presigned = await presign(cookie);
    expect(presigned.statusCode).toBe(200);
    const { url, fields } = presigned.json() as { url: string; fields: Record<string, string> };
    await app.inject({
      method: 'POST',
      url,
      ...multipart(fields, makePng({ width: 8, height: 8 })),
    });
    // Staff waive it between the upload form and the conversion.
    await testDatabaseOf(app)
      .insert(checklistMarks)
      .values({
        accountId,
        itemKey: `document:${KEY}`,
        state: 'waived',
        setByType: 'staff',
      });
    const started = await callAs(app, cookie, 'POST', `/api/pdf/document-answer/${KEY}`, {
      file_key: fields.key,
      file_name: 'late.png',
    });
    expect(started.statusCode).toBe(409);
  });
});
