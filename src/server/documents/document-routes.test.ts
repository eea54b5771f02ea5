import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALREADY_SUBMITTED_MESSAGE } from '../../shared/api/application-messages';
import { CONVERSION_ERROR_MESSAGE } from '../../shared/api/documents';
import { FILE_MAX_BYTES } from '../../shared/constants';
import {
  FILE_EMPTY_MESSAGE,
  FILE_NAME_TOO_LONG_MESSAGE,
  FILE_TYPE_MESSAGE,
} from '../../shared/documents/file-rules';
import { fixtureModel } from '../../shared/test/fixture-model';
import { accounts, applications, documentAnswers } from '../db/schema';
import { localDiskStorage, UPLOAD_EXPIRED_MESSAGE } from '../storage/local-disk';
import { newObjectKey } from '../storage/storage';
import { signedInApplicant } from '../test/accounts-helpers';
import { multipart } from '../test/document-helpers';
import { makeExe, makePng, makePngOfSize } from '../test/sample-files';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { type ConversionJobsOptions, createConversionJobs } from './conversion-jobs';

const KEY = 'statement_doc';
const SECRET = 'test-upload-secret-of-at-least-32-characters';
const silentLog = { warn: () => {}, error: () => {} } as unknown as ConversionJobsOptions['log'];

describe.each(databaseKinds)('document answers on %s', (kind) => {
  let app: FastifyInstance;
  let dataDir: string;
  let counter = 0;
  const applicant = () => signedInApplicant(app, `doc${++counter}.${kind}@example.edu`);
  const call = (
    cookie: string,
    method: 'GET' | 'POST' | 'DELETE' | 'PUT',
    url: string,
    payload?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const storage = () => localDiskStorage({ root: path.join(dataDir, 'uploads'), secret: SECRET });

  async function presign(cookie: string) {
    const response = await call(cookie, 'POST', '/api/presigned-url', { answer_key: KEY });
    expect(response.statusCode).toBe(200);
    return response.json() as { url: string; fields: Record<string, string> };
  }
  async function upload(fields: Record<string, string>, file: Uint8Array) {
    return app.inject({ method: 'POST', url: '/public/upload', ...multipart(fields, file) });
  }
  async function statusOf(cookie: string) {
    return (await call(cookie, 'GET', `/api/pdf/document-answer/${KEY}`)).json();
  }
  async function settled(cookie: string) {
    for (let i = 0; i < 1000; i++) {
      const status = await statusOf(cookie);
      if (status.status !== 'UNPROCESSED' && status.status !== 'IN_PROGRESS') return status;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('conversion did not settle');
  }
  async function uploadAndConvert(cookie: string, file: Uint8Array, fileName: string) {
    const { url, fields } = await presign(cookie);
    expect(url).toBe('/public/upload');
    expect((await upload(fields, file)).statusCode).toBe(204);
    const started = await call(cookie, 'POST', `/api/pdf/document-answer/${KEY}`, {
      file_key: fields.key,
      file_name: fileName,
    });
    expect(started.statusCode).toBe(202);
    return { fileKey: fields.key as string, status: await settled(cookie) };
  }
  const answersOf = async (cookie: string) =>
    (await call(cookie, 'GET', '/api/profile')).json().answer;
  async function accountIdOf(email: string) {
    const [row] = await testDatabaseOf(app)
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    return row?.id as string;
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-docs-'));
    app = await buildTestApp(kind, {
      model: fixtureModel,
      env: { DATA_DIR: dataDir, UPLOAD_SIGNING_SECRET: SECRET },
    });
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses every document call without a session', async () => {
    for (const [method, url] of [
      ['POST', '/api/presigned-url'],
      ['GET', `/api/pdf/document-answer/${KEY}`],
      ['GET', '/api/document-answer'],
      ['DELETE', `/api/document-answer/${KEY}`],
      ['GET', `/api/document/${KEY}/pdf`],
    ] as const) {
      expect((await app.inject({ method, url })).statusCode).toBe(401);
    }
  });

  it('uploads a PNG, converts it and serves the PDF to its owner', async () => {
    const cookie = await applicant();
    expect(await statusOf(cookie)).toEqual({ status: 'NOT_ANSWERED', message: null, url: null });
    const png = makePng({ width: 40, height: 30 });
    const { status } = await uploadAndConvert(cookie, png, 'transcript.png');
    expect(status).toEqual({ status: 'COMPLETED', message: null, url: `/api/document/${KEY}/pdf` });
    expect((await answersOf(cookie))[KEY]).toBe('ANSWERED');
    const listed = (await call(cookie, 'GET', '/api/document-answer')).json();
    expect(listed).toEqual({ [KEY]: { file_name: 'transcript.png', file_size: png.length } });
    expect((await call(cookie, 'GET', '/api/profile')).json().document_answer).toEqual(listed);

    const pdf = await call(cookie, 'GET', `/api/document/${KEY}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename="transcript.pdf"');
    expect(pdf.headers['x-content-type-options']).toBe('nosniff');
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('fails a renamed program with the inspection message and clears the answer', async () => {
    const cookie = await applicant();
    const { fileKey, status } = await uploadAndConvert(cookie, makeExe(), 'essay.pdf');
    expect(status.status).toBe('FAILED');
    expect(status.message).toEqual(expect.any(String));
    expect(status.message).not.toBe(CONVERSION_ERROR_MESSAGE);
    expect(status.url).toBeNull();
    expect((await answersOf(cookie))[KEY]).toBe('');
    expect(await storage().get(fileKey)).toBeNull();
    expect((await call(cookie, 'GET', '/api/document-answer')).json()).toEqual({});
  });

  it('refuses at once, storing nothing, a name of the wrong type, too long, or an empty file', async () => {
    const cookie = await applicant();
    const cases = [
      { file: makeExe(), name: 'setup.exe', message: FILE_TYPE_MESSAGE },
      { file: makePng({ width: 8, height: 8 }), name: 'transcript', message: FILE_TYPE_MESSAGE },
      {
        file: makePng({ width: 8, height: 8 }),
        name: `${'a'.repeat(29)}.png`,
        message: FILE_NAME_TOO_LONG_MESSAGE,
      },
      { file: new Uint8Array(0), name: 'empty.pdf', message: FILE_EMPTY_MESSAGE },
    ];
    for (const { file, name, message } of cases) {
      const { fields } = await presign(cookie);
      expect((await upload(fields, file)).statusCode).toBe(204);
      const started = await call(cookie, 'POST', `/api/pdf/document-answer/${KEY}`, {
        file_key: fields.key,
        file_name: name,
      });
      expect(started.statusCode, name).toBe(400);
      expect(started.json()).toEqual({ message, errors: { file_name: [message] } });
      expect(await storage().get(fields.key as string), name).toBeNull();
      expect(await statusOf(cookie)).toEqual({ status: 'NOT_ANSWERED', message: null, url: null });
      expect((await answersOf(cookie))[KEY] ?? '').toBe('');
    }
    // The longest allowed name still goes through.
    const { status } = await uploadAndConvert(
      cookie,
      makePng({ width: 8, height: 8 }),
      `${'a'.repeat(28)}.png`,
    );
    expect(status.status).toBe('COMPLETED');
  });

  it('refuses tampered, expired, misdirected and oversized uploads', async () => {
    const cookie = await applicant();
    const png = makePng({ width: 8, height: 8 });
    const { fields } = await presign(cookie);
    const other = await presign(cookie);

    const tampered = { ...fields, signature: `${fields.signature?.slice(0, -2)}AA` };
    const refusedSignature = await upload(tampered, png);
    expect(refusedSignature.statusCode).toBe(403);
    expect(refusedSignature.json().message).toEqual(expect.any(String));

    const wrongKey = await upload({ ...fields, key: other.fields.key as string }, png);
    expect(wrongKey.statusCode).toBe(403);

    const past = await localDiskStorage({
      root: path.join(dataDir, 'uploads'),
      secret: SECRET,
      now: () => Date.now() - 3_600_000,
    }).createUploadPolicy(fields.key as string, {
      maxBytes: FILE_MAX_BYTES,
      expiresInSeconds: 300,
    });
    const expired = await upload(past.fields, png);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toBe(UPLOAD_EXPIRED_MESSAGE);

    const tooLarge = await upload(fields, makePngOfSize(FILE_MAX_BYTES + 2048));
    expect(tooLarge.statusCode).toBe(413);

    const missingFields = await upload({ key: fields.key as string }, png);
    expect(missingFields.statusCode).toBe(400);

    expect(await storage().get(fields.key as string)).toBeNull();
    expect((await upload(fields, png)).statusCode).toBe(204);
  });

  it('keeps every applicant to their own files', async () => {
    const owner = await applicant();
    const { fileKey } = await uploadAndConvert(owner, makePng({ width: 10, height: 10 }), 'a.png');
    const intruder = await applicant();

    expect(await statusOf(intruder)).toMatchObject({ status: 'NOT_ANSWERED' });
    expect((await call(intruder, 'GET', `/api/document/${KEY}/pdf`)).statusCode).toBe(404);
    const stolen = await call(intruder, 'POST', `/api/pdf/document-answer/${KEY}`, {
      file_key: fileKey,
      file_name: 'a.png',
    });
    expect(stolen.statusCode).toBe(404);
    expect((await call(intruder, 'DELETE', `/api/document-answer/${KEY}`)).statusCode).toBe(200);
    expect((await statusOf(owner)).status).toBe('COMPLETED');
    expect((await call(owner, 'GET', `/api/document/${KEY}/pdf`)).statusCode).toBe(200);

    // A key issued for another question or not issued at all starts nothing either.
    const notFile = await call(owner, 'POST', '/api/pdf/document-answer/first_name', {
      file_key: fileKey,
      file_name: 'a.png',
    });
    expect(notFile.statusCode).toBe(400);
    const reused = await call(owner, 'POST', `/api/pdf/document-answer/${KEY}`, {
      file_key: fileKey,
      file_name: 'a.png',
    });
    expect(reused.statusCode).toBe(404);
  });

  it('deletes the file, its PDF, the row and the answer', async () => {
    for (const url of [`/api/document-answer/${KEY}`, `/api/pdf/document-answer/${KEY}`]) {
      const cookie = await applicant();
      const { fileKey } = await uploadAndConvert(cookie, makePng({ width: 9, height: 9 }), 'b.png');
      const [row] = await testDatabaseOf(app)
        .select({ pdfKey: documentAnswers.pdfKey })
        .from(documentAnswers)
        .where(eq(documentAnswers.fileKey, fileKey));
      expect(row?.pdfKey).toEqual(expect.any(String));
      expect((await call(cookie, 'DELETE', url)).statusCode).toBe(200);
      expect(await statusOf(cookie)).toMatchObject({ status: 'NOT_ANSWERED' });
      expect((await answersOf(cookie))[KEY]).toBe('');
      expect(await storage().get(fileKey)).toBeNull();
      expect(await storage().get(row?.pdfKey as string)).toBeNull();
      expect((await call(cookie, 'GET', `/api/document/${KEY}/pdf`)).statusCode).toBe(404);
    }
  });

  it('clears through a delete a file answer the server holds without a document', async () => {
    const email = `orphan${++counter}.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    await testDatabaseOf(app)
      .insert(applications)
      .values({ accountId: await accountIdOf(email), answers: { [KEY]: 'ANSWERED' } })
      .onConflictDoUpdate({
        target: applications.accountId,
        set: { answers: { [KEY]: 'ANSWERED' } },
      });
    // The browser never writes the answer itself; the delete is how it goes.
    expect((await call(cookie, 'PUT', '/api/answer', { [KEY]: '' })).statusCode).toBe(400);
    expect((await call(cookie, 'DELETE', `/api/document-answer/${KEY}`)).statusCode).toBe(200);
    expect((await answersOf(cookie))[KEY]).toBe('');
  });

  it('refuses a presigned URL for a non-file key and after submit', async () => {
    const email = `submitted${++counter}.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    const notFile = await call(cookie, 'POST', '/api/presigned-url', { answer_key: 'first_name' });
    expect(notFile.statusCode).toBe(400);
    const accountId = await accountIdOf(email);
    await testDatabaseOf(app)
      .insert(applications)
      .values({ accountId, submittedAt: sql`now()` })
      .onConflictDoUpdate({ target: applications.accountId, set: { submittedAt: sql`now()` } });
    const late = await call(cookie, 'POST', '/api/presigned-url', { answer_key: KEY });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(ALREADY_SUBMITTED_MESSAGE);
    expect((await call(cookie, 'DELETE', `/api/document-answer/${KEY}`)).statusCode).toBe(409);
  });

  it('re-queues a conversion left IN_PROGRESS by a restart, and never redoes a finished one', async () => {
    const email = `restart${++counter}.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    const accountId = await accountIdOf(email);
    const fileKey = newObjectKey(accountId);
    const png = makePng({ width: 12, height: 12 });
    await storage().put(fileKey, png);
    await testDatabaseOf(app).insert(documentAnswers).values({
      accountId,
      answerKey: KEY,
      fileKey,
      fileName: 'left.png',
      fileSize: png.length,
      status: 'IN_PROGRESS',
    });
    const jobs = createConversionJobs({
      db: testDatabaseOf(app),
      storage: storage(),
      log: silentLog,
    });
    expect(await jobs.recover()).toBeGreaterThanOrEqual(1);
    await jobs.idle();
    expect(await statusOf(cookie)).toMatchObject({ status: 'COMPLETED' });
    expect((await answersOf(cookie))[KEY]).toBe('ANSWERED');

    const before = await testDatabaseOf(app)
      .select()
      .from(documentAnswers)
      .where(eq(documentAnswers.accountId, accountId));
    await jobs.run(accountId, KEY);
    const after = await testDatabaseOf(app)
      .select()
      .from(documentAnswers)
      .where(eq(documentAnswers.accountId, accountId));
    expect(after).toEqual(before);
    await jobs.close();
  });

  it('retries unexpected failures, then fails with the generic message; times out slow jobs', async () => {
    const email = `retry${++counter}.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    const accountId = await accountIdOf(email);
    const png = makePng({ width: 6, height: 6 });
    const arrange = async () => {
      const fileKey = newObjectKey(accountId);
      await storage().put(fileKey, png);
      await testDatabaseOf(app)
        .insert(documentAnswers)
        .values({ accountId, answerKey: KEY, fileKey, fileName: 'r.png', fileSize: png.length })
        .onConflictDoUpdate({
          target: [documentAnswers.accountId, documentAnswers.answerKey],
          set: { fileKey, status: 'UNPROCESSED', message: null },
        });
    };

    let calls = 0;
    const flaky = createConversionJobs({
      db: testDatabaseOf(app),
      storage: storage(),
      log: silentLog,
      convert: async () => {
        calls++;
        if (calls < 3) throw new Error('transient');
        return new Uint8Array(Buffer.from('%PDF-1.7\n%%EOF'));
      },
    });
    await arrange();
    await flaky.run(accountId, KEY);
    expect(calls).toBe(3);
    expect(await statusOf(cookie)).toMatchObject({ status: 'COMPLETED' });

    const broken = createConversionJobs({
      db: testDatabaseOf(app),
      storage: storage(),
      log: silentLog,
      convert: async () => {
        throw new Error('bug');
      },
    });
    await arrange();
    await broken.run(accountId, KEY);
    expect(await statusOf(cookie)).toMatchObject({
      status: 'FAILED',
      message: CONVERSION_ERROR_MESSAGE,
    });

    const slow = createConversionJobs({
      db: testDatabaseOf(app),
      storage: storage(),
      log: silentLog,
      timeoutMs: 20,
      retries: 0,
      convert: () => new Promise<Uint8Array>(() => {}),
    });
    await arrange();
    await slow.run(accountId, KEY);
    expect(await statusOf(cookie)).toMatchObject({
      status: 'FAILED',
      message: CONVERSION_ERROR_MESSAGE,
    });
  });
});
