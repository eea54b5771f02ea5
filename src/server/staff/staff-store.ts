import { and, asc, eq, gt, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { normaliseUsername } from '../../shared/accounts/account-forms';
import type { StaffRole } from '../../shared/staff/permissions';
import type { StaffMemberSummary } from '../../shared/staff/staff-api';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { staffInvitations, staffMembers, staffRecoveryCodes } from '../db/schema';

export type StaffMember = typeof staffMembers.$inferSelect;

export function memberStatus(member: StaffMember): StaffMemberSummary['status'] {
  if (member.disabledAt) return 'disabled';
  if (member.totpSecret || member.oidcSubject) return 'active';
  return 'invited';
}

export function memberSummary(member: StaffMember): StaffMemberSummary {
  return {
    id: member.id,
    email: member.email,
    display_name: member.displayName,
    role: member.role,
    status: memberStatus(member),
    method: member.oidcSubject ? 'oidc' : member.totpSecret ? 'password' : null,
    last_sign_in_at: member.lastSignInAt?.toISOString() ?? null,
    created_at: member.createdAt.toISOString(),
  };
}

/**
 * Staff members, their invitations and recovery codes. Every method runs on the database unless
 * given a transaction, so a route can make several calls commit together.
 */
export function createStaffStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    async findByEmail(email: string, tx: Executor = db): Promise<StaffMember | null> {
      const [member] = await tx
        .select()
        .from(staffMembers)
        .where(eq(sql`lower(${staffMembers.email})`, normaliseUsername(email)));
      return member ?? null;
    },

    async findById(id: string, tx: Executor = db): Promise<StaffMember | null> {
      const [member] = await tx.select().from(staffMembers).where(eq(staffMembers.id, id));
      return member ?? null;
    },

    async findByOidcSubject(
      issuer: string,
      subject: string,
      tx: Executor = db,
    ): Promise<StaffMember | null> {
      const [member] = await tx
        .select()
        .from(staffMembers)
        .where(and(eq(staffMembers.oidcIssuer, issuer), eq(staffMembers.oidcSubject, subject)));
      return member ?? null;
    },

    async list(tx: Executor = db): Promise<StaffMember[]> {
      return tx
        .select()
        .from(staffMembers)
        .orderBy(asc(sql`lower(${staffMembers.email})`));
    },

    /**
     * A new member, or the existing one of that address. An existing member keeps their role
     * once they have signed in (a role changes through the role change, with its checks); one
     * who never finished setting up takes the role of the new invitation.
     */
    async upsertInvited(
      values: { email: string; role: StaffRole; displayName?: string },
      tx: Executor = db,
    ): Promise<StaffMember> {
      const email = normaliseUsername(values.email);
      const existing = await this.findByEmail(email, tx);
      if (existing) {
        const changes = {
          ...(memberStatus(existing) === 'invited' ? { role: values.role } : {}),
          ...(values.displayName ? { displayName: values.displayName } : {}),
        };
        if (Object.keys(changes).length === 0) return existing;
        const [member] = await tx
          .update(staffMembers)
          .set(changes)
          .where(eq(staffMembers.id, existing.id))
          .returning();
        return member ?? existing;
      }
      const [member] = await tx
        .insert(staffMembers)
        .values({ email, role: values.role, displayName: values.displayName ?? '' })
        .returning();
      if (!member) throw new Error('staff member not created');
      return member;
    },

    async update(
      id: string,
      values: Partial<Omit<StaffMember, 'id' | 'createdAt'>>,
      tx: Executor = db,
    ): Promise<StaffMember | null> {
      const [member] = await tx
        .update(staffMembers)
        .set(values)
        .where(eq(staffMembers.id, id))
        .returning();
      return member ?? null;
    },

    /** Counts a failed sign-in or code; returns the count since the last success. */
    async countFailure(id: string, tx: Executor = db): Promise<number> {
      const [row] = await tx
        .update(staffMembers)
        .set({ failedSignIns: sql`${staffMembers.failedSignIns} + 1` })
        .where(eq(staffMembers.id, id))
        .returning({ failures: staffMembers.failedSignIns });
      return row?.failures ?? 0;
    },

    /**
     * Accepts a TOTP time step only if it is later than the last one accepted: a code seen once
     * (over a shoulder, in a phishing proxy) never works again. False when it was not later.
     */
    async acceptTotpStep(id: string, step: number, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .update(staffMembers)
        .set({ totpLastStep: step })
        .where(
          and(
            eq(staffMembers.id, id),
            sql`(${staffMembers.totpLastStep} is null or ${staffMembers.totpLastStep} < ${step})`,
          ),
        )
        .returning({ id: staffMembers.id });
      return rows.length === 1;
    },

    /** A new one-time invitation; earlier unused ones of the member stop working. */
    async replaceInvitation(
      staffId: string,
      tokenHash: string,
      expiresAt: Date,
      tx: Executor = db,
    ): Promise<void> {
      await tx
        .update(staffInvitations)
        .set({ usedAt: sql`now()` })
        .where(and(eq(staffInvitations.staffId, staffId), isNull(staffInvitations.usedAt)));
      await tx.insert(staffInvitations).values({ tokenHash, staffId, expiresAt });
    },

    /** The member of a live (unused, unexpired) invitation. */
    async liveInvitation(tokenHash: string, tx: Executor = db): Promise<StaffMember | null> {
      const [row] = await tx
        .select({ member: staffMembers })
        .from(staffInvitations)
        .innerJoin(staffMembers, eq(staffMembers.id, staffInvitations.staffId))
        .where(
          and(
            eq(staffInvitations.tokenHash, tokenHash),
            isNull(staffInvitations.usedAt),
            gt(staffInvitations.expiresAt, sql`now()`),
            isNull(staffMembers.disabledAt),
          ),
        );
      return row?.member ?? null;
    },

    /** Uses an invitation up; false if another request used it first. */
    async spendInvitation(tokenHash: string, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .update(staffInvitations)
        .set({ usedAt: sql`now()` })
        .where(and(eq(staffInvitations.tokenHash, tokenHash), isNull(staffInvitations.usedAt)))
        .returning({ tokenHash: staffInvitations.tokenHash });
      return rows.length === 1;
    },

    async replaceRecoveryCodes(staffId: string, hashes: string[], tx: Executor = db) {
      await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
      if (hashes.length === 0) return;
      await tx.insert(staffRecoveryCodes).values(hashes.map((codeHash) => ({ codeHash, staffId })));
    },

    /** Uses a recovery code up; returns how many remain, or null if it was not a live code. */
    async spendRecoveryCode(staffId: string, codeHash: string, tx: Executor = db) {
      const rows = await tx
        .update(staffRecoveryCodes)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(staffRecoveryCodes.staffId, staffId),
            eq(staffRecoveryCodes.codeHash, codeHash),
            isNull(staffRecoveryCodes.usedAt),
          ),
        )
        .returning({ codeHash: staffRecoveryCodes.codeHash });
      if (rows.length !== 1) return null;
      const [left] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(staffRecoveryCodes)
        .where(and(eq(staffRecoveryCodes.staffId, staffId), isNull(staffRecoveryCodes.usedAt)));
      return left?.count ?? 0;
    },

    /** Serialises changes to roles and disabling, so two admins cannot demote each other at once. */
    async lockMembers(tx: Executor): Promise<void> {
      await tx.execute(sql`lock table ${staffMembers} in share row exclusive mode`);
    },

    /** Admins who can sign in: not disabled, and set up (an authenticator or single sign-on). */
    async activeAdminCount(tx: Executor = db): Promise<number> {
      const [row] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(staffMembers)
        .where(
          and(
            eq(staffMembers.role, 'admin'),
            isNull(staffMembers.disabledAt),
            or(isNotNull(staffMembers.totpSecret), isNotNull(staffMembers.oidcSubject)),
          ),
        );
      return row?.count ?? 0;
    },
  };
}

export type StaffStore = ReturnType<typeof createStaffStore>;
