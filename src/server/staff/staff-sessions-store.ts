import { and, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { SignInStage } from '../../shared/staff/staff-api';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { staffMembers, staffSessions } from '../db/schema';

function secondsInterval(seconds: number): SQL {
  return sql.raw(`interval '${Math.max(0, Math.floor(seconds))} seconds'`);
}

/** A live staff session as read on each request, with its member. */
export interface LiveStaffSessionRow {
  id: string;
  email: string;
  displayName: string;
  role: (typeof staffMembers.$inferSelect)['role'];
  totpSecret: string | null;
  method: 'password' | 'oidc';
  stage: SignInStage;
  secondFactorAt: Date | null;
  lastSeenAt: Date;
}

/** Staff sessions, kept by the SHA-256 of their token. */
export function createStaffSessionsStore(db: AppDatabase) {
  return {
    /**
     * The session of that hash and its member, if the session is live (not revoked, expired or
     * idle longer than `idleSeconds`) and the member not disabled: one statement per request.
     */
    async findLive(
      tokenHash: string,
      idleSeconds: number,
      tx: Executor = db,
    ): Promise<LiveStaffSessionRow | null> {
      const [row] = await tx
        .select({
          id: staffMembers.id,
          email: staffMembers.email,
          displayName: staffMembers.displayName,
          role: staffMembers.role,
          totpSecret: staffMembers.totpSecret,
          method: staffSessions.method,
          stage: staffSessions.stage,
          secondFactorAt: staffSessions.secondFactorAt,
          lastSeenAt: staffSessions.lastSeenAt,
        })
        .from(staffSessions)
        .innerJoin(staffMembers, eq(staffMembers.id, staffSessions.staffId))
        .where(
          sql`${staffSessions.tokenHash} = ${tokenHash} and ${staffSessions.revokedAt} is null
          and ${staffSessions.expiresAt} > now() and ${staffSessions.lastSeenAt} > now() - ${secondsInterval(idleSeconds)}
          and ${staffMembers.disabledAt} is null`,
        );
      return row ?? null;
    },

    async touch(tokenHash: string, tx: Executor = db): Promise<void> {
      await tx
        .update(staffSessions)
        .set({ lastSeenAt: sql`now()` })
        .where(eq(staffSessions.tokenHash, tokenHash));
    },

    async insert(
      values: {
        tokenHash: string;
        staffId: string;
        stage: SignInStage;
        method: 'password' | 'oidc';
        secondFactorAt: Date | null;
        expiresAt: Date;
      },
      tx: Executor = db,
    ): Promise<void> {
      await tx.insert(staffSessions).values(values);
    },

    /** Stamps a second factor now; when the database says now was. */
    async markSecondFactor(tokenHash: string, tx: Executor = db): Promise<Date | null> {
      const [row] = await tx
        .update(staffSessions)
        .set({ secondFactorAt: sql`now()` })
        .where(eq(staffSessions.tokenHash, tokenHash))
        .returning({ at: staffSessions.secondFactorAt });
      return row?.at ?? null;
    },

    async revoke(tokenHash: string, tx: Executor = db): Promise<void> {
      await tx
        .update(staffSessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(staffSessions.tokenHash, tokenHash), isNull(staffSessions.revokedAt)));
    },

    /** Ends every live session of a member but the one of `keepTokenHash`, if given. */
    async revokeAllOf(staffId: string, keepTokenHash?: string, tx: Executor = db): Promise<void> {
      await tx
        .update(staffSessions)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            eq(staffSessions.staffId, staffId),
            isNull(staffSessions.revokedAt),
            keepTokenHash ? ne(staffSessions.tokenHash, keepTokenHash) : undefined,
          ),
        );
    },
  };
}
