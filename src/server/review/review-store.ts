import { and, desc, eq, sql } from 'drizzle-orm';
import type { ReadRound, ReadStatus } from '../../shared/review/review-api';
import { type AppDatabase, rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import {
  applicationNotes,
  applicationReceipts,
  applications,
  reviewReads,
  staffMembers,
} from '../db/schema';

export type ReadRow = typeof reviewReads.$inferSelect;
export interface ReadWithReader extends ReadRow {
  readerName: string | null;
}

export interface NoteRow {
  id: string;
  author: string;
  body: string;
  createdAt: Date;
}

/** One application's first and second submitted reads, for the agreement between readers. */
export interface ReadPair {
  cycle: string | null;
  firstScore: number | null;
  secondScore: number | null;
  firstAnswers: Record<string, string | boolean>;
  secondAnswers: Record<string, string | boolean>;
  firstFormCycle: string;
}

const readerName = sql<
  string | null
>`nullif(coalesce(nullif(${staffMembers.displayName}, ''), ${staffMembers.email}), '')`;

/**
 * The reading tables: reads of an application and staff's internal notes. Every method runs on
 * the database unless given a transaction.
 */
export function createReviewStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** Whether the application exists, is submitted, and its receipt's cycle (`FA26`). */
    async application(
      accountId: string,
      tx: Executor = db,
    ): Promise<{ submitted: boolean; cycle: string | null } | null> {
      const [row] = await tx
        .select({ submittedAt: applications.submittedAt, cycle: applicationReceipts.cycle })
        .from(applications)
        .leftJoin(applicationReceipts, eq(applicationReceipts.accountId, applications.accountId))
        .where(eq(applications.accountId, accountId));
      return row ? { submitted: row.submittedAt !== null, cycle: row.cycle ?? null } : null;
    },

    /** Every read of an application, first round first, with the reader's name. */
    async readsOf(accountId: string, tx: Executor = db): Promise<ReadWithReader[]> {
      const rows = await tx
        .select({ read: reviewReads, readerName })
        .from(reviewReads)
        .leftJoin(staffMembers, eq(staffMembers.id, reviewReads.readerId))
        .where(eq(reviewReads.accountId, accountId))
        .orderBy(
          sql`case ${reviewReads.round} when 'first' then 1 when 'second' then 2 else 3 end`,
        );
      return rows.map(({ read, readerName: name }) => ({ ...read, readerName: name }));
    },

    /** One read; `lock` holds its row until the transaction ends. */
    async read(readId: string, tx: Executor = db, lock = false): Promise<ReadRow | null> {
      const query = tx.select().from(reviewReads).where(eq(reviewReads.id, readId));
      const [row] = lock ? await query.for('update') : await query;
      return row ?? null;
    },

    /** Holds the application's reads while one is started or submitted (one at a time). */
    async lockApplication(accountId: string, tx: Executor): Promise<void> {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`review:${accountId}`}, 0))`,
      );
    },

    async insertRead(
      values: {
        accountId: string;
        round: ReadRound;
        readerId: string | null;
        formCycle: string;
        formVersion: number;
        assignedBy: string;
      },
      tx: Executor = db,
    ): Promise<ReadRow> {
      const [row] = await tx.insert(reviewReads).values(values).returning();
      if (!row) throw new Error('the read was not inserted');
      return row;
    },

    /** Gives a read waiting for a reader to this member. */
    async claim(readId: string, readerId: string, tx: Executor = db): Promise<ReadRow | null> {
      const [row] = await tx
        .update(reviewReads)
        .set({ readerId, assignedAt: sql`now()` })
        .where(and(eq(reviewReads.id, readId), sql`${reviewReads.readerId} is null`))
        .returning();
      return row ?? null;
    },

    async saveDraft(
      readId: string,
      answers: Record<string, string | boolean>,
      tx: Executor = db,
    ): Promise<ReadRow | null> {
      const [row] = await tx
        .update(reviewReads)
        .set({ answers, status: 'draft' satisfies ReadStatus, savedAt: sql`now()` })
        .where(and(eq(reviewReads.id, readId), sql`${reviewReads.status} <> 'submitted'`))
        .returning();
      return row ?? null;
    },

    async submit(
      readId: string,
      result: { score: number | null; recommendation: string | null },
      tx: Executor = db,
    ): Promise<ReadRow | null> {
      const [row] = await tx
        .update(reviewReads)
        .set({
          status: 'submitted' satisfies ReadStatus,
          score: result.score,
          recommendation: result.recommendation,
          submittedAt: sql`now()`,
        })
        .where(and(eq(reviewReads.id, readId), sql`${reviewReads.status} <> 'submitted'`))
        .returning();
      return row ?? null;
    },

    /** Applications with a submitted first and second read, each with its receipt's cycle. */
    async firstAndSecondPairs(tx: Executor = db): Promise<ReadPair[]> {
      const rows = rowsOf<{
        cycle: string | null;
        first_score: string | number | null;
        second_score: string | number | null;
        first_answers: Record<string, string | boolean>;
        second_answers: Record<string, string | boolean>;
        first_form_cycle: string;
      }>(
        await tx.execute(sql`
          select r.cycle, f.score as first_score, s.score as second_score,
                 f.answers as first_answers, s.answers as second_answers,
                 f.form_cycle as first_form_cycle
          from ${reviewReads} f
          join ${reviewReads} s on s.account_id = f.account_id and s.round = 'second'
            and s.status = 'submitted'
          left join ${applicationReceipts} r on r.account_id = f.account_id
          where f.round = 'first' and f.status = 'submitted'`),
      );
      const num = (value: string | number | null) => (value === null ? null : Number(value));
      return rows.map((row) => ({
        cycle: row.cycle,
        firstScore: num(row.first_score),
        secondScore: num(row.second_score),
        firstAnswers: row.first_answers,
        secondAnswers: row.second_answers,
        firstFormCycle: row.first_form_cycle,
      }));
    },

    /** An application's notes, newest first. */
    async notesOf(accountId: string, tx: Executor = db): Promise<NoteRow[]> {
      return tx
        .select({
          id: applicationNotes.id,
          author: applicationNotes.authorLabel,
          body: applicationNotes.body,
          createdAt: applicationNotes.createdAt,
        })
        .from(applicationNotes)
        .where(eq(applicationNotes.accountId, accountId))
        .orderBy(desc(applicationNotes.createdAt), desc(applicationNotes.id));
    },

    async addNote(
      values: { accountId: string; authorId: string; authorLabel: string; body: string },
      tx: Executor = db,
    ): Promise<NoteRow> {
      const [row] = await tx.insert(applicationNotes).values(values).returning({
        id: applicationNotes.id,
        author: applicationNotes.authorLabel,
        body: applicationNotes.body,
        createdAt: applicationNotes.createdAt,
      });
      if (!row) throw new Error('the note was not inserted');
      return row;
    },

    /** How many notes an application has and its latest, for the application's history. */
    async noteSummary(
      accountId: string,
      tx: Executor = db,
    ): Promise<{ count: number; latest: NoteRow | null }> {
      const [counted] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(applicationNotes)
        .where(eq(applicationNotes.accountId, accountId));
      const [latest] = await this.notesOf(accountId, tx);
      return { count: Number(counted?.count ?? 0), latest: latest ?? null };
    },
  };
}

export type ReviewStore = ReturnType<typeof createReviewStore>;
