import {
  ANSWERED,
  CONVERSION_ERROR_MESSAGE,
  type ConversionStatusResponse,
  type DocumentStatus,
} from '../../shared/api/documents';
import { CONVERSION_POLL_MS } from '../../shared/constants';
import { checkFileMeta } from '../../shared/documents/file-rules';
import type { Item } from '../../shared/form/model';
import { fieldsOfItems } from '../app-state/model-index';
import type { StartConversion, UploadForm, UploadProgressListener } from '../data/documents';
import { UnauthorizedError } from '../data/http-client';
import { isPendingStatus, type UploadProgressStore } from './upload-progress-store';

/** The server calls an upload makes (src/web/data/documents.ts in the app, fakes in tests). */
export interface DocumentCalls {
  /** PUT /api/answer of the unsaved answers, sent alongside the upload (spec 000 section 4). */
  saveAnswers(): Promise<unknown>;
  requestUploadForm(answerKey: string): Promise<UploadForm>;
  postFile(
    form: UploadForm,
    file: Blob,
    fileName: string,
    onProgress: UploadProgressListener,
  ): Promise<void>;
  startConversion(answerKey: string, body: StartConversion): Promise<ConversionStatusResponse>;
  conversionStatus(answerKey: string): Promise<ConversionStatusResponse>;
  deleteDocument(answerKey: string): Promise<void>;
}

/** What an upload changes besides its own progress. */
export interface DocumentEffects {
  /** The answer as the server already holds it ('ANSWERED' or ''), so it is not saved again. */
  setAnswer(answerKey: string, value: string): void;
  /** A conversion completed: the list of converted files is read again. */
  refreshDocuments(): Promise<unknown>;
  /** The file is gone on the server. */
  forgetDocument(answerKey: string): void;
  /** Spec 001 section 8: the 'Error uploading file for {key}' toast, with what went wrong. */
  uploadFailed(answerKey: string, message: string): void;
}

export interface DocumentUploadsOptions {
  store: UploadProgressStore;
  calls: DocumentCalls;
  effects: DocumentEffects;
  /** Resolves after `ms`; tests pass one that resolves at once. */
  wait?: (ms: number) => Promise<void>;
  pollMs?: number;
  /** Status reads that may fail in a row before the applicant is told; the poll then stops. */
  maxPollFailures?: number;
}

export interface DocumentUploads {
  /** Checks the file, then saves answers, uploads, starts the conversion and polls it. */
  upload(answerKey: string, file: File): Promise<void>;
  /** Picks up a conversion started on an earlier visit, once per key and sign-in. */
  resume(answerKey: string): Promise<void>;
  /** Deletes the file, its conversion and the answer; rejects with the server's reason. */
  remove(answerKey: string): Promise<void>;
  /**
   * Whether a tab may hide these file questions (spec 001 section 4): not while a file is on its
   * way, its status is being read, the documents are still loading, or the server says a
   * conversion is unprocessed or in progress (which is then followed to its end).
   */
  mayHide(answerKeys: readonly string[], documentsLoading: boolean): Promise<boolean>;
  /**
   * After a switch is confirmed: deletes the files of questions the tab hides, and through the
   * same call the answers the server holds for them.
   */
  removeHidden(answerKeys: readonly string[], isAttached: (key: string) => boolean): Promise<void>;
  /** Forgets everything under way, e.g. when someone else signs in. */
  reset(): void;
}

const DEFAULT_MAX_POLL_FAILURES = 5;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The upload flow of spec 000 section 4, one per key at a time: save answers and ask for an
 * upload form in parallel, post the file, request conversion, then poll every 2000 ms while the
 * status is UNPROCESSED or IN_PROGRESS. COMPLETED marks the answer ANSWERED; FAILED clears it,
 * tells the applicant and deletes the conversion; NOT_ANSWERED stops.
 */
export function createDocumentUploads({
  store,
  calls,
  effects,
  wait = sleep,
  pollMs = CONVERSION_POLL_MS,
  maxPollFailures = DEFAULT_MAX_POLL_FAILURES,
}: DocumentUploadsOptions): DocumentUploads {
  /** Bumped by reset: work begun for an earlier sign-in stops at its next step. */
  let generation = 0;
  let resumed = new Set<string>();
  const lastStatus = new Map<string, DocumentStatus>();

  const current = (started: number) => started === generation;

  async function readStatus(answerKey: string): Promise<ConversionStatusResponse> {
    const reply = await calls.conversionStatus(answerKey);
    lastStatus.set(answerKey, reply.status);
    return reply;
  }

  function fail(answerKey: string, error: unknown): void {
    if (error instanceof UnauthorizedError) {
      // The sign-in is over; the app is already on its way to /login.
      store.update(answerKey, { phase: { kind: 'idle' } });
      return;
    }
    const message = error instanceof Error ? error.message : CONVERSION_ERROR_MESSAGE;
    store.update(answerKey, { phase: { kind: 'idle' }, error: message });
    effects.uploadFailed(answerKey, message);
  }

  /** Acts on a status that is no longer pending. */
  async function settle(
    answerKey: string,
    reply: ConversionStatusResponse,
    fileName: string | null,
    started: number,
  ): Promise<void> {
    if (reply.status === 'COMPLETED') {
      effects.setAnswer(answerKey, ANSWERED);
      // The file's name and size come with the list; until it is back the question stays busy.
      await effects.refreshDocuments().catch(() => undefined);
      if (!current(started)) return;
      store.update(answerKey, {
        phase: { kind: 'idle' },
        error: null,
        done: fileName ? `${fileName} is uploaded and converted to PDF.` : null,
      });
      return;
    }
    if (reply.status === 'FAILED') {
      effects.setAnswer(answerKey, '');
      const message = reply.message ?? CONVERSION_ERROR_MESSAGE;
      store.update(answerKey, { phase: { kind: 'idle' }, error: message, done: null });
      effects.uploadFailed(answerKey, message);
      await calls
        .deleteDocument(answerKey)
        .then(() => lastStatus.set(answerKey, 'NOT_ANSWERED'))
        .catch((error: unknown) => console.error('Could not delete a failed conversion.', error));
      return;
    }
    store.update(answerKey, { phase: { kind: 'idle' } });
  }

  async function poll(
    answerKey: string,
    fileName: string | null,
    first: ConversionStatusResponse,
    started: number,
  ): Promise<void> {
    let reply = first;
    let failures = 0;
    while (isPendingStatus(reply.status)) {
      store.update(answerKey, { phase: { kind: 'converting', fileName, status: reply.status } });
      await wait(pollMs);
      if (!current(started)) return;
      try {
        reply = await readStatus(answerKey);
        failures = 0;
      } catch (error) {
        failures += 1;
        if (error instanceof UnauthorizedError || failures >= maxPollFailures) {
          if (current(started)) fail(answerKey, error);
          return;
        }
      }
      if (!current(started)) return;
    }
    await settle(answerKey, reply, fileName, started);
  }

  async function remove(answerKey: string): Promise<void> {
    const before = store.get(answerKey).phase;
    // Nothing is left to pick up for this key afterwards.
    resumed.add(answerKey);
    store.update(answerKey, { phase: { kind: 'deleting' }, error: null, done: null });
    try {
      await calls.deleteDocument(answerKey);
    } catch (error) {
      store.update(answerKey, { phase: before });
      throw error;
    }
    lastStatus.set(answerKey, 'NOT_ANSWERED');
    effects.setAnswer(answerKey, '');
    effects.forgetDocument(answerKey);
    store.update(answerKey, { phase: { kind: 'idle' } });
  }

  return {
    async upload(answerKey, file) {
      // A status read on arrival does not hold the applicant up: a chosen file takes over.
      const before = store.get(answerKey).phase.kind;
      if (before !== 'idle' && before !== 'checking') return;
      const problem = checkFileMeta({ name: file.name, size: file.size });
      if (problem) {
        store.update(answerKey, { error: problem, done: null });
        return;
      }
      const started = generation;
      resumed.add(answerKey);
      store.update(answerKey, {
        phase: { kind: 'uploading', fileName: file.name, loaded: 0, total: file.size },
        error: null,
        done: null,
      });
      try {
        const [form] = await Promise.all([
          calls.requestUploadForm(answerKey),
          // A failed save is retried by the autosave; it must not stop the upload.
          calls.saveAnswers().catch(() => undefined),
        ]);
        if (!current(started)) return;
        await calls.postFile(form, file, file.name, (loaded, total) => {
          if (current(started))
            store.update(answerKey, {
              phase: { kind: 'uploading', fileName: file.name, loaded, total },
            });
        });
        if (!current(started)) return;
        store.update(answerKey, {
          phase: { kind: 'converting', fileName: file.name, status: 'UNPROCESSED' },
        });
        const reply = await calls.startConversion(answerKey, {
          file_key: form.fields.key,
          file_name: file.name,
        });
        lastStatus.set(answerKey, reply.status);
        if (!current(started)) return;
        // The server empties the answer until the new file is converted.
        effects.setAnswer(answerKey, '');
        await poll(answerKey, file.name, reply, started);
      } catch (error) {
        if (current(started)) fail(answerKey, error);
      }
    },

    async resume(answerKey) {
      if (resumed.has(answerKey) || store.isBusy(answerKey)) return;
      resumed.add(answerKey);
      const started = generation;
      store.update(answerKey, { phase: { kind: 'checking' } });
      try {
        const reply = await readStatus(answerKey);
        if (!current(started) || store.get(answerKey).phase.kind !== 'checking') return;
        await poll(answerKey, null, reply, started);
      } catch (error) {
        if (!current(started) || store.get(answerKey).phase.kind !== 'checking') return;
        store.update(answerKey, { phase: { kind: 'idle' } });
        if (!(error instanceof UnauthorizedError))
          console.error('Could not read the conversion status.', error);
      }
    },

    remove,

    async mayHide(answerKeys, documentsLoading) {
      if (answerKeys.length === 0) return true;
      if (documentsLoading || answerKeys.some((key) => store.isBusy(key))) return false;
      const replies = await Promise.all(
        answerKeys.map((key) =>
          readStatus(key).then(
            (reply) => ({ key, reply }),
            // The switch goes on; deleting the file then fails with the tabs' own message.
            () => null,
          ),
        ),
      );
      const pending = replies.filter(
        (entry): entry is { key: string; reply: ConversionStatusResponse } =>
          entry !== null && isPendingStatus(entry.reply.status),
      );
      if (pending.length === 0) return true;
      const started = generation;
      for (const { key, reply } of pending) {
        // A conversion this browser did not start (another tab): follow it to the end.
        if (!store.isBusy(key)) {
          resumed.add(key);
          void poll(key, null, reply, started);
        }
      }
      return false;
    },

    async removeHidden(answerKeys, isAttached) {
      for (const key of answerKeys) {
        const status = lastStatus.get(key) ?? 'NOT_ANSWERED';
        if (isAttached(key) || status !== 'NOT_ANSWERED') await remove(key);
      }
    },

    reset() {
      generation += 1;
      resumed = new Set();
      lastStatus.clear();
      store.reset();
    },
  };
}

/** The answer keys of the file questions among some items, e.g. a tab about to be hidden. */
export function fileKeysOfItems(items: readonly Item[], prefix = ''): string[] {
  return fieldsOfItems(items, prefix)
    .filter(({ field }) => field.widget === 'file')
    .map(({ key }) => key);
}
