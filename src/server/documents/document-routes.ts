import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { ALREADY_SUBMITTED_MESSAGE } from '../../shared/api/application-messages';
import {
  answerKeyParamsSchema,
  presignedUrlSchema,
  startConversionSchema,
} from '../../shared/api/document-schemas';
import {
  type ConversionStatusResponse,
  type DocumentAnswersResponse,
  documentPdfUrl,
  NOT_A_FILE_QUESTION_MESSAGE,
  UPLOAD_NOT_FOUND_MESSAGE,
} from '../../shared/api/documents';
import { FILE_MAX_BYTES } from '../../shared/constants';
import type { FormModel } from '../../shared/form/model';
import { resolveModel } from '../../shared/form/resolve';
import type { Sessions } from '../accounts/sessions';
import type { AppDatabase } from '../db/database';
import { applications, documentAnswers, documentUploads } from '../db/schema';
import { INVALID_REQUEST_MESSAGE, NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import { newObjectKey, type StorageDriver } from '../storage/storage';
import { type ConversionQueue, setAnswer } from './conversion-jobs';

export interface DocumentRoutesOptions {
  db: AppDatabase;
  sessions: Sessions;
  model: FormModel;
  storage: StorageDriver;
  jobs: ConversionQueue;
}

/** How long a presigned upload form stays valid. */
export const UPLOAD_POLICY_SECONDS = 300;
/** How long an issued key may start a conversion after it was handed out. */
const ISSUED_KEY_HOURS = 24;

/** Every answer key whose widget is a file upload, in every instance and tab of the model. */
export function fileQuestionKeys(model: FormModel): Set<string> {
  const everything = { addAnother: {}, tabs: {}, isLoggedIn: true, answers: {} };
  return new Set(
    resolveModel(model, everything)
      .filter((place) => place.field.widget === 'file')
      .map((place) => place.key),
  );
}

/** Whether a storage key was issued for an upload and has not been used or expired. */
export async function isUploadAwaited(db: AppDatabase, fileKey: string): Promise<boolean> {
  const rows = await db
    .select({ fileKey: documentUploads.fileKey })
    .from(documentUploads)
    .where(and(eq(documentUploads.fileKey, fileKey), gt(documentUploads.expiresAt, sql`now()`)));
  return rows.length > 0;
}

/** A safe download name: the uploaded name's stem in plain ASCII, with .pdf. */
/** The converted documents of an account, as GET /api/document-answer lists them. */
export async function completedDocumentAnswers(
  db: AppDatabase,
  accountId: string,
): Promise<DocumentAnswersResponse> {
  const rows = await db
    .select({
      answerKey: documentAnswers.answerKey,
      fileName: documentAnswers.fileName,
      fileSize: documentAnswers.fileSize,
    })
    .from(documentAnswers)
    .where(and(eq(documentAnswers.accountId, accountId), eq(documentAnswers.status, 'COMPLETED')));
  return Object.fromEntries(
    rows.map((row) => [row.answerKey, { file_name: row.fileName, file_size: row.fileSize }]),
  );
}

export function pdfDownloadName(fileName: string): string {
  const stem = fileName.replace(/\.[^.]*$/, '');
  const ascii = stem.replace(/[^A-Za-z0-9._ -]/g, '_').trim();
  return `${ascii || 'document'}.pdf`;
}

/**
 * Document answers: presigned uploads, conversion to PDF in the background, its status, the
 * download of the PDF and deletes. Every query is scoped to the signed-in account, so another
 * applicant's keys and file ids reach nothing.
 */
export const documentRoutes: FastifyPluginAsync<DocumentRoutesOptions> = async (
  parent,
  options,
) => {
  const { db, storage, jobs } = options;
  const fileKeys = fileQuestionKeys(options.model);
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
    const [row] = await db
      .select({ submittedAt: applications.submittedAt })
      .from(applications)
      .where(eq(applications.accountId, accountId));
    if (row?.submittedAt) throw new HttpError(409, ALREADY_SUBMITTED_MESSAGE);
  }

  const rowWhere = (accountId: string, key: string) =>
    and(eq(documentAnswers.accountId, accountId), eq(documentAnswers.answerKey, key));

  app.post('/api/presigned-url', { schema: { body: presignedUrlSchema } }, async (request) => {
    const answerKey = fileQuestion(request.body.answer_key);
    await refuseIfSubmitted(request.accountId);
    const fileKey = newObjectKey(request.accountId);
    await db.insert(documentUploads).values({
      fileKey,
      accountId: request.accountId,
      answerKey,
      expiresAt: sql`now() + make_interval(hours => ${ISSUED_KEY_HOURS})`,
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
      await refuseIfSubmitted(accountId);
      const [issued] = await db
        .select({ fileKey: documentUploads.fileKey })
        .from(documentUploads)
        .where(
          and(
            eq(documentUploads.fileKey, fileKey),
            eq(documentUploads.accountId, accountId),
            eq(documentUploads.answerKey, answerKey),
            gt(documentUploads.expiresAt, sql`now()`),
          ),
        );
      if (!issued) throw new HttpError(404, UPLOAD_NOT_FOUND_MESSAGE);
      const size = await storage.size(fileKey);
      if (size === null) throw new HttpError(400, UPLOAD_NOT_FOUND_MESSAGE);

      const previous = await db.transaction(async (tx) => {
        const [old] = await tx
          .select({ fileKey: documentAnswers.fileKey, pdfKey: documentAnswers.pdfKey })
          .from(documentAnswers)
          .where(rowWhere(accountId, answerKey))
          .for('update');
        const values = {
          fileKey,
          fileName,
          fileSize: size,
          status: 'UNPROCESSED' as const,
          message: null,
          pdfKey: null,
          updatedAt: sql`now()`,
        };
        await tx
          .insert(documentAnswers)
          .values({ accountId, answerKey, ...values })
          .onConflictDoUpdate({
            target: [documentAnswers.accountId, documentAnswers.answerKey],
            set: values,
          });
        await tx.delete(documentUploads).where(eq(documentUploads.fileKey, fileKey));
        // The answer stays empty until this upload is converted.
        await setAnswer(tx, accountId, answerKey, '');
        return old;
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
      const [row] = await db
        .select({ status: documentAnswers.status, message: documentAnswers.message })
        .from(documentAnswers)
        .where(rowWhere(request.accountId, answerKey));
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

  app.get('/api/document-answer', async (request) =>
    completedDocumentAnswers(db, request.accountId),
  );

  async function removeObjects(...keys: Array<string | null>) {
    for (const key of keys) if (key) await storage.delete(key);
  }

  async function deleteDocument(accountId: string, answerKey: string) {
    await refuseIfSubmitted(accountId);
    const removed = await db.transaction(async (tx) => {
      const rows = await tx
        .delete(documentAnswers)
        .where(rowWhere(accountId, answerKey))
        .returning({ fileKey: documentAnswers.fileKey, pdfKey: documentAnswers.pdfKey });
      await setAnswer(tx, accountId, answerKey, '');
      return rows;
    });
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
      const [row] = await db
        .select({ pdfKey: documentAnswers.pdfKey, fileName: documentAnswers.fileName })
        .from(documentAnswers)
        .where(
          and(rowWhere(request.accountId, answerKey), eq(documentAnswers.status, 'COMPLETED')),
        );
      const pdf = row?.pdfKey ? await storage.get(row.pdfKey) : null;
      if (!row || !pdf) throw new HttpError(404, NOT_FOUND_MESSAGE);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${pdfDownloadName(row.fileName)}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(pdf));
    },
  );
};
