import { and, eq, gt, sql } from 'drizzle-orm';
import type { DocumentAnswersResponse } from '../../shared/api/documents';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { applications, documentAnswers, documentUploads } from '../db/schema';
import { setAnswer } from './conversion-jobs-store';

/** A stored upload and its PDF; either may be missing while conversion runs or after it failed. */
export interface DocumentObjects {
  fileKey: string | null;
  pdfKey: string | null;
}

/**
 * Document answers and the storage keys issued for their uploads. Every query names the account,
 * so another applicant's keys reach nothing. Methods run on the database unless given a
 * transaction (`tx`).
 */
export function createDocumentsStore(db: AppDatabase) {
  const answerOf = (accountId: string, answerKey: string) =>
    and(eq(documentAnswers.accountId, accountId), eq(documentAnswers.answerKey, answerKey));

  return {
    /** Whether a storage key was issued for an upload and has not been used or expired. */
    async isUploadAwaited(fileKey: string, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .select({ fileKey: documentUploads.fileKey })
        .from(documentUploads)
        .where(
          and(eq(documentUploads.fileKey, fileKey), gt(documentUploads.expiresAt, sql`now()`)),
        );
      return rows.length > 0;
    },

    /** Records a storage key handed out for one answer's upload, usable for `hours`. */
    async issueUploadKey(
      upload: { fileKey: string; accountId: string; answerKey: string; hours: number },
      tx: Executor = db,
    ): Promise<void> {
      await tx.insert(documentUploads).values({
        fileKey: upload.fileKey,
        accountId: upload.accountId,
        answerKey: upload.answerKey,
        expiresAt: sql`now() + make_interval(hours => ${upload.hours})`,
      });
    },

    /** Whether that account was issued that key for that answer and it has not expired. */
    async isUploadIssuedTo(
      upload: { fileKey: string; accountId: string; answerKey: string },
      tx: Executor = db,
    ): Promise<boolean> {
      const [issued] = await tx
        .select({ fileKey: documentUploads.fileKey })
        .from(documentUploads)
        .where(
          and(
            eq(documentUploads.fileKey, upload.fileKey),
            eq(documentUploads.accountId, upload.accountId),
            eq(documentUploads.answerKey, upload.answerKey),
            gt(documentUploads.expiresAt, sql`now()`),
          ),
        );
      return Boolean(issued);
    },

    /**
     * Makes an uploaded file the answer, waiting for conversion, and spends its key; returns the
     * objects of the answer it replaced. The answer stays empty until this upload is converted.
     */
    async startAnswer(upload: {
      accountId: string;
      answerKey: string;
      fileKey: string;
      fileName: string;
      fileSize: number;
    }): Promise<DocumentObjects | null> {
      const { accountId, answerKey, fileKey } = upload;
      return db.transaction(async (tx) => {
        const [old] = await tx
          .select({ fileKey: documentAnswers.fileKey, pdfKey: documentAnswers.pdfKey })
          .from(documentAnswers)
          .where(answerOf(accountId, answerKey))
          .for('update');
        const values = {
          fileKey,
          fileName: upload.fileName,
          fileSize: upload.fileSize,
          status: 'UNPROCESSED' as const,
          message: null,
          pdfKey: null,
          updatedAt: sql`now()`,
          // Null before submit; after it, the routes let only an awaited document through.
          receivedAfterSubmitAt: sql`(select now() from ${applications} where ${applications.accountId} = ${accountId} and ${applications.submittedAt} is not null)`,
        };
        await tx
          .insert(documentAnswers)
          .values({ accountId, answerKey, ...values })
          .onConflictDoUpdate({
            target: [documentAnswers.accountId, documentAnswers.answerKey],
            set: values,
          });
        await tx.delete(documentUploads).where(eq(documentUploads.fileKey, fileKey));
        await setAnswer(tx, accountId, answerKey, '');
        return old ?? null;
      });
    },

    /** Where an answer's conversion stands; null when the question has no upload. */
    async conversionStatus(accountId: string, answerKey: string, tx: Executor = db) {
      const [row] = await tx
        .select({ status: documentAnswers.status, message: documentAnswers.message })
        .from(documentAnswers)
        .where(answerOf(accountId, answerKey));
      return row ?? null;
    },

    /** The converted documents of an account, as GET /api/document-answer lists them. */
    async completedAnswers(accountId: string, tx: Executor = db): Promise<DocumentAnswersResponse> {
      const rows = await tx
        .select({
          answerKey: documentAnswers.answerKey,
          fileName: documentAnswers.fileName,
          fileSize: documentAnswers.fileSize,
        })
        .from(documentAnswers)
        .where(
          and(eq(documentAnswers.accountId, accountId), eq(documentAnswers.status, 'COMPLETED')),
        );
      return Object.fromEntries(
        rows.map((row) => [row.answerKey, { file_name: row.fileName, file_size: row.fileSize }]),
      );
    },

    /** The storage key of an answer's PDF and the uploaded name, once converted. */
    async completedPdf(
      accountId: string,
      answerKey: string,
      tx: Executor = db,
    ): Promise<{ pdfKey: string; fileName: string } | null> {
      const [row] = await tx
        .select({ pdfKey: documentAnswers.pdfKey, fileName: documentAnswers.fileName })
        .from(documentAnswers)
        .where(and(answerOf(accountId, answerKey), eq(documentAnswers.status, 'COMPLETED')));
      return row?.pdfKey ? { pdfKey: row.pdfKey, fileName: row.fileName } : null;
    },

    /** Removes an answer's document and empties the answer; returns the objects to delete. */
    async deleteAnswer(accountId: string, answerKey: string): Promise<DocumentObjects[]> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .delete(documentAnswers)
          .where(answerOf(accountId, answerKey))
          .returning({ fileKey: documentAnswers.fileKey, pdfKey: documentAnswers.pdfKey });
        await setAnswer(tx, accountId, answerKey, '');
        return rows;
      });
    },
  };
}

export type DocumentsStore = ReturnType<typeof createDocumentsStore>;
