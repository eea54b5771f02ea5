import { SERVICE_TOKEN_MAX_LENGTH } from '../../shared/api/service';
import type { ServiceLinkSummary } from '../../shared/staff/staff-api';
import { randomToken, sha256 } from '../accounts/secrets';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { createServiceTokensStore, type ServiceLinkRow } from './service-tokens-store';

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
  return createServiceTokensStore(db).findApplicant(email);
}

/** Whether an application (an applicant's account) has this id. */
export async function applicationExists(db: AppDatabase, accountId: string): Promise<boolean> {
  return createServiceTokensStore(db).accountExists(accountId);
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
  const row = await createServiceTokensStore(db).insert({
    tokenHash: sha256(token),
    accountId,
    expiresAt,
    createdBy,
  });
  if (!row) throw new Error('the link was not stored');
  return { token, id: row.id, createdAt: row.createdAt, expiresAt };
}

/** A link as the console lists it: never its token, which only its creator saw, once. */
export function serviceLinkSummary(row: ServiceLinkRow, now = new Date()): ServiceLinkSummary {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_by: row.createdBy,
    state: row.revokedAt ? 'revoked' : row.expiresAt <= now ? 'expired' : 'live',
  };
}

/** Every link ever made to one application, newest first, with who made it. */
export async function listServiceLinks(
  db: AppDatabase,
  accountId: string,
): Promise<ServiceLinkSummary[]> {
  const rows = await createServiceTokensStore(db).listLinks(accountId);
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
  const store = createServiceTokensStore(db);
  if (!(await store.revokeLink(accountId, linkId))) return null;
  const row = await store.findLink(linkId);
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
  return createServiceTokensStore(db).findLive(sha256(token));
}

/** The application a live token reaches, or null for an unknown, expired or revoked one. */
export async function serviceTokenAccount(db: AppDatabase, token: string): Promise<string | null> {
  return (await serviceTokenLink(db, token))?.accountId ?? null;
}

/** Ends every live link to one application (a link sent to the wrong person); returns how many. */
export async function revokeServiceTokens(db: AppDatabase, accountId: string): Promise<number> {
  return createServiceTokensStore(db).revokeLiveOf(accountId);
}
