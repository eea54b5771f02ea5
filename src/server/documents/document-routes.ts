import type { FastifyPluginAsync } from 'fastify';
import { ALREADY_SUBMITTED_MESSAGE } from '../../shared/api/application-messages';
import {
  answerKeyParamsSchema,
  presignedUrlSchema,
  startConversionSchema,
} from '../../shared/api/document-schemas';
import {
  type ConversionStatusResponse,
  documentPdfUrl,
  NOT_A_FILE_QUESTION_MESSAGE,
  UPLOAD_NOT_FOUND_MESSAGE,
} from '../../shared/api/documents';
import { FILE_MAX_BYTES } from '../../shared/constants';
import { checkFileMeta } from '../../shared/documents/file-rules';
import type { FormModel } from '../../shared/form/model';
import type { Sessions } from '../accounts/sessions';
import { createLateUploads, type LateUploads } from '../applicant-status/applicant-status';
import type { ApplicationsStore } from '../application/applications-store';
import type { AppDatabase } from '../db/database';
import { INVALID_REQUEST_MESSAGE, NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import { pdfDownloadName, sendPdf } from '../http/send-pdf';
import type { ZodTypeProvider } from '../http/zod-validation';
import { newObjectKey, type StorageDriver } from '../storage/storage';
import type { ConversionQueue } from './conversion-jobs';
import type { DocumentsStore } from './documents-store';
import { fileQuestionKeys } from './file-question-keys';

export interface DocumentRoutesOptions {
  db: AppDatabase;
  store: DocumentsStore;
  applications: ApplicationsStore;
  sessions: Sessions;
  model: FormModel;
  storage: StorageDriver;
  jobs: ConversionQueue;
  /** Which documents a submitted applicant may still send (the checklist's awaited ones). */
  lateUploads?: LateUploads;
}

/** How long a presigned upload form stays valid. */
export const UPLOAD_POLICY_SECONDS = 300;
/** How long an issued key may start a conversion after it was handed out. */
const ISSUED_KEY_HOURS = 24;

/**
 * Document answers: presigned uploads, conversion to PDF in the background, its status, the
 * download of the PDF and deletes. Every query is scoped to the signed-in account, so another
 * applicant's keys and file ids reach nothing.
 */
export const documentRoutes: FastifyPluginAsync<DocumentRoutesOptions> = async (
  parent,
  options,
) => {
  const { storage, jobs, store, applications } = options;
  const fileKeys = fileQuestionKeys(options.model);
  const lateUploads =
    options.lateUploads ?? createLateUploads({ db: options.db, model: options.model });
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', options.sessions.requireSession.bind(options.sessions));

  function fileQuestion(key: string): string {
    if (!fileKeys.has(key)) {
      throw new HttpError(400, INVALID_REQUEST_MESSAGE, {
        answer_key: [NOT_A_FILE_QUESTION_MESSAGE],
      });
    }
    return key;
  }

  async function refuseIfSubmitted(accountId: string) {
    if (await applications.isSubmitted(accountId))
      throw new HttpError(409, ALREADY_SUBMITTED_MESSAGE);
  }

  /**
   * After submit, only a document the checklist still awaits and the applicant did not submit:
   * it comes in beside the submitted application, never in place of part of it.
   */
  async function refuseUploadIfSubmitted(accountId: string, answerKey: string) {
    if (!(await applications.isSubmitted(accountId))) return;
    if (!(await lateUploads.allows(accountId, answerKey)))
      throw new HttpError(409, ALREADY_SUBMITTED_MESSAGE);
  }

  app.post('/api/presigned-url', { schema: { body: presignedUrlSchema } }, async (request) => {
    const answerKey = fileQuestion(request.body.answer_key);
    await refuseUploadIfSubmitted(request.accountId, answerKey);
    const fileKey = newObjectKey(request.accountId);
    await store.issueUploadKey({
      fileKey,
      accountId: request.accountId,
      answerKey,
      hours: ISSUED_KEY_HOURS,
    });
    return await storage.createUploadPolicy(fileKey, {
      maxBytes: FILE_MAX_BYTES,
      expiresInSeconds: UPLOAD_POLICY_SECONDS,
    });
  });

  app.post(
    '/api/pdf/document-answer/:key',
    { schema: { params: answerKeyParamsSchema, body: startConversionSchema } },
    async (request, reply) => {
      const answerKey = fileQuestion(request.params.key);
      const { accountId } = request;
      const { file_key: fileKey, file_name: fileName } = request.body;
      await refuseUploadIfSubmitted(accountId, answerKey);
      if (!(await store.isUploadIssuedTo({ fileKey, accountId, answerKey })))
        throw new HttpError(404, UPLOAD_NOT_FOUND_MESSAGE);
      const size = await storage.size(fileKey);
      if (size === null) throw new HttpError(400, UPLOAD_NOT_FOUND_MESSAGE);
      // The browser checks the name and size before uploading; a hand-made request is told the
      // same sentence now, not by a conversion that fails later, and leaves nothing behind.
      const refusal = checkFileMeta({ name: fileName, size });
      if (refusal) {
        await storage.delete(fileKey);
        throw new HttpError(400, refusal, { file_name: [refusal] });
      }

      const previous = await store.startAnswer({
        accountId,
        answerKey,
        fileKey,
        fileName,
        fileSize: size,
      });
      if (previous) await removeObjects(previous.fileKey, previous.pdfKey);
      await jobs.enqueue({ accountId, answerKey, fileKey });
      return reply.status(202).send({
        status: 'UNPROCESSED',
        message: null,
        url: null,
      } satisfies ConversionStatusResponse);
    },
  );

  app.get(
    '/api/pdf/document-answer/:key',
    { schema: { params: answerKeyParamsSchema } },
    async (request) => {
      const answerKey = fileQuestion(request.params.key);
      const row = await store.conversionStatus(request.accountId, answerKey);
      if (!row)
        return {
          status: 'NOT_ANSWERED',
          message: null,
          url: null,
        } satisfies ConversionStatusResponse;
      return {
        status: row.status,
        message: row.message,
        url: row.status === 'COMPLETED' ? documentPdfUrl(answerKey) : null,
      } satisfies ConversionStatusResponse;
    },
  );

  app.get('/api/document-answer', async (request) => store.completedAnswers(request.accountId));

  async function removeObjects(...keys: Array<string | null>) {
    for (const key of keys) if (key) await storage.delete(key);
  }

  async function deleteDocument(accountId: string, answerKey: string) {
    await refuseIfSubmitted(accountId);
    const removed = await store.deleteAnswer(accountId, answerKey);
    for (const row of removed) await removeObjects(row.fileKey, row.pdfKey);
    return { message: 'Deleted.' };
  }

  app.delete(
    '/api/document-answer/:key',
    { schema: { params: answerKeyParamsSchema } },
    async (request) => deleteDocument(request.accountId, fileQuestion(request.params.key)),
  );
  app.delete(
    '/api/pdf/document-answer/:key',
    { schema: { params: answerKeyParamsSchema } },
    async (request) => deleteDocument(request.accountId, fileQuestion(request.params.key)),
  );

  app.get(
    '/api/document/:key/pdf',
    { schema: { params: answerKeyParamsSchema } },
    async (request, reply) => {
      const answerKey = fileQuestion(request.params.key);
      const row = await store.completedPdf(request.accountId, answerKey);
      const pdf = row ? await storage.get(row.pdfKey) : null;
      if (!row || !pdf) throw new HttpError(404, NOT_FOUND_MESSAGE);
      return sendPdf(reply, pdf, pdfDownloadName(row.fileName));
    },
  );
};
