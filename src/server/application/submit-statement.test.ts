import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answers } from '../../shared/form/model';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { createSessions } from '../accounts/sessions';
import { rowsOf } from '../db/database';
import { applicationReceipts, applications, receiptSequences, webStatuses } from '../db/schema';
import { confirmationNumber } from '../receipts/confirmation-number';
import type { ReceiptDraft } from '../receipts/receipts-service';
import { confirmationNumberSql } from '../receipts/receipts-store';
import { callAs, sessionTokenOf, signedInApplicant } from '../test/accounts-helpers';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { createApplicationsStore } from './applications-store';

const NO_COURSEWORK = { gpa: null, transferUnits: '0.00', inProgressUnits: '0.00' };

describe.each(databaseKinds)('the submit statement on %s', (kind) => {
  let app: FastifyInstance;
  let counter = 0;
  const db = () => testDatabaseOf(app);
  const sessions = () =>
    createSessions(db(), { idleMs: 900_000, absoluteMs: 3_600_000, secureCookies: false });

  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  it('writes the same confirmation numbers as confirmationNumber, past six digits too', async () => {
    for (const sequence of [1, 123, 999_999, 1_234_567]) {
      const [row] = rowsOf<{ number: string }>(
        await db().execute(
          sql`select ${confirmationNumberSql(sql`'NSU'`, sql`'FA26'`, sql`${sequence}::int`)} as number`,
        ),
      );
      expect(row?.number).toBe(confirmationNumber('NSU', 'FA26', sequence));
    }
  });

  it('applies only to the application as it was read, and then once', async () => {
    const cookie = await signedInApplicant(app, `statement${++counter}.${kind}@example.edu`);
    expect(
      (await callAs(app, cookie, 'PUT', '/api/answer', validApplicationAnswers())).statusCode,
    ).toBe(200);
    const store = createApplicationsStore(db());
    const submitOne = async (
      accountId: string,
      version: string,
      answers: Answers,
      draft: ReceiptDraft,
    ) =>
      (await store.submit([{ accountId, version, answers, draft, coursework: NO_COURSEWORK }])).get(
        accountId,
      ) ?? null;
    const read = await store.readForSubmit(sessions(), sessionTokenOf(cookie));
    const application = read?.application;
    if (!read || !application) throw new Error('nothing read for submit');
    expect(application.submitted).toBe(false);
    expect(read.email).toBe(`statement${counter}.${kind}@example.edu`);

    // Another tab saves between the read and the statement: the statement does nothing.
    expect(
      (await callAs(app, cookie, 'PUT', '/api/answer', { middle_name: 'Ana' })).statusCode,
    ).toBe(200);
    const draft = { prefix: 'APP', cycle: 'ZZ99', fingerprint: 'f'.repeat(64), documents: {} };
    expect(
      await submitOne(read.accountId, application.version, application.answers, draft),
    ).toBeNull();
    const stale = await db()
      .select()
      .from(applications)
      .where(eq(applications.accountId, read.accountId));
    expect(stale[0]?.submittedAt).toBeNull();
    expect(stale[0]?.answers.middle_name).toBe('Ana');

    // Read again, it applies: answers, statuses, the list's status, the receipt and its number.
    const again = await store.readForSubmit(sessions(), sessionTokenOf(cookie));
    if (!again?.application) throw new Error('nothing read for submit');
    const submitted = await submitOne(
      again.accountId,
      again.application.version,
      again.application.answers,
      draft,
    );
    expect(submitted?.receipt).toEqual({ number: 'APP-ZZ99-000001', sequence: 1 });
    const [row] = await db()
      .select()
      .from(applications)
      .where(eq(applications.accountId, again.accountId));
    expect(row?.submittedAt).toEqual(submitted?.submittedAt);
    expect(row?.listStatus).toBe(2);
    const statuses = await db()
      .select()
      .from(webStatuses)
      .where(eq(webStatuses.accountId, again.accountId));
    expect(statuses.map((status) => status.webStatus).sort()).toEqual([
      'started',
      'submitted',
      'validating',
    ]);
    const [receipt] = await db()
      .select()
      .from(applicationReceipts)
      .where(eq(applicationReceipts.accountId, again.accountId));
    expect(receipt?.submittedAt).toEqual(row?.submittedAt);
    expect(receipt?.fingerprint).toBe(draft.fingerprint);

    // Once: the same version again changes nothing and takes no number.
    expect(
      await submitOne(again.accountId, again.application.version, again.application.answers, draft),
    ).toBeNull();
    const [sequence] = await db()
      .select()
      .from(receiptSequences)
      .where(eq(receiptSequences.cycle, 'ZZ99'));
    expect(sequence?.last).toBe(1);
  });

  it('numbers several submits of one statement in order, leaving out one read before a change', async () => {
    const store = createApplicationsStore(db());
    const reads = [];
    for (let i = 0; i < 4; i++) {
      const cookie = await signedInApplicant(app, `batch${++counter}.${kind}@example.edu`);
      await callAs(app, cookie, 'PUT', '/api/answer', validApplicationAnswers());
      const read = await store.readForSubmit(sessions(), sessionTokenOf(cookie));
      if (!read?.application) throw new Error('nothing read for submit');
      reads.push({ read, application: read.application, cookie });
    }
    const stale = reads[2];
    if (!stale) throw new Error('no third applicant');
    await callAs(app, stale.cookie, 'PUT', '/api/answer', { middle_name: 'Changed' });
    const draft = { prefix: 'APP', cycle: 'YY98', fingerprint: 'e'.repeat(64), documents: {} };
    const outcomes = await store.submit(
      reads.map(({ read, application }) => ({
        accountId: read.accountId,
        version: application.version,
        answers: application.answers,
        draft,
        coursework: NO_COURSEWORK,
      })),
    );
    expect(reads.map(({ read }) => outcomes.get(read.accountId)?.receipt?.number ?? null)).toEqual([
      'APP-YY98-000001',
      'APP-YY98-000002',
      null,
      'APP-YY98-000003',
    ]);
    const [sequence] = await db()
      .select()
      .from(receiptSequences)
      .where(eq(receiptSequences.cycle, 'YY98'));
    expect(sequence?.last).toBe(3);
  });
});
