import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALREADY_SUBMITTED_MESSAGE } from '../../shared/api/application-messages';
import { APPLICATION_PDF_URL, type ApplicationPdfStatus } from '../../shared/api/application-pdf';
import { RECEIPT_URL, type Receipt, receiptSchema } from '../../shared/api/status';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { accounts, applicationReceipts, documentAnswers } from '../db/schema';
import { createConversionJobs } from '../documents/conversion-jobs';
import { localDiskStorage } from '../storage/local-disk';
import { newObjectKey } from '../storage/storage';
import {
  callAs,
  codeFrom,
  cookieHeader,
  STRONG_PASSWORD,
  waitForMail,
} from '../test/accounts-helpers';
import { multipart, uploadDocument } from '../test/document-helpers';
import { extractPdfPages } from '../test/pdf-text';
import { makePdf } from '../test/sample-files';
import { signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { CONFIRMATION_NUMBER, cycleOf } from './confirmation-number';
import { fingerprintOf, sha256Hex } from './receipt-fingerprint';

const SECRET = 'test-upload-secret-of-at-least-32-characters';
async function eventually<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
const VERIFY = (id: string) => `/staff/api/applications/${id}/receipt/verify`;

describe.each(databaseKinds)('receipts at submit on %s', (kind) => {
  let app: FastifyInstance;
  let dataDir: string;
  let counter = 0;
  const storage = () => localDiskStorage({ root: path.join(dataDir, 'uploads'), secret: SECRET });
  const db = () => testDatabaseOf(app);

  async function applicant() {
    const email = `receipt${++counter}.${kind}@example.edu`;
    // Each from an address of its own: more than 20 sign-ups from one would be rate limited.
    const remoteAddress = `10.0.${Math.floor(counter / 200)}.${counter % 200}`;
    const send = (url: string, payload: object) =>
      app.inject({ method: 'POST', url, payload, remoteAddress });
    await send('/public/signup', { username: email, password: STRONG_PASSWORD });
    // Mail may wait behind the application PDFs other submits queued: poll with patience.
    const mail = await eventually(() => waitForMail(app, email, /confirmation code/));
    await send('/public/confirm', { username: email, code: codeFrom(mail) });
    const cookie = cookieHeader(
      await send('/public/login', { username: email, password: STRONG_PASSWORD }),
    );
    const saved = await callAs(app, cookie, 'PUT', '/api/answer', validApplicationAnswers());
    expect(saved.statusCode, saved.body).toBe(200);
    const [row] = await db()
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    return { email, cookie, id: row?.id as string };
  }
  const receiptOf = async (cookie: string) => {
    const response = await callAs(app, cookie, 'GET', RECEIPT_URL);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('no-store');
    return response.json() as Receipt | null;
  };
  const submit = (cookie: string) => callAs(app, cookie, 'POST', '/api/submit');
  const pdfKeyOf = async (accountId: string, answerKey: string) => {
    const [row] = await db()
      .select({ pdfKey: documentAnswers.pdfKey })
      .from(documentAnswers)
      .where(
        sql`${documentAnswers.accountId} = ${accountId} and ${documentAnswers.answerKey} = ${answerKey}`,
      );
    return row?.pdfKey as string;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-receipts-'));
    app = await buildTestApp(kind, { env: { DATA_DIR: dataDir, UPLOAD_SIGNING_SECRET: SECRET } });
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('numbers 20 concurrent submits uniquely and without gaps', async () => {
    const applicants = [];
    for (let i = 0; i < 20; i++) applicants.push(await applicant());
    const submits = await Promise.all(applicants.map(({ cookie }) => submit(cookie)));
    expect(submits.map((response) => response.statusCode)).toEqual(Array(20).fill(200));

    const receipts = await Promise.all(applicants.map(({ cookie }) => receiptOf(cookie)));
    const numbers = receipts.map((receipt) => receiptSchema.parse(receipt).number);
    expect(new Set(numbers).size).toBe(20);
    const cycle = cycleOf(validApplicationAnswers().entry_term, new Date().getUTCFullYear());
    for (const number of numbers) {
      expect(number).toMatch(CONFIRMATION_NUMBER);
      expect(number.startsWith(`APP-${cycle}-`)).toBe(true);
    }
    const sequences = numbers.map((number) => Number(number.split('-')[2])).sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    const rows = await db().select().from(applicationReceipts);
    expect(rows.map((row) => row.sequence).sort((a, b) => a - b)).toEqual(sequences);
  });

  it('answers null before submit; after it the receipt, mailed, printed, shown to staff, verifiable', async () => {
    const { email, cookie, id } = await applicant();
    const transcript = await makePdf([['Official transcript of Ana']]);
    const uploaded = await uploadDocument(
      app,
      cookie,
      'hs_transcript',
      transcript,
      'transcript.pdf',
    );
    expect(uploaded.status).toBe('COMPLETED');
    expect(await receiptOf(cookie)).toBeNull();
    const staff = await signedInStaff(app, { role: 'reader' });
    expect(
      (await app.inject({ url: VERIFY(id), headers: { cookie: staff.cookie } })).statusCode,
    ).toBe(404);

    expect((await submit(cookie)).statusCode).toBe(200);
    const receipt = receiptSchema.parse(await receiptOf(cookie));
    expect(receipt.number).toMatch(CONFIRMATION_NUMBER);

    // The fingerprint is the documented serialisation of what is stored, documents by PDF hash.
    const profile = (await callAs(app, cookie, 'GET', '/api/profile')).json();
    const tabs = (await callAs(app, cookie, 'GET', '/api/tabs')).json();
    const addAnother = (await callAs(app, cookie, 'GET', '/api/add-another')).json();
    const pdfKey = await pdfKeyOf(id, 'hs_transcript');
    const pdfBytes = (await storage().get(pdfKey)) as Uint8Array;
    const documents = { hs_transcript: sha256Hex(pdfBytes) };
    expect(receipt.fingerprint).toBe(
      fingerprintOf({ answers: profile.answer, tabs, addAnother, documents }),
    );
    const [row] = await db()
      .select()
      .from(applicationReceipts)
      .where(eq(applicationReceipts.accountId, id));
    expect(row?.documents).toEqual(documents);

    const mail = await eventually(() => waitForMail(app, email, /is submitted: /));
    expect(mail.subject).toBe(
      `Your application to Northfield State University is submitted: ${receipt.number}`,
    );
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain(receipt.number);
      expect(body).toContain(receipt.fingerprint);
      expect(body).toContain(receipt.submitted_at);
      expect(body).toContain('/completion');
    }

    let status: ApplicationPdfStatus | undefined;
    for (let i = 0; i < 2000; i++) {
      status = (await callAs(app, cookie, 'GET', '/api/pdf')).json() as ApplicationPdfStatus;
      if (status.status !== 'UNPROCESSED' && status.status !== 'IN_PROGRESS') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(status?.status).toBe('COMPLETED');
    const download = await callAs(app, cookie, 'GET', APPLICATION_PDF_URL);
    const [firstPage] = await extractPdfPages(new Uint8Array(download.rawPayload));
    const compact = (firstPage ?? '').replace(/\s+/g, '');
    expect(firstPage).toContain('Confirmation number');
    expect(compact).toContain(receipt.number);
    expect(compact).toContain(receipt.fingerprint);
    expect(firstPage).toContain('Submitted');

    const detail = await app.inject({
      url: `/staff/api/applications/${id}`,
      headers: { cookie: staff.cookie },
    });
    expect(detail.json().receipt).toEqual(receipt);
    const verify = async () => {
      const response = await app.inject({ url: VERIFY(id), headers: { cookie: staff.cookie } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toContain('no-store');
      return response.json() as { matches: boolean; fingerprint: string; recomputed: string };
    };
    expect(await verify()).toEqual({
      matches: true,
      fingerprint: receipt.fingerprint,
      recomputed: receipt.fingerprint,
    });

    // One byte of the stored PDF changed: it no longer verifies; put back, it does again.
    const tampered = new Uint8Array(pdfBytes);
    tampered[tampered.length - 10] = (tampered[tampered.length - 10] ?? 0) ^ 1;
    await storage().put(pdfKey, tampered);
    const afterTamper = await verify();
    expect(afterTamper.matches).toBe(false);
    expect(afterTamper.recomputed).not.toBe(receipt.fingerprint);
    await storage().put(pdfKey, pdfBytes);
    expect((await verify()).matches).toBe(true);

    // One answer changed behind the application's back: no longer verifies.
    await db().execute(
      sql`update applications set answers = answers || '{"first_name":"Changed"}'::jsonb where account_id = ${id}`,
    );
    expect((await verify()).matches).toBe(false);
  });

  it('refuses every change after submit and keeps what was submitted verifiable', async () => {
    const { cookie, id } = await applicant();
    const transcript = await makePdf([['Transcript']]);
    expect((await uploadDocument(app, cookie, 'hs_transcript', transcript, 't.pdf')).status).toBe(
      'COMPLETED',
    );
    // A key issued and an upload stored before submit, its conversion never started.
    const presigned = await callAs(app, cookie, 'POST', '/api/presigned-url', {
      answer_key: 'hs_transcript',
    });
    const { fields } = presigned.json() as { fields: Record<string, string> };
    const posted = await app.inject({
      method: 'POST',
      url: '/public/upload',
      ...multipart(fields, transcript, 'again.pdf'),
    });
    expect(posted.statusCode).toBe(204);
    expect((await submit(cookie)).statusCode).toBe(200);
    const staff = await signedInStaff(app, { role: 'reader' });
    const verified = async () =>
      (await app.inject({ url: VERIFY(id), headers: { cookie: staff.cookie } })).json().matches;
    expect(await verified()).toBe(true);

    const attempts: Array<['PUT' | 'POST' | 'DELETE', string, unknown?]> = [
      ['PUT', '/api/answer', { first_name: 'Changed' }],
      ['PUT', '/api/tabs', { tab_id: 'personal_statement', chosen_tab: 'upload' }],
      ['PUT', '/api/add-another', { button_id: 'colleges', num_components: 2 }],
      ['PUT', '/api/last-page', { last_page: '/about' }],
      ['POST', '/api/presigned-url', { answer_key: 'hs_transcript' }],
      [
        'POST',
        '/api/pdf/document-answer/hs_transcript',
        { file_key: fields.key, file_name: 'again.pdf' },
      ],
      ['DELETE', '/api/document-answer/hs_transcript'],
      ['DELETE', '/api/pdf/document-answer/hs_transcript'],
      ['POST', '/api/submit'],
    ];
    for (const [method, url, payload] of attempts) {
      const response = await callAs(app, cookie, method, url, payload);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(409);
      expect(response.json().message).toBe(ALREADY_SUBMITTED_MESSAGE);
    }

    // A conversion started before submit that finishes after it is kept beside the application,
    // outside what was submitted.
    const fileKey = newObjectKey(id);
    await storage().put(fileKey, transcript);
    await db().insert(documentAnswers).values({
      accountId: id,
      answerKey: 'personal_statement_doc',
      fileKey,
      fileName: 'late.pdf',
      fileSize: transcript.length,
      status: 'IN_PROGRESS',
    });
    const jobs = createConversionJobs({
      db: db(),
      storage: storage(),
      log: app.log,
      convert: async (bytes) => bytes,
    });
    await jobs.run(id, 'personal_statement_doc');
    await jobs.close();
    const [late] = await db()
      .select()
      .from(documentAnswers)
      .where(
        sql`${documentAnswers.accountId} = ${id} and ${documentAnswers.answerKey} = 'personal_statement_doc'`,
      );
    expect(late?.status).toBe('COMPLETED');
    expect(late?.receivedAfterSubmitAt).toBeInstanceOf(Date);
    const profile = (await callAs(app, cookie, 'GET', '/api/profile')).json();
    expect(profile.answer.personal_statement_doc ?? '').toBe('');
    expect(profile.answer.first_name).toBe(validApplicationAnswers().first_name);

    expect(await verified()).toBe(true);
  });
});
