import { z } from 'zod';
import {
  ANSWERED,
  CONVERSION_ERROR_MESSAGE,
  UPLOAD_NOT_FOUND_MESSAGE,
} from '../../shared/api/documents';
import { FILE_MAX_BYTES } from '../../shared/constants';
import { FILE_TOO_LARGE_MESSAGE } from '../../shared/documents/file-rules';
import type { AppDatabase } from '../db/database';
import { createInProcessQueue } from '../jobs/in-process-queue';
import type { JobContext, JobOptions, JobQueue } from '../jobs/job-queue';
import { type JobLog, runWithRetries } from '../jobs/job-runner';
import type { ConversionResult, Metrics } from '../metrics/metrics';
import { newObjectKey, type StorageDriver } from '../storage/storage';
import { createConversionJobsStore } from './conversion-jobs-store';
import { convertToPdf } from './convert-to-pdf';
import { DocumentRejectedError } from './document-errors';
import { inspectUpload } from './inspect-upload';

export const CONVERSION_JOB = 'documents.convert';

/** One upload to convert: the row of (account, question) while it still holds this file. */
export const conversionPayloadSchema = z.strictObject({
  accountId: z.uuid(),
  answerKey: z.string().min(1).max(200),
  fileKey: z.string().min(1).max(200),
});
export type ConversionJob = z.infer<typeof conversionPayloadSchema>;

/** What the routes need: a conversion is queued once its row is stored as UNPROCESSED. */
export interface ConversionQueue {
  enqueue(job: ConversionJob): Promise<void>;
}

export type ConversionOutcome = { ok: true; pdf: Uint8Array } | { ok: false; message: string };

export interface ConversionJobsOptions {
  db: AppDatabase;
  storage: StorageDriver;
  log: JobLog;
  /** Per attempt; a slower attempt counts as failed and is retried. */
  timeoutMs?: number;
  /** Further attempts after a failure that is not a DocumentRejectedError. */
  retries?: number;
  /** Conversions running at once in this process. */
  concurrency?: number;
  /** Replaces the conversion (tests). */
  convert?: (bytes: Uint8Array, fileName: string) => Promise<Uint8Array>;
  /** Counts each upload this process finished, by result. */
  metrics?: Pick<Metrics, 'documentConversions'>;
  /**
   * Told when an upload settled (converted or refused): the checklist recounts, since a submitted
   * application's row does not change with it. Its errors are logged, never the job's failure.
   */
  onSettled?: (accountId: string) => Promise<void>;
}

export interface ConversionJobs extends ConversionQueue {
  /** Runs the conversion of the row's current upload to its end now, retries included (tests). */
  run(accountId: string, answerKey: string): Promise<void>;
  /** Re-queues every row left UNPROCESSED or IN_PROGRESS (a restart); returns how many. */
  recover(): Promise<number>;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  /** Closes the queue if these jobs own it; a shared queue is closed by the app. */
  close(): Promise<void>;
}

export const JOB_TIMEOUT_MS = 30_000;
export const JOB_RETRIES = 2;

/** Inspects and converts; a refusal becomes an outcome, any other error is thrown (retried). */
async function defaultConvert(bytes: Uint8Array, fileName: string): Promise<Uint8Array> {
  const inspected = await inspectUpload(bytes, fileName);
  if (!inspected.ok) throw new DocumentRejectedError(inspected.message);
  return convertToPdf(bytes, inspected.kind);
}

/**
 * The conversion job. It is idempotent: it claims its row only while the row still holds its
 * file and is pending, and finishes it only while that is still so, so a repeated, late or
 * duplicate run (another server, a restart, a newer upload, a delete) changes nothing.
 */
function conversionJob(options: ConversionJobsOptions) {
  const { storage } = options;
  const store = createConversionJobsStore(options.db);
  const convert = options.convert ?? defaultConvert;
  const count = (result: ConversionResult) =>
    options.metrics?.documentConversions.inc({ outcome: result });
  const settled = async (accountId: string) => {
    try {
      await options.onSettled?.(accountId);
    } catch (error) {
      options.log.error({ err: error }, 'after a conversion settled');
    }
  };

  async function attempt(fileKey: string, fileName: string): Promise<ConversionOutcome> {
    // A bucket that does not enforce the upload policy could hold anything: never download
    // more than an upload may be.
    const size = await storage.size(fileKey);
    if (size !== null && size > FILE_MAX_BYTES)
      return { ok: false, message: FILE_TOO_LARGE_MESSAGE };
    const bytes = await storage.get(fileKey);
    if (!bytes) return { ok: false, message: UPLOAD_NOT_FOUND_MESSAGE };
    try {
      return { ok: true, pdf: await convert(bytes, fileName) };
    } catch (error) {
      if (error instanceof DocumentRejectedError) return { ok: false, message: error.message };
      throw error;
    }
  }

  /**
   * Marks the row FAILED if it is still waiting for this file; the file itself goes first. Says
   * whether it did: a row that moved on (a newer upload, a delete) is not this job's failure.
   */
  async function fail(job: ConversionJob, message: string): Promise<boolean> {
    if (!(await store.isPending(job))) return false;
    // The refused upload is of no further use (a newer upload has its own key), and it is gone
    // before anyone can read the FAILED status.
    await storage.delete(job.fileKey);
    return store.transaction(async (tx) => {
      const failed = await store.markFailed(job, message, tx);
      if (failed) await store.setAnswer(job.accountId, job.answerKey, '', tx);
      return failed;
    });
  }

  async function handler(job: ConversionJob, { signal }: JobContext): Promise<void> {
    const fileName = await store.claim(job);
    if (fileName === null) return;

    const outcome = await attempt(job.fileKey, fileName);
    // An attempt past its time leaves the outcome to the next one.
    signal.throwIfAborted();
    if (!outcome.ok) {
      if (await fail(job, outcome.message)) {
        count('refused');
        await settled(job.accountId);
      }
      return;
    }
    const pdfKey = newObjectKey(job.accountId);
    await storage.put(pdfKey, outcome.pdf);
    const done = await store.transaction(async (tx) => {
      const completed = await store.markCompleted(job, pdfKey, tx);
      if (completed) await store.setAnswer(job.accountId, job.answerKey, ANSWERED, tx);
      return completed;
    });
    if (done) {
      count('converted');
      await settled(job.accountId);
    } else await storage.delete(pdfKey);
  }

  const jobOptions: JobOptions<ConversionJob> = {
    payload: conversionPayloadSchema,
    timeoutMs: options.timeoutMs ?? JOB_TIMEOUT_MS,
    retries: options.retries ?? JOB_RETRIES,
    concurrency: options.concurrency ?? 2,
    onFailure: async (job) => {
      if (await fail(job, CONVERSION_ERROR_MESSAGE)) {
        count('failed');
        await settled(job.accountId);
      }
    },
    // A restart re-queues rows whose jobs may still be waiting in pg-boss.
    dedupeKey: (job) => JSON.stringify([job.accountId, job.answerKey, job.fileKey]),
  };
  return { handler, jobOptions };
}

function conversionJobs(
  queue: JobQueue,
  registered: Promise<void>,
  options: ConversionJobsOptions,
  { handler, jobOptions }: ReturnType<typeof conversionJob>,
  ownsQueue: boolean,
): ConversionJobs {
  const { log } = options;
  const store = createConversionJobsStore(options.db);
  return {
    async enqueue(job) {
      await registered;
      await queue.enqueue(CONVERSION_JOB, job);
    },
    async run(accountId, answerKey) {
      const fileKey = await store.currentFileKey(accountId, answerKey);
      if (fileKey === null) return;
      const job = { accountId, answerKey, fileKey };
      await runWithRetries(CONVERSION_JOB, handler, jobOptions, job, log);
    },
    async recover() {
      const rows = await store.pending();
      for (const row of rows) await this.enqueue(row);
      return rows.length;
    },
    async idle() {
      await registered;
      await queue.idle();
    },
    async close() {
      if (ownsQueue) await queue.close();
    },
  };
}

/** Registers the conversion on the app's job queue (pg-boss or in process). */
export async function registerConversionJobs(
  queue: JobQueue,
  options: ConversionJobsOptions,
): Promise<ConversionJobs> {
  const job = conversionJob(options);
  await queue.register(CONVERSION_JOB, job.handler, job.jobOptions);
  return conversionJobs(queue, Promise.resolve(), options, job, false);
}

/** The conversion on a queue of its own in this process (tools and tests). */
export function createConversionJobs(options: ConversionJobsOptions): ConversionJobs {
  const queue = createInProcessQueue({ log: options.log });
  const job = conversionJob(options);
  const registered = queue.register(CONVERSION_JOB, job.handler, job.jobOptions);
  return conversionJobs(queue, registered, options, job, true);
}
