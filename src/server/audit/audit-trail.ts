import { createHash } from 'node:crypto';
import { asc, desc, gt, sql } from 'drizzle-orm';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { auditEvents } from '../db/schema';

/** Everything the trail records, by name; the console filters on these. */
export const AUDIT_ACTIONS = [
  'staff.sign_in',
  'staff.sign_in_failed',
  'staff.second_factor_failed',
  'staff.sign_out',
  'staff.step_up',
  'staff.invited',
  'staff.provisioned',
  'staff.invitation_accepted',
  'staff.authenticator_enrolled',
  'staff.recovery_code_used',
  'staff.recovery_codes_replaced',
  'staff.role_changed',
  'staff.disabled',
  'staff.enabled',
  'staff.sso_refused',
  'application.search',
  // Staff reads in the console; through a read-only link a read is 'service_link.used'.
  'application.view',
  'document.view',
  'application_pdf.view',
  'checklist.mark',
  'receipt.verify',
  'service_link.created',
  'service_link.revoked',
  'service_link.used',
  'audit.export',
  'applications.export_csv',
  'applications.export_zip',
  'applications.export_zip_download',
  'decision.recorded',
  'decision.changed',
  'decision.release_scheduled',
  'decision.released',
  'decision.replied',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditActor =
  | { type: 'staff'; id: string; label: string }
  | { type: 'service_link'; id: string; label?: string }
  /** The applicant of the application the entry is about (a reply to an offer). */
  | { type: 'applicant'; id: string; label?: string }
  | { type: 'anonymous'; label?: string }
  | { type: 'system'; label: string };

/** Who acts when an operator runs a command on the server. */
export const COMMAND_LINE_ACTOR: AuditActor = { type: 'system', label: 'command line' };

export interface AuditEntry {
  actor: AuditActor;
  action: AuditAction;
  /** The application (its account id) the action touched, if any. */
  applicationId?: string | null;
  detail?: Record<string, unknown>;
  ip?: string | null;
}

export type AuditRow = typeof auditEvents.$inferSelect;

/** The hash of the first entry's predecessor. */
export const GENESIS_HASH = '0'.repeat(64);

/** One constant for every server of a deployment: appends are serialised through it. */
const APPEND_LOCK = 7_241_115;

/** Object keys in one order, as jsonb keeps them in its own: the hash must not depend on either. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** The hash of an entry: every column but the hash itself, chained to the previous hash. */
export function entryHash(row: Omit<AuditRow, 'hash'>): string {
  const body = JSON.stringify([
    row.seq,
    row.at.toISOString(),
    row.actorType,
    row.actorId,
    row.actorLabel,
    row.action,
    row.applicationId,
    canonical(row.detail),
    row.ip,
  ]);
  return createHash('sha256').update(`${row.prevHash}\n${body}`).digest('hex');
}

export type AuditVerification =
  | { ok: true; entries: number }
  | { ok: false; entries: number; brokenAt: number; reason: string };

const VERIFY_BATCH = 1_000;

export function createAuditTrail(db: AppDatabase) {
  async function append(entry: AuditEntry, tx: Executor): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(${APPEND_LOCK})`);
    const [last] = await tx
      .select({ seq: auditEvents.seq, hash: auditEvents.hash })
      .from(auditEvents)
      .orderBy(desc(auditEvents.seq))
      .limit(1);
    // JSON round trip: the detail is stored exactly as the hash saw it (no undefined, no Dates).
    const detail = JSON.parse(JSON.stringify(entry.detail ?? {})) as Record<string, unknown>;
    const row = {
      seq: (last?.seq ?? 0) + 1,
      at: new Date(),
      actorType: entry.actor.type,
      actorId: 'id' in entry.actor ? entry.actor.id : null,
      actorLabel: entry.actor.label ?? null,
      action: entry.action,
      applicationId: entry.applicationId ?? null,
      detail,
      ip: entry.ip ?? null,
      prevHash: last?.hash ?? GENESIS_HASH,
    };
    await tx.insert(auditEvents).values({ ...row, hash: entryHash(row) });
  }

  return {
    /**
     * Appends one entry. Given a transaction, the entry commits or rolls back with the work it
     * records; otherwise it commits on its own.
     */
    async record(entry: AuditEntry, tx?: Executor): Promise<void> {
      if (tx) await append(entry, tx);
      else await db.transaction((own) => append(entry, own));
    },

    /** Walks the whole chain in order and names the first entry that does not follow. */
    async verify(): Promise<AuditVerification> {
      let previousHash = GENESIS_HASH;
      let expectedSeq = 1;
      let entries = 0;
      for (;;) {
        const rows = await db
          .select()
          .from(auditEvents)
          .where(gt(auditEvents.seq, expectedSeq - 1))
          .orderBy(asc(auditEvents.seq))
          .limit(VERIFY_BATCH);
        for (const row of rows) {
          const broken = (reason: string) =>
            ({ ok: false, entries, brokenAt: row.seq, reason }) as const;
          if (row.seq !== expectedSeq) {
            return {
              ok: false,
              entries,
              brokenAt: expectedSeq,
              reason: `entry ${expectedSeq} is missing (the next is ${row.seq})`,
            };
          }
          if (row.prevHash !== previousHash) {
            return broken('its link to the previous entry does not match that entry');
          }
          if (entryHash(row) !== row.hash) {
            return broken('its contents do not match its hash (the row was changed)');
          }
          previousHash = row.hash;
          expectedSeq += 1;
          entries += 1;
        }
        if (rows.length < VERIFY_BATCH) return { ok: true, entries };
      }
    },
  };
}

export type AuditTrail = ReturnType<typeof createAuditTrail>;
