import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/executor';
import {
  accounts,
  applicationReceipts,
  applications,
  documentAnswers,
  receiptSequences,
} from '../db/schema';

/*
 * Receipts and their sequences. Plain functions whose first argument is the database or a
 * caller's transaction (`tx`): the receipt is written in the submit's own transaction.
 */

export type ReceiptRow = typeof applicationReceipts.$inferSelect;

/**
 * The next sequence of a cycle. The upsert takes the cycle's row lock until the transaction
 * ends, so concurrent submits queue on it: numbers are unique, and a submit that rolls back
 * takes its number back with it (no gaps).
 */
export async function nextSequence(tx: Executor, cycle: string): Promise<number> {
  const [row] = await tx
    .insert(receiptSequences)
    .values({ cycle, last: 1 })
    .onConflictDoUpdate({
      target: receiptSequences.cycle,
      set: { last: sql`${receiptSequences.last} + 1` },
    })
    .returning({ last: receiptSequences.last });
  if (!row) throw new Error(`no sequence for cycle ${cycle}`);
  return row.last;
}

/** Stores a receipt stamped with the transaction's time, the application's submitted_at too. */
export async function insertReceipt(
  tx: Executor,
  receipt: Omit<ReceiptRow, 'submittedAt' | 'reminderSentAt'>,
): Promise<ReceiptRow> {
  const [row] = await tx
    .insert(applicationReceipts)
    .values({ ...receipt, submittedAt: sql`now()` })
    .returning();
  if (!row) throw new Error('receipt not stored');
  return row;
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
