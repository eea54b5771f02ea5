import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWERED } from '../../shared/api/documents';
import { FILE_MAX_BYTES } from '../../shared/constants';
import { FILE_TOO_LARGE_MESSAGE } from '../../shared/documents/file-rules';
import { fixtureModel } from '../../shared/test/fixture-model';
import { accounts, applications, documentAnswers } from '../db/schema';
import { createInProcessQueue } from '../jobs/in-process-queue';
import { localDiskStorage } from '../storage/local-disk';
import { newObjectKey } from '../storage/storage';
import { signedInApplicant } from '../test/accounts-helpers';
import { makePng } from '../test/sample-files';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import {
  CONVERSION_JOB,
  type ConversionJobsOptions,
  createConversionJobs,
  registerConversionJobs,
} from './conversion-jobs';

const KEY = 'statement_doc';
const silentLog = { warn: () => {}, error: () => {} };
const pdfBytes = new Uint8Array(Buffer.from('%PDF-1.7\n%%EOF'));

describe.each(databaseKinds)('conversion jobs on %s', (kind) => {
  let app: FastifyInstance;
  let dataDir: string;
  let counter = 0;
  const storage = () => localDiskStorage({ root: path.join(dataDir, 'uploads') });
  const db = () => testDatabaseOf(app);
  const options = (overrides: Partial<ConversionJobsOptions> = {}): ConversionJobsOptions => ({
    db: db(),
    storage: storage(),
    log: silentLog,
    ...overrides,
  });

  /** An applicant with an upload waiting for conversion and the given answers stored. */
  async function pendingUpload(answers: Record<string, string>, submitted: boolean) {
    const email = `convert${++counter}.${kind}@example.edu`;
    await signedInApplicant(app, email);
    const [account] = await db()
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    const accountId = account?.id as string;
    const fileKey = newObjectKey(accountId);
    const png = makePng({ width: 5, height: 5 });
    await storage().put(fileKey, png);
    await db()
      .insert(applications)
      .values({ accountId, answers, submittedAt: submitted ? sql`now()` : null })
      .onConflictDoUpdate({
        target: applications.accountId,
        set: { answers, submittedAt: submitted ? sql`now()` : null },
      });
    await db().insert(documentAnswers).values({
      accountId,
      answerKey: KEY,
      fileKey,
      fileName: 'late.png',
      fileSize: png.length,
    });
    return { accountId, fileKey };
  }
  async function stored(accountId: string) {
    const [application] = await db()
      .select({ answers: applications.answers })
      .from(applications)
      .where(eq(applications.accountId, accountId));
    const [row] = await db()
      .select({ status: documentAnswers.status })
      .from(documentAnswers)
      .where(eq(documentAnswers.accountId, accountId));
    return { answers: application?.answers as Record<string, string>, status: row?.status };
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-convert-'));
    app = await buildTestApp(kind, { model: fixtureModel, env: { DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('marks the answer ANSWERED while the application is open', async () => {
    const { accountId } = await pendingUpload({ [KEY]: '' }, false);
    const jobs = createConversionJobs(options({ convert: async () => pdfBytes }));
    await jobs.run(accountId, KEY);
    expect(await stored(accountId)).toEqual({
      answers: { [KEY]: ANSWERED },
      status: 'COMPLETED',
    });
  });

  it('leaves the answers of a submitted application alone when a conversion ends late', async () => {
    const done = await pendingUpload({ [KEY]: '', first_name: 'Ada' }, true);
    await createConversionJobs(options({ convert: async () => pdfBytes })).run(done.accountId, KEY);
    expect(await stored(done.accountId)).toEqual({
      answers: { [KEY]: '', first_name: 'Ada' },
      status: 'COMPLETED',
    });

    const failed = await pendingUpload({ [KEY]: ANSWERED }, true);
    const broken = createConversionJobs(
      options({
        retries: 0,
        convert: async () => {
          throw new Error('bug');
        },
      }),
    );
    await broken.run(failed.accountId, KEY);
    expect(await stored(failed.accountId)).toEqual({
      answers: { [KEY]: ANSWERED },
      status: 'FAILED',
    });
  });

  it('ignores a job for a file the row no longer holds', async () => {
    const { accountId, fileKey } = await pendingUpload({ [KEY]: '' }, false);
    const queue = createInProcessQueue({ log: silentLog });
    let converted = 0;
    const jobs = await registerConversionJobs(
      queue,
      options({
        convert: async () => {
          converted++;
          return pdfBytes;
        },
      }),
    );
    await jobs.enqueue({ accountId, answerKey: KEY, fileKey: newObjectKey(accountId) });
    await jobs.idle();
    expect(converted).toBe(0);
    expect((await stored(accountId)).status).toBe('UNPROCESSED');

    await jobs.enqueue({ accountId, answerKey: KEY, fileKey });
    await jobs.idle();
    expect(converted).toBe(1);
    expect((await stored(accountId)).status).toBe('COMPLETED');
    // The app closes a shared queue, not the jobs registered on it.
    await jobs.close();
    await expect(
      queue.enqueue(CONVERSION_JOB, { accountId, answerKey: KEY, fileKey }),
    ).resolves.toBeUndefined();
    await queue.idle();
    expect(converted).toBe(1);
    await queue.close();
  });

  it('fails a stored file over the upload limit without reading it', async () => {
    const { accountId, fileKey } = await pendingUpload({ [KEY]: '' }, false);
    await storage().put(fileKey, new Uint8Array(FILE_MAX_BYTES + 1));
    let read = 0;
    const counting = {
      ...storage(),
      async get(key: string) {
        read++;
        return storage().get(key);
      },
    };
    await createConversionJobs(options({ storage: counting })).run(accountId, KEY);
    const [row] = await db()
      .select({ status: documentAnswers.status, message: documentAnswers.message })
      .from(documentAnswers)
      .where(eq(documentAnswers.accountId, accountId));
    expect(row).toEqual({ status: 'FAILED', message: FILE_TOO_LARGE_MESSAGE });
    expect(read).toBe(0);
    expect(await storage().get(fileKey)).toBeNull();
  });

  it('refuses malformed jobs', async () => {
    const jobs = createConversionJobs(options());
    await expect(
      jobs.enqueue({ accountId: 'not-a-uuid', answerKey: KEY, fileKey: 'x' }),
    ).rejects.toThrow();
    await expect(
      jobs.enqueue({ accountId: crypto.randomUUID(), answerKey: '', fileKey: 'x' }),
    ).rejects.toThrow();
    await jobs.close();
  });
});
