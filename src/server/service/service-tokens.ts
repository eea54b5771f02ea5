import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { normaliseUsername } from '../../shared/accounts/account-forms';
import { SERVICE_TOKEN_MAX_LENGTH } from '../../shared/api/service';
import { randomToken, sha256 } from '../accounts/secrets';
import type { AppDatabase } from '../db/database';
import { accounts, applications, serviceTokens } from '../db/schema';

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

/** A new read-only link secret for one application: 256 random bits, stored only as SHA-256. */
export async function mintServiceToken(
  db: AppDatabase,
  accountId: string,
  ttlMs: number,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + ttlMs);
  await db.insert(serviceTokens).values({ tokenHash: sha256(token), accountId, expiresAt });
  return { token, expiresAt };
}

/**
 * Names a token in logs without revealing it: the start of its stored hash, which finds its row
 * (`token_hash like '<id>%'`) but cannot be turned back into the token.
 */
export function serviceTokenId(token: string): string {
  return sha256(token).slice(0, 16);
}

/** The application a live token reaches, or null for an unknown, expired or revoked one. */
export async function serviceTokenAccount(db: AppDatabase, token: string): Promise<string | null> {
  if (token.length === 0 || token.length > SERVICE_TOKEN_MAX_LENGTH) return null;
  const [row] = await db
    .select({ accountId: serviceTokens.accountId })
    .from(serviceTokens)
    .where(
      and(
        eq(serviceTokens.tokenHash, sha256(token)),
        isNull(serviceTokens.revokedAt),
        gt(serviceTokens.expiresAt, sql`now()`),
      ),
    );
  return row?.accountId ?? null;
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
