import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { applications, documentAnswers } from '../db/schema';

/** The row of (account, question) while it still holds this file. */
export interface ConversionRowKey {
  accountId: string;
  answerKey: string;
  fileKey: string;
}

const PENDING = ['UNPROCESSED', 'IN_PROGRESS'] as const;

const rowOf = ({ accountId, answerKey, fileKey }: ConversionRowKey) =>
  and(
    eq(documentAnswers.accountId, accountId),
    eq(documentAnswers.answerKey, answerKey),
    eq(documentAnswers.fileKey, fileKey),
  );

/**
 * Merges one answer into the application, creating the row if needed. A submitted application
 * is left alone: its answers are final.
 */
export async function setAnswer(
  tx: Pick<AppDatabase, 'execute'>,
  accountId: string,
  answerKey: string,
  value: string,
): Promise<void> {
  const patch = JSON.stringify({ [answerKey]: value });
  await tx.execute(sql`
    insert into ${applications} (account_id, answers) values (${accountId}, ${patch}::jsonb)
    on conflict (account_id) do update set answers = ${applications.answers} || ${patch}::jsonb,
      updated_at = now()
    where ${applications.submittedAt} is null`);
}

/**
 * The document rows a conversion claims and finishes. Each change holds only while the row still
 * holds its file and the expected status, so a repeated, late or duplicate run changes nothing.
 */
export function createConversionJobsStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    async isPending(row: ConversionRowKey, tx: Executor = db): Promise<boolean> {
      const [pending] = await tx
        .select({ key: documentAnswers.fileKey })
        .from(documentAnswers)
        .where(and(rowOf(row), inArray(documentAnswers.status, [...PENDING])));
      return pending !== undefined;
    },

    /** Marks a pending row FAILED; whether it was still pending. */
    async markFailed(row: ConversionRowKey, message: string, tx: Executor = db): Promise<boolean> {
      const updated = await tx
        .update(documentAnswers)
        .set({ status: 'FAILED', message, pdfKey: null, updatedAt: sql`now()` })
        .where(and(rowOf(row), inArray(documentAnswers.status, [...PENDING])))
        .returning({ fileKey: documentAnswers.fileKey });
      return updated.length > 0;
    },

    /** Marks a pending row IN_PROGRESS; its file's name, or null when it is not pending. */
    async claim(row: ConversionRowKey, tx: Executor = db): Promise<string | null> {
      const [claimed] = await tx
        .update(documentAnswers)
        .set({ status: 'IN_PROGRESS', updatedAt: sql`now()` })
        .where(and(rowOf(row), inArray(documentAnswers.status, [...PENDING])))
        .returning({ fileName: documentAnswers.fileName });
      return claimed?.fileName ?? null;
    },

    /** Marks a row in progress COMPLETED with its PDF; whether it was still in progress. */
    async markCompleted(
      row: ConversionRowKey,
      pdfKey: string,
      tx: Executor = db,
    ): Promise<boolean> {
      const updated = await tx
        .update(documentAnswers)
        .set({
          status: 'COMPLETED',
          message: null,
          pdfKey,
          updatedAt: sql`now()`,
          // An upload that finishes converting after submit was not part of what was submitted
          // (its answer stayed empty): it is kept beside the application, outside the receipt.
          receivedAfterSubmitAt: sql`coalesce(${documentAnswers.receivedAfterSubmitAt},
            (select now() from ${applications} where ${applications.accountId} = ${row.accountId}
               and ${applications.submittedAt} is not null))`,
        })
        .where(and(rowOf(row), eq(documentAnswers.status, 'IN_PROGRESS')))
        .returning({ fileKey: documentAnswers.fileKey });
      return updated.length > 0;
    },

    async setAnswer(
      accountId: string,
      answerKey: string,
      value: string,
      tx: Executor = db,
    ): Promise<void> {
      await setAnswer(tx, accountId, answerKey, value);
    },

    /** The file the row of (account, question) holds now. */
    async currentFileKey(
      accountId: string,
      answerKey: string,
      tx: Executor = db,
    ): Promise<string | null> {
      const [row] = await tx
        .select({ fileKey: documentAnswers.fileKey })
        .from(documentAnswers)
        .where(
          and(eq(documentAnswers.accountId, accountId), eq(documentAnswers.answerKey, answerKey)),
        );
      return row?.fileKey ?? null;
    },

    /** Every row left UNPROCESSED or IN_PROGRESS. */
    async pending(tx: Executor = db): Promise<ConversionRowKey[]> {
      return tx
        .select({
          accountId: documentAnswers.accountId,
          answerKey: documentAnswers.answerKey,
          fileKey: documentAnswers.fileKey,
        })
        .from(documentAnswers)
        .where(inArray(documentAnswers.status, [...PENDING]));
    },
  };
}
