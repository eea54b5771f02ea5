import { and, eq, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { sessions } from '../db/schema';

/** A condition on the sessions table, for a store to join into its own statement. */
export type SessionCondition = SQL;
/** A token's hash, or a placeholder of a prepared statement that will carry it. */
export type TokenHashValue = string | SQLWrapper;

/** An interval literal from a whole number of seconds; a literal lets the plan be reused. */
function secondsInterval(seconds: number): SQL {
  return sql.raw(`interval '${Math.max(0, Math.floor(seconds))} seconds'`);
}

/** Applicants' sessions, kept by the SHA-256 of their token. */
export function createSessionsStore(db: AppDatabase) {
  return {
    /** What a live session of that hash meets: not revoked, not expired, not idle too long. */
    liveCondition(tokenHash: TokenHashValue, idleSeconds: number): SessionCondition {
      return sql`${sessions.tokenHash} = ${tokenHash} and ${sessions.revokedAt} is null
        and ${sessions.expiresAt} > now() and ${sessions.lastSeenAt} > now() - ${secondsInterval(idleSeconds)}`;
    },

    async insert(
      values: { tokenHash: string; accountId: string; expiresAt: Date },
      tx: Executor = db,
    ): Promise<void> {
      await tx.insert(sessions).values(values);
    },

    async findLive(
      condition: SessionCondition,
      tx: Executor = db,
    ): Promise<{ accountId: string; lastSeenAt: Date } | null> {
      const [row] = await tx
        .select({ accountId: sessions.accountId, lastSeenAt: sessions.lastSeenAt })
        .from(sessions)
        .where(condition);
      return row ?? null;
    },

    async touch(tokenHash: string, tx: Executor = db): Promise<void> {
      await tx
        .update(sessions)
        .set({ lastSeenAt: sql`now()` })
        .where(eq(sessions.tokenHash, tokenHash));
    },

    async revoke(tokenHash: string, tx: Executor = db): Promise<void> {
      await tx
        .update(sessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
    },

    async revokeAllOf(accountId: string, tx: Pick<Executor, 'update'> = db): Promise<void> {
      await tx
        .update(sessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(sessions.accountId, accountId), isNull(sessions.revokedAt)));
    },
  };
}
