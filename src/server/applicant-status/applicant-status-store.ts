import { and, asc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Answers } from '../../shared/form/model';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import {
  accounts,
  applicationReceipts,
  applications,
  checklistCounts,
  documentAnswers,
} from '../db/schema';

/** What the status page and a late upload need of an application as submitted. */
export interface SubmittedApplication {
  submitted: boolean;
  /** The answers as submitted (final once submitted). */
  answers: Answers;
  /** The answer keys whose documents the receipt fingerprinted, when there is a receipt. */
  receiptDocuments: readonly string[];
}

/** An application due for the missing-item reminder. */
export interface ReminderCandidate {
  accountId: string;
  email: string;
}

/**
 * The applicant's status: the application as submitted and the reminder of missing items. Every
 * method runs on the database unless given a transaction.
 */
export function createApplicantStatusStore(db: AppDatabase) {
  return {
    /** The state of the document of one file question, null when none was ever started. */
    async documentStatus(accountId: string, answerKey: string, tx: Executor = db) {
      const [row] = await tx
        .select({ status: documentAnswers.status })
        .from(documentAnswers)
        .where(
          and(eq(documentAnswers.accountId, accountId), eq(documentAnswers.answerKey, answerKey)),
        );
      return row?.status ?? null;
    },

    /** Null when the account has no application row. */
    async submittedApplication(
      accountId: string,
      tx: Executor = db,
    ): Promise<SubmittedApplication | null> {
      const [row] = await tx
        .select({
          submittedAt: applications.submittedAt,
          answers: applications.answers,
          receiptDocuments: applicationReceipts.documents,
        })
        .from(applications)
        .leftJoin(applicationReceipts, eq(applicationReceipts.accountId, applications.accountId))
        .where(eq(applications.accountId, accountId));
      if (!row) return null;
      return {
        submitted: row.submittedAt !== null,
        answers: row.answers,
        receiptDocuments: Object.keys(row.receiptDocuments ?? {}),
      };
    },

    /**
     * Receipts submitted at or before `submittedBefore` and not yet reminded, in account order
     * after `after`. Applications whose count says nothing is missing are left out: with nothing
     * missing there is nothing to remind of (a missing count is read as "maybe").
     */
    async reminderCandidates(
      options: { submittedBefore: Date; after: string | null; limit: number },
      tx: Executor = db,
    ): Promise<ReminderCandidate[]> {
      const r = applicationReceipts;
      return tx
        .select({ accountId: r.accountId, email: accounts.email })
        .from(r)
        .innerJoin(accounts, eq(accounts.id, r.accountId))
        .leftJoin(checklistCounts, eq(checklistCounts.accountId, r.accountId))
        .where(
          and(
            isNull(r.reminderSentAt),
            lte(r.submittedAt, options.submittedBefore),
            or(isNull(checklistCounts.accountId), gt(checklistCounts.missing, 0)),
            options.after ? gt(r.accountId, options.after) : undefined,
          ),
        )
        .orderBy(asc(r.accountId))
        .limit(options.limit);
    },

    /**
     * Marks the reminder sent, once: true only for the caller whose update found it unsent, so
     * two servers sweeping at once never both send it.
     */
    async claimReminder(accountId: string, now: Date, tx: Executor = db): Promise<boolean> {
      const claimed = await tx
        .update(applicationReceipts)
        .set({ reminderSentAt: sql`${now.toISOString()}::timestamptz` })
        .where(
          and(
            eq(applicationReceipts.accountId, accountId),
            isNull(applicationReceipts.reminderSentAt),
          ),
        )
        .returning({ accountId: applicationReceipts.accountId });
      return claimed.length > 0;
    },
  };
}

export type ApplicantStatusStore = ReturnType<typeof createApplicantStatusStore>;
