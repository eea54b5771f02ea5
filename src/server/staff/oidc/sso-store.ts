import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { sha256 } from '../../accounts/secrets';
import type { AppDatabase } from '../../db/database';
import type { Executor } from '../../db/executor';
import { oidcSignIns, staffInvitations, staffSessions } from '../../db/schema';
import { SIGN_IN_MINUTES } from './identity-provider';

/** The queries of single sign-on: attempts in progress, invitations, step-up of a session. */
export function createSsoStore(db: AppDatabase) {
  return {
    async savePending(values: {
      state: string;
      nonce: string;
      codeVerifier: string;
      stepUpSession: string | null;
    }): Promise<void> {
      // Attempts nobody finished go a day after they expired.
      await db.delete(oidcSignIns).where(sql`${oidcSignIns.expiresAt} < now() - interval '1 day'`);
      await db.insert(oidcSignIns).values({
        stateHash: sha256(values.state),
        nonce: values.nonce,
        codeVerifier: values.codeVerifier,
        stepUpSession: values.stepUpSession,
        expiresAt: new Date(Date.now() + SIGN_IN_MINUTES * 60_000),
      });
    },

    /** Uses a live attempt up and returns it; null if unknown, expired or already used. */
    async takePending(state: string) {
      const [row] = await db
        .update(oidcSignIns)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(oidcSignIns.stateHash, sha256(state)),
            isNull(oidcSignIns.usedAt),
            gt(oidcSignIns.expiresAt, sql`now()`),
          ),
        )
        .returning();
      return row ?? null;
    },

    /** Whether an administrator ever invited the member (as opposed to the role mapping). */
    async wasInvited(staffId: string, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .select({ staffId: staffInvitations.staffId })
        .from(staffInvitations)
        .where(eq(staffInvitations.staffId, staffId))
        .limit(1);
      return rows.length === 1;
    },

    /** The member of a live, signed-in session, found by its hash (the cookie may not come back). */
    async liveSessionMember(sessionHash: string): Promise<string | null> {
      const [row] = await db
        .select({ staffId: staffSessions.staffId })
        .from(staffSessions)
        .where(
          and(
            eq(staffSessions.tokenHash, sessionHash),
            eq(staffSessions.stage, 'signed_in'),
            isNull(staffSessions.revokedAt),
            gt(staffSessions.expiresAt, sql`now()`),
          ),
        );
      return row?.staffId ?? null;
    },

    /** Records a fresh authentication at the provider as the session's second factor. */
    async markStepUp(sessionHash: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(staffSessions)
        .set({ secondFactorAt: at })
        .where(and(eq(staffSessions.tokenHash, sessionHash), isNull(staffSessions.revokedAt)))
        .returning({ staffId: staffSessions.staffId });
      return rows.length === 1;
    },
  };
}

export type SsoStore = ReturnType<typeof createSsoStore>;
