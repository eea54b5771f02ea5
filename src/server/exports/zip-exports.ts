import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { z } from 'zod';
import type { ApplicationPdfs } from '../application-pdf/application-pdfs';
import { CSV_BOM, csvRow } from '../http/csv-writer';
import type { JobQueue } from '../jobs/job-queue';
import type { JobLog } from '../jobs/job-runner';
import { newObjectKey, putFileIn, type StorageDriver } from '../storage/storage';
import { courseworkValue } from './csv-export';
import { parseExportQuery, rawQueryOf } from './export-query';
import { EXPORT_BATCH_SIZE, type ExportApplication, type ExportsStore } from './exports-store';

export const ZIP_EXPORT_JOB = 'export-pdf-zip';
/** A ZIP of more would take long and weigh gigabytes: narrowing the filters is the better answer. */
export const ZIP_EXPORT_MAX = 5000;
/** How long a finished ZIP can be downloaded: a working day and the next morning. */
export const ZIP_EXPORT_TTL_HOURS = 24;
/** Well over 5,000 PDFs at the measured pace; a stuck run is abandoned and retried once. */
const ZIP_EXPORT_TIMEOUT_MS = 60 * 60_000;
/** Progress is written this often: often enough for a bar, rarely enough to cost nothing. */
const PROGRESS_EVERY = 10;
/**
 * PDFs made at once: on PostgreSQL one render overlaps the next one's reads; more would only
 * compete for the same cores as the requests the server answers meanwhile.
 */
const PDFS_AT_ONCE = 2;

export const ZIP_EXPORT_TOO_MANY_MESSAGE = `A ZIP export holds at most ${ZIP_EXPORT_MAX.toLocaleString('en-US')} applications. Narrow the filters and export in parts.`;
export const ZIP_EXPORT_FAILED_MESSAGE = 'The export could not be made. Start a new one.';
export const ZIP_PDF_MISSING_NOTE = 'The application PDF could not be made.';

export const ZIP_INDEX_FILE = 'index.csv';
export const ZIP_INDEX_HEADER = [
  'id',
  'last_name',
  'first_name',
  'email',
  'status',
  'submitted_at',
  'transfer_gpa',
  'transfer_units',
  'in_progress_units',
  'file',
  'note',
] as const;

const payloadSchema = z.strictObject({ exportId: z.uuid() });
type Payload = z.infer<typeof payloadSchema>;

/** How many characters of a name a file name keeps. */
const NAME_PART_MAX = 40;

/**
 * Letters (of any script, with their accents), digits and hyphens, in NFC: nothing a file system
 * or a path reads as a separator, a dot or a control, and no letter lost. Folding to ASCII lost
 * ø, ł and every letter of Chinese names; fflate marks a non-ASCII name as UTF-8 in the ZIP's
 * headers, which current unzip tools (Windows, macOS, Info-ZIP, 7-Zip) honour.
 */
function namePart(value: unknown, fallback: string): string {
  const text = typeof value === 'string' ? value : '';
  const safe = text
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}-]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  // Cut by code point, so a letter outside the Basic Multilingual Plane is never split in two.
  const cut = Array.from(safe).slice(0, NAME_PART_MAX).join('').replace(/-+$/, '');
  return cut || fallback;
}

/** `<Last>_<First>_<id8>.pdf`, unique within the ZIP. */
export function zipEntryName(application: ExportApplication, taken: ReadonlySet<string>): string {
  const last = namePart(application.answers.last_name, 'Unnamed');
  const first = namePart(application.answers.first_name, 'Unnamed');
  const short = `${last}_${first}_${application.id.slice(0, 8)}.pdf`;
  return taken.has(short) ? `${last}_${first}_${application.id}.pdf` : short;
}

export interface ZipExportsOptions {
  store: ExportsStore;
  storage: StorageDriver;
  pdfs: ApplicationPdfs;
  queue: JobQueue;
  log: JobLog;
  now?: () => Date;
}

/**
 * ZIP exports of the list's application PDFs: one row of export_jobs each, made by a job that
 * writes its progress to the row. The job is idempotent as the queue asks: it claims the row,
 * and only a row still running takes its finished file.
 */
export function createZipExports(options: ZipExportsOptions) {
  const { store, storage, pdfs, queue, log } = options;
  const now = options.now ?? (() => new Date());

  async function pdfOf(accountId: string, signal: AbortSignal): Promise<Uint8Array | null> {
    try {
      const status = await pdfs.ensure(accountId, signal);
      if (status.status !== 'COMPLETED') return null;
      return (await pdfs.download(accountId))?.pdf ?? null;
    } catch (error) {
      signal.throwIfAborted();
      log.warn({ err: error, accountId }, 'application PDF not made for a ZIP export');
      return null;
    }
  }

  async function run(exportId: string, signal: AbortSignal): Promise<void> {
    const job = await store.start(exportId);
    if (!job) return;
    const ids = await store.matchingIds(
      parseExportQuery(rawQueryOf(job.query)).request,
      ZIP_EXPORT_MAX,
    );
    await store.progress(exportId, { done: 0, total: ids.length });

    const file = path.join(tmpdir(), `portal-export-${exportId}-${randomUUID()}.zip`);
    try {
      const { byteSize, done } = await writeZip(file, ids, exportId, signal);
      const key = newObjectKey(job.staffId);
      await putFileIn(storage, key, file, byteSize);
      const finished = await store.complete(exportId, {
        storageKey: key,
        byteSize,
        done,
        expiresAt: new Date(now().getTime() + ZIP_EXPORT_TTL_HOURS * 3_600_000),
      });
      // Another attempt finished or failed the row meanwhile: this file is nobody's.
      if (!finished) await storage.delete(key);
    } finally {
      await rm(file, { force: true });
    }
  }

  /**
   * The ZIP written to a temporary file as it is made, waiting for the disk whenever it falls
   * behind: only a PDF or two is ever in memory, however many the export holds.
   */
  async function writeZip(
    file: string,
    ids: readonly string[],
    exportId: string,
    signal: AbortSignal,
  ): Promise<{ byteSize: number; done: number }> {
    const out = createWriteStream(file);
    const closed = once(out, 'close');
    // Awaited below; a failure before then is not an unhandled rejection meanwhile.
    closed.catch(() => undefined);
    let failure: unknown = null;
    out.on('error', (error) => {
      failure = error;
    });
    let byteSize = 0;
    const zip = new Zip((error, chunk) => {
      if (error) {
        failure = error;
        return;
      }
      byteSize += chunk.length;
      out.write(chunk);
    });
    const drained = async () => {
      if (failure) throw failure;
      if (out.writableNeedDrain) await once(out, 'drain');
    };
    const names = new Set<string>();
    const index: unknown[][] = [];
    let done = 0;
    try {
      for (let start = 0; start < ids.length; start += EXPORT_BATCH_SIZE) {
        const batch = await store.applications(ids.slice(start, start + EXPORT_BATCH_SIZE));
        for (let at = 0; at < batch.length; at += PDFS_AT_ONCE) {
          signal.throwIfAborted();
          const group = batch.slice(at, at + PDFS_AT_ONCE);
          const made = await Promise.all(group.map((one) => pdfOf(one.id, signal)));
          for (const [i, application] of group.entries()) {
            const pdf = made[i];
            const name = zipEntryName(application, names);
            if (pdf) {
              names.add(name);
              // PDFs are compressed already: stored as they are, the ZIP costs no CPU.
              const entry = new ZipPassThrough(name);
              zip.add(entry);
              entry.push(pdf, true);
            }
            const { answers } = application;
            index.push([
              application.id,
              answers.last_name ?? '',
              answers.first_name ?? '',
              application.email,
              application.status,
              application.submittedAt,
              courseworkValue('transfer_gpa', application),
              courseworkValue('transfer_units', application),
              courseworkValue('in_progress_units', application),
              pdf ? name : '',
              pdf ? '' : ZIP_PDF_MISSING_NOTE,
            ]);
            done++;
            if (done % PROGRESS_EVERY === 0) await store.progress(exportId, { done });
          }
          await drained();
        }
      }
      const indexEntry = new ZipDeflate(ZIP_INDEX_FILE, { level: 6 });
      zip.add(indexEntry);
      indexEntry.push(
        new TextEncoder().encode(
          `${CSV_BOM}${csvRow(ZIP_INDEX_HEADER)}${index.map((row) => csvRow(row)).join('')}`,
        ),
        true,
      );
      zip.end();
      if (failure) throw failure;
    } catch (error) {
      zip.terminate();
      out.destroy();
      await closed.catch(() => undefined);
      throw error;
    }
    out.end();
    await closed;
    if (failure) throw failure;
    return { byteSize, done };
  }

  return {
    async register(): Promise<void> {
      await queue.register<Payload>(
        ZIP_EXPORT_JOB,
        async (payload, context) => run(payload.exportId, context.signal),
        {
          payload: payloadSchema,
          timeoutMs: ZIP_EXPORT_TIMEOUT_MS,
          retries: 1,
          concurrency: 1,
          onFailure: async (payload) => store.fail(payload.exportId, ZIP_EXPORT_FAILED_MESSAGE),
        },
      );
    },

    async enqueue(exportId: string): Promise<void> {
      await queue.enqueue(ZIP_EXPORT_JOB, { exportId } satisfies Payload);
    },

    /**
     * Queues again the exports a restart left unfinished. Only the in-process queue forgets its
     * jobs; pg-boss keeps them in the database and would run a second copy at once.
     */
    async recover(): Promise<number> {
      if (queue.kind !== 'in-process') return 0;
      const ids = await store.unfinishedIds();
      for (const id of ids) await queue.enqueue(ZIP_EXPORT_JOB, { exportId: id } satisfies Payload);
      return ids.length;
    },

    /**
     * Deletes the files of expired exports (their rows stay, for the list and the audit). Run on
     * the export routes' own requests, so no schedule is needed; returns how many went.
     */
    async deleteExpired(): Promise<number> {
      const expired = await store.expiredFiles(now());
      for (const file of expired) {
        await storage.delete(file.storageKey);
        await store.forgetFile(file.id);
      }
      return expired.length;
    },
  };
}

export type ZipExports = ReturnType<typeof createZipExports>;
