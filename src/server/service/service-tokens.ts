import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { normaliseUsername } from '../../shared/accounts/account-forms';
import { SERVICE_TOKEN_MAX_LENGTH } from '../../shared/api/service';
import type { ServiceLinkSummary } from '../../shared/staff/staff-api';
import { randomToken, sha256 } from '../accounts/secrets';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { accounts, applications, serviceTokens, staffMembers } from '../db/schema';

export const SERVICE_TOKEN_DEFAULT_TTL = '24h';
/** A link lives long enough for a review committee, not as a standing credential. */
export const SERVICE_TOKEN_MAX_TTL_MS = 30 * 24 * 3_600_000;

export interface ApplicationOwner {
  accountId: string;
  email: string;
  submittedAt: Date | null;
}

/** The account (and its application's submit time) behind an applicant's email address. */
export async function findApplicant(
  db: AppDatabase,
  email: string,
): Promise<ApplicationOwner | null> {
  const [row] = await db
    .select({
      accountId: accounts.id,
      email: accounts.email,
      submittedAt: applications.submittedAt,
    })
    .from(accounts)
    .leftJoin(applications, eq(applications.accountId, accounts.id))
    .where(eq(sql`lower(${accounts.email})`, normaliseUsername(email)));
  return row ?? null;
}

/** Whether an application (an applicant's account) has this id. */
export async function applicationExists(db: AppDatabase, accountId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row !== undefined;
}

export interface MintedServiceToken {
  token: string;
  /** Names the link in the console and the audit trail. */
  id: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * A new read-only link secret for one application: 256 random bits, stored only as SHA-256.
 * `createdBy` is the staff member who asked for it (none on the command line).
 */
export async function mintServiceToken(
  db: Executor,
  accountId: string,
  ttlMs: number,
  createdBy: string | null = null,
): Promise<MintedServiceToken> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + ttlMs);
  const [row] = await db
    .insert(serviceTokens)
    .values({ tokenHash: sha256(token), accountId, expiresAt, createdBy })
    .returning({ id: serviceTokens.id, createdAt: serviceTokens.createdAt });
  if (!row) throw new Error('the link was not stored');
  return { token, id: row.id, createdAt: row.createdAt, expiresAt };
}

type LinkRow = Pick<
  typeof serviceTokens.$inferSelect,
  'id' | 'createdAt' | 'expiresAt' | 'revokedAt'
> & { createdBy: string | null };

/** A link as the console lists it: never its token, which only its creator saw, once. */
export function serviceLinkSummary(row: LinkRow, now = new Date()): ServiceLinkSummary {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_by: row.createdBy,
    state: row.revokedAt ? 'revoked' : row.expiresAt <= now ? 'expired' : 'live',
  };
}

const linkColumns = {
  id: serviceTokens.id,
  createdAt: serviceTokens.createdAt,
  expiresAt: serviceTokens.expiresAt,
  revokedAt: serviceTokens.revokedAt,
  /** The creator's address: ids mean nothing to the person reading the list. */
  createdBy: staffMembers.email,
};

/** Every link ever made to one application, newest first, with who made it. */
export async function listServiceLinks(
  db: AppDatabase,
  accountId: string,
): Promise<ServiceLinkSummary[]> {
  const rows = await db
    .select(linkColumns)
    .from(serviceTokens)
    .leftJoin(staffMembers, eq(staffMembers.id, serviceTokens.createdBy))
    .where(eq(serviceTokens.accountId, accountId))
    .orderBy(desc(serviceTokens.createdAt), desc(serviceTokens.id));
  const now = new Date();
  return rows.map((row) => serviceLinkSummary(row, now));
}

/**
 * Ends one link to an application (already ended links stay as they were). Null when the
 * application has no link of this id, whichever application the id belongs to.
 */
export async function revokeServiceLink(
  db: Executor,
  accountId: string,
  linkId: string,
): Promise<ServiceLinkSummary | null> {
  const [updated] = await db
    .update(serviceTokens)
    .set({ revokedAt: sql`coalesce(${serviceTokens.revokedAt}, now())` })
    .where(and(eq(serviceTokens.id, linkId), eq(serviceTokens.accountId, accountId)))
    .returning({ id: serviceTokens.id });
  if (!updated) return null;
  const [row] = await db
    .select(linkColumns)
    .from(serviceTokens)
    .leftJoin(staffMembers, eq(staffMembers.id, serviceTokens.createdBy))
    .where(eq(serviceTokens.id, linkId));
  return row ? serviceLinkSummary(row) : null;
}

/**
 * Names a token in logs without revealing it: the start of its stored hash, which finds its row
 * (`token_hash like '<id>%'`) but cannot be turned back into the token.
 */
export function serviceTokenId(token: string): string {
  return sha256(token).slice(0, 16);
}

/** A live link: its id (for the audit trail) and the application it reaches. */
export interface ServiceLinkUse {
  linkId: string;
  accountId: string;
}

/** The link of a live token, or null for an unknown, expired or revoked one. */
export async function serviceTokenLink(
  db: AppDatabase,
  token: string,
): Promise<ServiceLinkUse | null> {
  if (token.length === 0 || token.length > SERVICE_TOKEN_MAX_LENGTH) return null;
  const [row] = await db
    .select({ linkId: serviceTokens.id, accountId: serviceTokens.accountId })
    .from(serviceTokens)
    .where(
      and(
        eq(serviceTokens.tokenHash, sha256(token)),
        isNull(serviceTokens.revokedAt),
        gt(serviceTokens.expiresAt, sql`now()`),
      ),
    );
  return row ?? null;
}

/** The application a live token reaches, or null for an unknown, expired or revoked one. */
export async function serviceTokenAccount(db: AppDatabase, token: string): Promise<string | null> {
  return (await serviceTokenLink(db, token))?.accountId ?? null;
}

/** Ends every live link to one application (a link sent to the wrong person); returns how many. */
export async function revokeServiceTokens(db: AppDatabase, accountId: string): Promise<number> {
  const rows = await db
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
}
