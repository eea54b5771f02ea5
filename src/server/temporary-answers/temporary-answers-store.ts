import { eq, lt, sql } from 'drizzle-orm';
import type { Answers } from '../../shared/form/model';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { temporaryAnswerSets } from '../db/schema';

export interface TemporaryAnswerSetRow {
  answers: unknown;
  label: string | null;
  expiresAt: Date;
  /** Judged by the database clock, as the clean-up is. */
  live: boolean;
}

/** Temporary answer sets, kept by the SHA-256 of their token. */
export function createTemporaryAnswersStore(db: AppDatabase) {
  return {
    async insert(
      values: { tokenHash: string; answers: Answers; label: string | null; expiresAt: Date },
      tx: Executor = db,
    ): Promise<void> {
      await tx.insert(temporaryAnswerSets).values(values);
    },

    async deleteExpiredBefore(keptDays: number, tx: Executor = db): Promise<void> {
      await tx
        .delete(temporaryAnswerSets)
        .where(lt(temporaryAnswerSets.expiresAt, sql`now() - make_interval(days => ${keptDays})`));
    },

    async findByTokenHash(
      tokenHash: string,
      tx: Executor = db,
    ): Promise<TemporaryAnswerSetRow | null> {
      const [row] = await tx
        .select({
          answers: temporaryAnswerSets.answers,
          label: temporaryAnswerSets.label,
          expiresAt: temporaryAnswerSets.expiresAt,
          live: sql<boolean>`${temporaryAnswerSets.expiresAt} > now()`,
        })
        .from(temporaryAnswerSets)
        .where(eq(temporaryAnswerSets.tokenHash, tokenHash));
      return row ?? null;
    },
  };
}
