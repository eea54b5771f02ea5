import { createHash, createHmac } from 'node:crypto';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { type AuditEventRow, createAuditChainStore } from './audit-chain-store';
import type { AuditKey, AuditKeyring } from './audit-keys';

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
  // One item marked for many applications at once (checklist/checklist-routes.ts).
  'checklist.bulk_mark',
  'receipt.verify',
  'service_link.created',
  'service_link.revoked',
  'service_link.used',
  'audit.export',
  'applications.export_csv',
  'applications.export_courses_csv',
  'applications.export_zip',
  'applications.export_zip_download',
  'decision.recorded',
  'decision.changed',
  'decision.release_scheduled',
  'decision.released',
  'decision.replied',
  // The applicant's own change after submit (coursework-routes.ts).
  'coursework.updated',
  // Transfer credit (credit/): reads and an evaluator's work on one application, and releases.
  'credit.view',
  'credit.course_reviewed',
  'credit.review_undone',
  'credit.transcript_attached',
  'credit.transcript_view',
  'credit.estimate_preview',
  'credit.estimate_released',
  // An equivalency table file replaced the tables of the colleges it names.
  'equivalencies.imported',
  // Integration (integration/): every API call, and what administrators do with clients,
  // webhook subscriptions and feeds.
  'api.call',
  'api_client.created',
  'api_client.secret_rotated',
  'api_client.revoked',
  'sis_id.set',
  'webhook.subscription_created',
  'webhook.subscription_deleted',
  'webhook.subscription_disabled',
  'webhook.subscription_enabled',
  'webhook.delivery_replayed',
  'feed.run',
  // Reading assignments (review/): reads given and moved, a member's queue read, rules, conflicts.
  'review.assigned',
  'review.reassigned',
  'review.queue',
  'review.rules_saved',
  'review.conflict_created',
  'review.conflict_deleted',
  // Reading (review/): reads of an application's reviews, a read started or submitted, a call
  // refused (someone else's read), the committee's views, and staff's internal notes. Ids only:
  // a read's answers never go into an entry.
  'review.view',
  'review.started',
  'review.submitted',
  'review.refused',
  'review.committee_view',
  'review.agreement_view',
  'application.notes_view',
  'application.note_added',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditActor =
  | { type: 'staff'; id: string; label: string }
  | { type: 'service_link'; id: string; label?: string }
  /** The applicant of the application the entry is about (a reply to an offer, an update). */
  | { type: 'applicant'; id: string; label?: string }
  | { type: 'anonymous'; label?: string }
  /** An integrator's API client, by its row id and name. */
  | { type: 'api_client'; id: string; label: string }
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

export type AuditRow = AuditEventRow;

/** The hash of the first entry's predecessor. */
export const GENESIS_HASH = '0'.repeat(64);

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

type EntryColumns = Omit<AuditRow, 'prevHash' | 'hash' | 'mac' | 'keyId'>;

function entryBody(row: EntryColumns): string {
  return JSON.stringify([
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
}

/**
 * The hash of an entry: every column but the hash itself, chained to the previous hash. Anyone
 * can recompute it, so it shows accidents and, with the MAC, where an edit was made.
 */
export function entryHash(row: EntryColumns & { prevHash: string }): string {
  return createHash('sha256')
    .update(`${row.prevHash}\n${entryBody(row)}`)
    .digest('hex');
}

/**
 * The keyed link: HMAC-SHA256 over the previous entry's MAC and the entry. The first entry signed
 * chains to the previous entry's hash instead, so it also seals every entry written before the
 * key existed.
 */
export function entryMac(key: AuditKey, previous: string, row: EntryColumns): string {
  return createHmac('sha256', key.secret)
    .update(`entry\n${key.id}\n${previous}\n${entryBody(row)}`)
    .digest('hex');
}

/** What a checkpoint holds of an entry, and where the checkpoint was read (for the message). */
export interface AuditCheckpointMark {
  seq: number;
  hash: string;
  mac: string | null;
  at: string;
  source: string;
}

/** The newest entry, as a checkpoint records it (seq 0 while the trail is empty). */
export interface AuditHead {
  seq: number;
  hash: string;
  mac: string | null;
}

export type AuditVerification =
  | {
      ok: true;
      entries: number;
      /** Entries from before the chain had a key: sealed by the first signed entry after them. */
      unsigned: number;
      /** Checkpoints the trail was compared with. */
      checkpoints: number;
    }
  | { ok: false; entries: number; brokenAt: number; reason: string };

const VERIFY_BATCH = 1_000;

export function createAuditTrail(db: AppDatabase, keys: AuditKeyring) {
  const store = createAuditChainStore(db);

  async function append(entry: AuditEntry, tx: Executor): Promise<void> {
    await store.lockAppends(tx);
    const last = await store.last(tx);
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
    const mac = entryMac(keys.current, last?.mac ?? row.prevHash, row);
    await store.insert({ ...row, hash: entryHash(row), mac, keyId: keys.current.id }, tx);
  }

  return {
    /** The keys this trail signs and verifies with; checkpoints are signed with the same. */
    keys,

    /**
     * Appends one entry. Given a transaction, the entry commits or rolls back with the work it
     * records; otherwise it commits on its own.
     */
    async record(entry: AuditEntry, tx?: Executor): Promise<void> {
      if (tx) await append(entry, tx);
      else await store.transaction((own) => append(entry, own));
    },

    async head(): Promise<AuditHead> {
      return (await store.last()) ?? { seq: 0, hash: GENESIS_HASH, mac: null };
    },

    /**
     * Walks the whole chain in order and names the first entry that does not follow: its hash,
     * its MAC (which only the key makes), or a checkpoint taken outside the database. Checkpoints
     * naming entries past the newest show entries removed from the end.
     */
    async verify(checkpoints: readonly AuditCheckpointMark[] = []): Promise<AuditVerification> {
      const marks = new Map<number, AuditCheckpointMark[]>();
      for (const mark of checkpoints) marks.set(mark.seq, [...(marks.get(mark.seq) ?? []), mark]);
      let previousHash = GENESIS_HASH;
      let previousMac: string | null = null;
      let expectedSeq = 1;
      let entries = 0;
      let unsigned = 0;
      for (;;) {
        const rows = await store.after(expectedSeq - 1, VERIFY_BATCH);
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
          if (row.mac === null) {
            // Unsigned entries are those from before the key; one after a signed entry lost its MAC.
            if (previousMac !== null) {
              return broken(
                'it has no MAC though the entry before it has one (its MAC was removed)',
              );
            }
            unsigned += 1;
          } else {
            const key = row.keyId === null ? undefined : keys.byId.get(row.keyId);
            if (!key) {
              return broken(
                `it is signed with key id ${row.keyId}, which is neither AUDIT_CHAIN_KEY nor in AUDIT_CHAIN_OLD_KEYS`,
              );
            }
            if (entryMac(key, previousMac ?? previousHash, row) !== row.mac) {
              return broken(
                'its MAC does not match (the row, or an entry before it, was changed without the key)',
              );
            }
          }
          for (const mark of marks.get(row.seq) ?? []) {
            if (mark.hash !== row.hash || mark.mac !== row.mac) {
              return broken(
                `it differs from the checkpoint of ${mark.at} (${mark.source}): the trail was rewritten up to here`,
              );
            }
          }
          previousHash = row.hash;
          previousMac = row.mac;
          expectedSeq += 1;
          entries += 1;
        }
        if (rows.length < VERIFY_BATCH) break;
      }
      const newest = expectedSeq - 1;
      const beyond = checkpoints
        .filter((mark) => mark.seq > newest)
        .sort((a, b) => b.seq - a.seq)[0];
      if (beyond) {
        return {
          ok: false,
          entries,
          brokenAt: newest + 1,
          reason:
            `entries ${newest + 1} to ${beyond.seq} are missing: the checkpoint of ${beyond.at} ` +
            `(${beyond.source}) names entry ${beyond.seq}, and the newest entry is ${newest} ` +
            '(the newest entries were removed)',
        };
      }
      return { ok: true, entries, unsigned, checkpoints: checkpoints.length };
    },
  };
}

export type AuditTrail = ReturnType<typeof createAuditTrail>;
