import { asc, eq, sql } from 'drizzle-orm';
import type { Answers } from '../../shared/form/model';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { applications, courseworkTotals, courseworkUpdates } from '../db/schema';

/** The submitted application a coursework update reads: its answers and what decides the shown. */
export interface SubmittedApplication {
  answers: Answers;
  tabs: Record<string, string>;
  addAnother: Record<string, number>;
  submittedAt: Date | null;
}

export interface CourseworkUpdateRow {
  key: string;
  answer: string;
  createdAt: Date;
}

export interface CourseworkTotalsRow {
  gpa: string | null;
  transferUnits: string;
  inProgressUnits: string;
  updatedAt: Date;
}

/**
 * Coursework after submit: each update is a row of its own (the grid after it, dated) and the
 * totals are rewritten; the application's answers are only read. Methods run on the database
 * unless given a transaction (`tx`).
 */
export function createCourseworkUpdatesStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /**
     * The account's application; null when it has none. `lock` holds the row until the
     * transaction ends, so two updates of one applicant follow one another.
     */
    async application(
      accountId: string,
      tx: Executor = db,
      options: { lock?: boolean } = {},
    ): Promise<SubmittedApplication | null> {
      const query = tx
        .select({
          answers: applications.answers,
          tabs: applications.tabs,
          addAnother: applications.addAnother,
          submittedAt: applications.submittedAt,
        })
        .from(applications)
        .where(eq(applications.accountId, accountId));
      const [row] = options.lock ? await query.for('update') : await query;
      return row ? { ...row, answers: row.answers as Answers } : null;
    },

    /** Every update of the account, oldest first. */
    async updatesOf(accountId: string, tx: Executor = db): Promise<CourseworkUpdateRow[]> {
      return tx
        .select({
          key: courseworkUpdates.answerKey,
          answer: courseworkUpdates.answer,
          createdAt: courseworkUpdates.createdAt,
        })
        .from(courseworkUpdates)
        .where(eq(courseworkUpdates.accountId, accountId))
        .orderBy(asc(courseworkUpdates.createdAt), asc(courseworkUpdates.id));
    },

    /**
     * Adds an update. Dated by the clock, not the transaction's start: behind the row lock of
     * `application`, a later update is always dated later than the one it waited for.
     */
    async addUpdate(
      accountId: string,
      update: { key: string; answer: string },
      tx: Executor = db,
    ): Promise<Date> {
      const [row] = await tx
        .insert(courseworkUpdates)
        .values({
          accountId,
          answerKey: update.key,
          answer: update.answer,
          createdAt: sql`clock_timestamp()`,
        })
        .returning({ createdAt: courseworkUpdates.createdAt });
      if (!row) throw new Error('the coursework update was not stored');
      return row.createdAt;
    },

    /** Writes the account's totals (`3.45`, `60.00`), replacing those of the submit. */
    async saveTotals(
      accountId: string,
      totals: { gpa: string | null; transferUnits: string; inProgressUnits: string },
      tx: Executor = db,
    ): Promise<void> {
      const values = {
        transferGpa: totals.gpa,
        transferUnits: totals.transferUnits,
        inProgressUnits: totals.inProgressUnits,
      };
      await tx
        .insert(courseworkTotals)
        .values({ accountId, ...values })
        .onConflictDoUpdate({
          target: courseworkTotals.accountId,
          set: { ...values, updatedAt: sql`now()` },
        });
    },

    async totalsOf(accountId: string, tx: Executor = db): Promise<CourseworkTotalsRow | null> {
      const [row] = await tx
        .select({
          gpa: courseworkTotals.transferGpa,
          transferUnits: courseworkTotals.transferUnits,
          inProgressUnits: courseworkTotals.inProgressUnits,
          updatedAt: courseworkTotals.updatedAt,
        })
        .from(courseworkTotals)
        .where(eq(courseworkTotals.accountId, accountId));
      return row ?? null;
    },
  };
}

export type CourseworkUpdatesStore = ReturnType<typeof createCourseworkUpdatesStore>;
