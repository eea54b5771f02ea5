import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import {
  APPLICATION_PDF_FAILED_MESSAGE,
  APPLICATION_PDF_URL,
  type ApplicationPdfStatus,
  isApplicationPdfPending,
} from '../../shared/api/application-pdf';
import { SERVICE_PDF_PREPARING_MESSAGE } from '../../shared/api/service';
import type { CourseworkRules } from '../../shared/coursework/coursework-rules';
import type { Answers, FormModel } from '../../shared/form/model';
import {
  attachedDocuments,
  type PrintableDocumentInput,
  printableApplication,
} from '../../shared/form/printable';
import type { AppDatabase } from '../db/database';
import { HttpError } from '../http/http-error';
import type { JobQueue } from '../jobs/job-queue';
import type { JobLog } from '../jobs/job-runner';
import { findReceipt } from '../receipts/receipts-store';
import { lazy } from '../runtime/lazy';
import { newObjectKey, type StorageDriver } from '../storage/storage';
import { createApplicationPdfsStore } from './application-pdfs-store';

/** pdf-lib and the fonts load with the first application PDF, not with the server. */
const renderer = lazy(() => import('./render-application-pdf'));

export const APPLICATION_PDF_JOB = 'application-pdf';
/** Well over a render (a fraction of a second); a slower attempt is abandoned and retried. */
export const APPLICATION_PDF_TIMEOUT_MS = 60_000;
export const APPLICATION_PDF_RETRIES = 2;
/** A FAILED PDF is tried again on a request this long after the failure (the slow poll's pace). */
export const FAILED_RETRY_MINUTES = 10;

const payloadSchema = z.strictObject({ accountId: z.uuid() });
type Payload = z.infer<typeof payloadSchema>;

export interface ApplicationPdfsOptions {
  db: AppDatabase;
  storage: StorageDriver;
  model: FormModel;
  queue: JobQueue;
  log: JobLog;
  /** The university's name, on the first page. */
  institution: string;
  /** The tenant's rules for the transfer GPA and units printed with the coursework. */
  courseworkRules: CourseworkRules;
  /** The time printed on the PDF (tests fix it). */
  now?: () => Date;
}

/**
 * The application PDF's life cycle, one row per account in application_pdfs: requested
 * (UNPROCESSED), made by a job (IN_PROGRESS, then COMPLETED or FAILED). A PDF is up to date while
 * its source_updated_at equals the application's updated_at; any change to the application
 * (answers, tabs, add-another, documents) makes the next request start a new one.
 *
 * The job is idempotent, as the queue asks: it claims the row by stamping updated_at and only
 * finishes a row still carrying its stamp, so a second run, an abandoned attempt or a newer
 * request never leaves a wrong PDF behind.
 */
export interface ApplicationPdfs {
  /** Declares the job on the queue; call while the server is being built. */
  register(): Promise<void>;
  /** GET /api/pdf: the status, starting a new PDF when there is no up-to-date one. */
  request(accountId: string): Promise<ApplicationPdfStatus>;
  /** After a successful submit: starts the PDF staff read. Never throws (logged instead). */
  requestAfterSubmit(accountId: string): Promise<void>;
  /** Makes the PDF now (the job's body). */
  run(accountId: string, signal?: AbortSignal): Promise<void>;
  /**
   * Makes the PDF in this process unless an up-to-date one is stored, and answers its status: an
   * export needs each PDF now, and a job per application would only wait in line behind it.
   */
  ensure(accountId: string, signal?: AbortSignal): Promise<ApplicationPdfStatus>;
  /** Queues every row left UNPROCESSED or IN_PROGRESS (a restart); returns how many. */
  recover(): Promise<number>;
  /** The stored PDF of a COMPLETED row, with the applicant's name for the file name. */
  download(accountId: string): Promise<{ pdf: Uint8Array; applicantName: string } | null>;
}

/** How long a staff download waits for a PDF being made (it usually takes well under a second). */
const PDF_WAIT_MS = 15_000;
const PDF_POLL_MS = 250;

/**
 * The application's PDF for a staff reader, who clicks a link rather than polling: waits a little
 * for a PDF being made, then answers 503 with when to try again (or the failure's message).
 */
export async function awaitApplicationPdf(
  pdfs: ApplicationPdfs,
  accountId: string,
): Promise<{ pdf: Uint8Array; applicantName: string }> {
  const deadline = Date.now() + PDF_WAIT_MS;
  let status = await pdfs.request(accountId);
  while (isApplicationPdfPending(status.status) && Date.now() < deadline) {
    await delay(PDF_POLL_MS);
    status = await pdfs.request(accountId);
  }
  const found = status.status === 'COMPLETED' ? await pdfs.download(accountId) : null;
  if (found) return found;
  const message =
    status.status === 'FAILED'
      ? (status.message ?? APPLICATION_PDF_FAILED_MESSAGE)
      : SERVICE_PDF_PREPARING_MESSAGE;
  throw new HttpError(503, message, undefined, { 'retry-after': '30' });
}

function applicantNameOf(answers: Answers): string {
  const part = (key: string) =>
    typeof answers[key] === 'string' ? String(answers[key]).trim() : '';
  return [part('first_name'), part('last_name')].filter(Boolean).join(' ');
}

export function createApplicationPdfs(options: ApplicationPdfsOptions): ApplicationPdfs {
  const { db, storage, model, queue, log } = options;
  const now = options.now ?? (() => new Date());
  const store = createApplicationPdfsStore(db);

  /** Marks the PDF wanted unless one is up to date or on its way; true when it should be queued. */
  async function markWanted(accountId: string): Promise<boolean> {
    return store.markWanted(accountId, FAILED_RETRY_MINUTES);
  }

  async function enqueue(accountId: string): Promise<void> {
    await queue.enqueue(APPLICATION_PDF_JOB, { accountId } satisfies Payload);
  }

  async function startIfNeeded(accountId: string): Promise<void> {
    if (await markWanted(accountId)) await enqueue(accountId);
  }

  async function statusOf(accountId: string): Promise<ApplicationPdfStatus> {
    const row = await store.status(accountId);
    const status = row?.status ?? 'UNPROCESSED';
    return {
      status,
      url: status === 'COMPLETED' ? APPLICATION_PDF_URL : null,
      message: status === 'FAILED' ? (row?.message ?? APPLICATION_PDF_FAILED_MESSAGE) : null,
    };
  }

  async function run(accountId: string, signal?: AbortSignal): Promise<void> {
    const stamp = await store.claim(accountId);
    if (stamp === null) return;

    const application = await store.sourceApplication(accountId);
    const documentRows = await store.documents(accountId);

    const answers = (application?.answers ?? {}) as Answers;
    const documents: Record<string, PrintableDocumentInput> = {};
    for (const row of documentRows)
      documents[row.answerKey] = {
        file_name: row.fileName,
        file_size: row.fileSize,
        status: row.status,
      };
    const printable = printableApplication(model, {
      answers,
      tabs: application?.tabs ?? {},
      addAnother: application?.addAnother ?? {},
      documents,
      courseworkRules: options.courseworkRules,
    });
    const pdfKeys = new Map(documentRows.map((row) => [row.answerKey, row.pdfKey]));
    const documentBytes = new Map<string, Uint8Array | null>();
    for (const { answerKey } of attachedDocuments(printable)) {
      const key = pdfKeys.get(answerKey);
      documentBytes.set(answerKey, key ? await storage.get(key) : null);
    }
    const rendered = await (await renderer()).renderApplicationPdf({
      printable,
      documents: documentBytes,
      cover: {
        institution: options.institution,
        applicantName: applicantNameOf(answers),
        email: application?.email ?? null,
        submittedAt: application?.submittedAt ?? null,
        generatedAt: now(),
        receipt: await findReceipt(db, accountId),
      },
    });
    if (rendered.missingDocuments.length > 0) {
      log.warn(
        { accountId, answerKeys: rendered.missingDocuments },
        'application PDF made without documents whose converted PDF is missing',
      );
    }
    signal?.throwIfAborted();

    const pdfKey = newObjectKey(accountId);
    await storage.put(pdfKey, rendered.pdf);
    const previous = await store.pdfKey(accountId);
    const finished = await store.complete(accountId, stamp, pdfKey, application?.source ?? null);
    if (!finished) {
      // Another run owns the row now: this PDF is nobody's.
      await storage.delete(pdfKey);
      return;
    }
    if (previous && previous !== pdfKey) await storage.delete(previous);
    // The application changed while the PDF was being made (a submit right after a request):
    // the PDF staff read must be of the final answers.
    if (finished.stale) await startIfNeeded(accountId);
  }

  async function recordFailure(accountId: string): Promise<void> {
    await store.markFailed(accountId, APPLICATION_PDF_FAILED_MESSAGE);
  }

  return {
    async register() {
      await queue.register<Payload>(
        APPLICATION_PDF_JOB,
        async (payload, context) => run(payload.accountId, context.signal),
        {
          payload: payloadSchema,
          timeoutMs: APPLICATION_PDF_TIMEOUT_MS,
          retries: APPLICATION_PDF_RETRIES,
          concurrency: 1,
          onFailure: async (payload) => recordFailure(payload.accountId),
        },
      );
    },
    async request(accountId) {
      await startIfNeeded(accountId);
      return statusOf(accountId);
    },
    async requestAfterSubmit(accountId) {
      try {
        await startIfNeeded(accountId);
      } catch (error) {
        log.error({ err: error, accountId }, 'could not start the application PDF after submit');
      }
    },
    run,
    async ensure(accountId, signal) {
      await markWanted(accountId);
      const before = await statusOf(accountId);
      // A recent failure stands until its retry time, as for a request.
      if (before.status === 'COMPLETED' || before.status === 'FAILED') return before;
      await run(accountId, signal);
      return statusOf(accountId);
    },
    async recover() {
      const accountIds = await store.pending();
      for (const accountId of accountIds) await enqueue(accountId);
      return accountIds.length;
    },
    async download(accountId) {
      const row = await store.completed(accountId);
      const pdf = row?.pdfKey ? await storage.get(row.pdfKey) : null;
      if (!row || !pdf) return null;
      return { pdf, applicantName: applicantNameOf((row.answers ?? {}) as Answers) };
    },
  };
}
