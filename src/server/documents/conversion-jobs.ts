import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  ANSWERED,
  CONVERSION_ERROR_MESSAGE,
  UPLOAD_NOT_FOUND_MESSAGE,
} from '../../shared/api/documents';
import type { AppDatabase } from '../db/database';
import { applications, documentAnswers } from '../db/schema';
import { newObjectKey, type StorageDriver } from '../storage/storage';
import { convertToPdf } from './convert-to-pdf';
import { DocumentRejectedError } from './document-errors';
import { inspectUpload } from './inspect-upload';

/**
 * What the routes need from a job queue. The in-process runner below implements it; a pg-boss
 * queue (for several servers on PostgreSQL) could replace it without touching the routes.
 */
export interface ConversionQueue {
  enqueue(accountId: string, answerKey: string): void;
}

export type ConversionOutcome = { ok: true; pdf: Uint8Array } | { ok: false; message: string };

export interface ConversionJobsOptions {
  db: AppDatabase;
  storage: StorageDriver;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** Per attempt; a slower attempt counts as failed and is retried. */
  timeoutMs?: number;
  /** Further attempts after a failure that is not a DocumentRejectedError. */
  retries?: number;
  /** Jobs running at once in this process. */
  concurrency?: number;
  /** Replaces the conversion (tests). Must have no side effects: a timed-out attempt is abandoned. */
  convert?: (bytes: Uint8Array, fileName: string) => Promise<Uint8Array>;
}

export interface ConversionJobs extends ConversionQueue {
  /** Runs one job to its end now (tests and recovery). */
  run(accountId: string, answerKey: string): Promise<void>;
  /** Re-queues every row left UNPROCESSED or IN_PROGRESS (a restart); returns how many. */
  recover(): Promise<number>;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  /** Takes no new jobs and waits for the running ones. */
  close(): Promise<void>;
}

export const JOB_TIMEOUT_MS = 30_000;
export const JOB_RETRIES = 2;

class JobTimeoutError extends Error {
  override name = 'JobTimeoutError';
}

/** Inspects and converts; a refusal becomes an outcome, any other error is thrown (retried). */
async function defaultConvert(bytes: Uint8Array, fileName: string): Promise<Uint8Array> {
  const inspected = await inspectUpload(bytes, fileName);
  if (!inspected.ok) throw new DocumentRejectedError(inspected.message);
  return convertToPdf(bytes, inspected.kind);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new JobTimeoutError(`conversion took over ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The in-process job runner: a small queue per process, recovered from the table on start. */
export function createConversionJobs(options: ConversionJobsOptions): ConversionJobs {
  const { db, storage, log } = options;
  const timeoutMs = options.timeoutMs ?? JOB_TIMEOUT_MS;
  const retries = options.retries ?? JOB_RETRIES;
  const concurrency = options.concurrency ?? 2;
  const convert = options.convert ?? defaultConvert;
  const queued: string[] = [];
  const waiting = new Set<string>();
  const running = new Map<string, Promise<void>>();
  let closed = false;
  let idleWaiters: Array<() => void> = [];

  const id = (accountId: string, answerKey: string) => JSON.stringify([accountId, answerKey]);

  function pump() {
    while (running.size < concurrency && queued.length > 0) {
      const next = queued.find((job) => !running.has(job));
      if (next === undefined) break;
      queued.splice(queued.indexOf(next), 1);
      waiting.delete(next);
      const [accountId, answerKey] = JSON.parse(next) as [string, string];
      const job = run(accountId, answerKey)
        .catch((error: unknown) => log.error({ err: error, answerKey }, 'conversion job crashed'))
        .finally(() => {
          running.delete(next);
          pump();
        });
      running.set(next, job);
    }
    if (running.size === 0 && queued.length === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  async function attempt(fileKey: string, fileName: string): Promise<ConversionOutcome> {
    const bytes = await storage.get(fileKey);
    if (!bytes) return { ok: false, message: UPLOAD_NOT_FOUND_MESSAGE };
    try {
      return { ok: true, pdf: await convert(bytes, fileName) };
    } catch (error) {
      if (error instanceof DocumentRejectedError) return { ok: false, message: error.message };
      throw error;
    }
  }

  async function run(accountId: string, answerKey: string): Promise<void> {
    const where = and(
      eq(documentAnswers.accountId, accountId),
      eq(documentAnswers.answerKey, answerKey),
    );
    // Claims the row; a COMPLETED or FAILED row (or none) means the job was done already.
    const [row] = await db
      .update(documentAnswers)
      .set({ status: 'IN_PROGRESS', updatedAt: sql`now()` })
      .where(and(where, inArray(documentAnswers.status, ['UNPROCESSED', 'IN_PROGRESS'])))
      .returning({ fileKey: documentAnswers.fileKey, fileName: documentAnswers.fileName });
    if (!row) return;

    let outcome: ConversionOutcome = { ok: false, message: CONVERSION_ERROR_MESSAGE };
    for (let n = 0; n <= retries; n++) {
      try {
        outcome = await withTimeout(attempt(row.fileKey, row.fileName), timeoutMs);
        break;
      } catch (error) {
        log.warn({ err: error, answerKey, attempt: n + 1 }, 'conversion attempt failed');
      }
    }

    // Only the upload this job claimed is finished: a newer upload or a delete wins.
    const ours = and(
      where,
      eq(documentAnswers.fileKey, row.fileKey),
      eq(documentAnswers.status, 'IN_PROGRESS'),
    );
    if (outcome.ok) {
      const pdfKey = newObjectKey(accountId);
      await storage.put(pdfKey, outcome.pdf);
      const done = await db.transaction(async (tx) => {
        const updated = await tx
          .update(documentAnswers)
          .set({ status: 'COMPLETED', message: null, pdfKey, updatedAt: sql`now()` })
          .where(ours)
          .returning({ fileKey: documentAnswers.fileKey });
        if (updated.length > 0) await setAnswer(tx, accountId, answerKey, ANSWERED);
        return updated.length > 0;
      });
      if (!done) await storage.delete(pdfKey);
      return;
    }
    // The refused upload is of no further use (a newer upload has its own key), and it is gone
    // before anyone can read the FAILED status.
    await storage.delete(row.fileKey);
    await db.transaction(async (tx) => {
      const updated = await tx
        .update(documentAnswers)
        .set({ status: 'FAILED', message: outcome.message, pdfKey: null, updatedAt: sql`now()` })
        .where(ours)
        .returning({ fileKey: documentAnswers.fileKey });
      if (updated.length > 0) await setAnswer(tx, accountId, answerKey, '');
    });
  }

  return {
    enqueue(accountId, answerKey) {
      if (closed) return;
      const job = id(accountId, answerKey);
      // A job asked for again while running runs once more afterwards (it may be a new upload).
      if (!waiting.has(job)) {
        waiting.add(job);
        queued.push(job);
      }
      pump();
    },
    run,
    async recover() {
      const rows = await db
        .select({ accountId: documentAnswers.accountId, answerKey: documentAnswers.answerKey })
        .from(documentAnswers)
        .where(inArray(documentAnswers.status, ['UNPROCESSED', 'IN_PROGRESS']));
      for (const row of rows) this.enqueue(row.accountId, row.answerKey);
      return rows.length;
    },
    idle() {
      if (running.size === 0 && queued.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async close() {
      closed = true;
      queued.length = 0;
      waiting.clear();
      await Promise.allSettled([...running.values()]);
    },
  };
}

/**
 * Merges one answer into the application, creating the row if needed. A submitted application
 * is left alone: its answers are final.
 */
export async function setAnswer(
  db: Pick<AppDatabase, 'execute'>,
  accountId: string,
  answerKey: string,
  value: string,
): Promise<void> {
  const patch = JSON.stringify({ [answerKey]: value });
  await db.execute(sql`
    insert into ${applications} (account_id, answers) values (${accountId}, ${patch}::jsonb)
    on conflict (account_id) do update set answers = ${applications.answers} || ${patch}::jsonb,
      updated_at = now()
    where ${applications.submittedAt} is null`);
}
