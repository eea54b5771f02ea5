import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { normaliseUsername } from '../../shared/accounts/account-forms';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { accounts, applications, serviceTokens, staffMembers } from '../db/schema';

export type ServiceLinkRow = Pick<
  typeof serviceTokens.$inferSelect,
  'id' | 'createdAt' | 'expiresAt' | 'revokedAt'
> & { createdBy: string | null };

const linkColumns = {
  id: serviceTokens.id,
  createdAt: serviceTokens.createdAt,
  expiresAt: serviceTokens.expiresAt,
  revokedAt: serviceTokens.revokedAt,
  /** The creator's address: ids mean nothing to the person reading the list. */
  createdBy: staffMembers.email,
};

/** Read-only link tokens, kept by the SHA-256 of the token, and the applicants they reach. */
export function createServiceTokensStore(db: AppDatabase) {
  return {
    async findApplicant(
      email: string,
      tx: Executor = db,
    ): Promise<{ accountId: string; email: string; submittedAt: Date | null } | null> {
      const [row] = await tx
        .select({
          accountId: accounts.id,
          email: accounts.email,
          submittedAt: applications.submittedAt,
        })
        .from(accounts)
        .leftJoin(applications, eq(applications.accountId, accounts.id))
        .where(eq(sql`lower(${accounts.email})`, normaliseUsername(email)));
      return row ?? null;
    },

    async accountExists(accountId: string, tx: Executor = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(eq(accounts.id, accountId));
      return row !== undefined;
    },

    async insert(
      values: { tokenHash: string; accountId: string; expiresAt: Date; createdBy: string | null },
      tx: Executor = db,
    ): Promise<{ id: string; createdAt: Date } | null> {
      const [row] = await tx
        .insert(serviceTokens)
        .values(values)
        .returning({ id: serviceTokens.id, createdAt: serviceTokens.createdAt });
      return row ?? null;
    },

    /** Every link to one application, newest first, with its creator's address. */
    async listLinks(accountId: string, tx: Executor = db): Promise<ServiceLinkRow[]> {
      return tx
        .select(linkColumns)
        .from(serviceTokens)
        .leftJoin(staffMembers, eq(staffMembers.id, serviceTokens.createdBy))
        .where(eq(serviceTokens.accountId, accountId))
        .orderBy(desc(serviceTokens.createdAt), desc(serviceTokens.id));
    },

    /** Ends the link if it is one of this application's; whether it was. */
    async revokeLink(accountId: string, linkId: string, tx: Executor = db): Promise<boolean> {
      const [updated] = await tx
        .update(serviceTokens)
        .set({ revokedAt: sql`coalesce(${serviceTokens.revokedAt}, now())` })
        .where(and(eq(serviceTokens.id, linkId), eq(serviceTokens.accountId, accountId)))
        .returning({ id: serviceTokens.id });
      return updated !== undefined;
    },

    async findLink(linkId: string, tx: Executor = db): Promise<ServiceLinkRow | null> {
      const [row] = await tx
        .select(linkColumns)
        .from(serviceTokens)
        .leftJoin(staffMembers, eq(staffMembers.id, serviceTokens.createdBy))
        .where(eq(serviceTokens.id, linkId));
      return row ?? null;
    },

    async findLive(
      tokenHash: string,
      tx: Executor = db,
    ): Promise<{ linkId: string; accountId: string } | null> {
      const [row] = await tx
        .select({ linkId: serviceTokens.id, accountId: serviceTokens.accountId })
        .from(serviceTokens)
        .where(
          and(
            eq(serviceTokens.tokenHash, tokenHash),
            isNull(serviceTokens.revokedAt),
            gt(serviceTokens.expiresAt, sql`now()`),
          ),
        );
      return row ?? null;
    },

    /** Ends every live link to one application; how many. */
    async revokeLiveOf(accountId: string, tx: Executor = db): Promise<number> {
      const rows = await tx
        .update(serviceTokens)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            eq(serviceTokens.accountId, accountId),
            isNull(serviceTokens.revokedAt),
            gt(serviceTokens.expiresAt, sql`now()`),
          ),
        )
        .returning({ tokenHash: serviceTokens.tokenHash });
      return rows.length;
    },
  };
}
