import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/executor';
import { accounts, applicationReceipts, applications, documentAnswers } from '../db/schema';

/*
 * Receipts. Plain functions whose first argument is the database or a caller's transaction
 * (`tx`). The receipt and its sequence are written by the submit's own statement
 * (`submit` in the applications store).
 */

export type ReceiptRow = typeof applicationReceipts.$inferSelect;

/**
 * `confirmationNumber` in SQL, for the statement that takes the sequence: the prefix, the cycle
 * and the sequence in six digits at least (a seventh when it grows past them, never cut).
 */
export function confirmationNumberSql(prefix: SQL, cycle: SQL, sequence: SQL): SQL {
  return sql`(${prefix})::text || '-' || (${cycle})::text || '-' ||
    lpad((${sequence})::text, greatest(6, length((${sequence})::text)), '0')`;
}

export async function findReceipt(tx: Executor, accountId: string): Promise<ReceiptRow | null> {
  const [row] = await tx
    .select()
    .from(applicationReceipts)
    .where(eq(applicationReceipts.accountId, accountId));
  return row ?? null;
}

/**
 * The documents that count as submitted: converted ones, except those received after submit
 * (a conversion that finished late, an item sent for the checklist), which are not fingerprinted.
 */
export async function submittedDocuments(
  tx: Executor,
  accountId: string,
): Promise<{ answerKey: string; pdfKey: string | null }[]> {
  return tx
    .select({ answerKey: documentAnswers.answerKey, pdfKey: documentAnswers.pdfKey })
    .from(documentAnswers)
    .where(
      and(
        eq(documentAnswers.accountId, accountId),
        eq(documentAnswers.status, 'COMPLETED'),
        isNull(documentAnswers.receivedAfterSubmitAt),
      ),
    );
}

/** The application as stored (what staff read), with the applicant's email. */
export async function storedApplication(tx: Executor, accountId: string) {
  const [row] = await tx
    .select({
      answers: applications.answers,
      tabs: applications.tabs,
      addAnother: applications.addAnother,
      submittedAt: applications.submittedAt,
      email: accounts.email,
    })
    .from(applications)
    .innerJoin(accounts, eq(accounts.id, applications.accountId))
    .where(eq(applications.accountId, accountId));
  return row ?? null;
}
