import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import type { StorageDriver } from '../storage/storage';
import { createRetentionStore } from './retention-store';

/** The database or a transaction on it: every function here works on either. */
export type { Executor };

/**
 * The first day of each entry term (`entryTermOptions` in src/shared/application/option-lists.ts:
 * values like 'FA2026'). An application's cycle is its entry term; the cycle is closed once the
 * term has started. Dates are UTC.
 */
export const TERM_START: Readonly<Record<string, { month: number; day: number }>> = {
  WI: { month: 1, day: 1 },
  SU: { month: 5, day: 1 },
  FA: { month: 8, day: 1 },
};

/** The day an entry term starts, or null for anything that is not a known term code. */
export function termStart(term: unknown): Date | null {
  if (typeof term !== 'string') return null;
  const match = /^([A-Z]{2})(\d{4})$/.exec(term);
  const start = match ? TERM_START[match[1] as string] : undefined;
  if (!match || !start) return null;
  return new Date(Date.UTC(Number(match[2]), start.month - 1, start.day));
}

/**
 * What goes. Either limit may be null (that rule deletes nothing).
 * - `unsubmittedBefore`: unsubmitted applications not changed since this moment (their
 *   `updated_at`, which every save, tab, page and document change moves), and prefilled answer
 *   sets, sessions and password-reset links that expired before it.
 * - `cycleStartedBefore`: applications, submitted or not, whose entry term started before it.
 */
export interface RetentionLimits {
  unsubmittedBefore: Date | null;
  cycleStartedBefore: Date | null;
}

export type RetentionReason = 'unsubmitted' | 'closed-cycle';

interface ApplicationState {
  submittedAt: Date | null;
  updatedAt: Date;
  entryTerm: unknown;
}

/** Why an application goes under these limits, or null when it stays. A closed cycle comes first. */
export function retentionReason(
  application: ApplicationState,
  limits: RetentionLimits,
): RetentionReason | null {
  const start = termStart(application.entryTerm);
  if (limits.cycleStartedBefore && start && start < limits.cycleStartedBefore)
    return 'closed-cycle';
  if (
    limits.unsubmittedBefore &&
    application.submittedAt === null &&
    application.updatedAt < limits.unsubmittedBefore
  )
    return 'unsubmitted';
  return null;
}

/** Counts per kind of what was deleted (or, in a dry run, what would be). */
export interface RetentionReport {
  unsubmittedApplications: number;
  closedCycleApplications: number;
  /** Of `closedCycleApplications`, those that had been submitted. */
  closedCycleSubmitted: number;
  documentAnswers: number;
  documentUploads: number;
  applicationPdfs: number;
  validationReports: number;
  webStatuses: number;
  serviceTokens: number;
  /** Stored objects: uploads, their converted PDFs, application PDFs and official transcripts. */
  files: number;
  temporaryAnswerSets: number;
  sessions: number;
  passwordResets: number;
  /** Objects whose removal failed after their rows were deleted (real runs only). */
  filesNotDeleted: string[];
}

export function emptyReport(): RetentionReport {
  return {
    unsubmittedApplications: 0,
    closedCycleApplications: 0,
    closedCycleSubmitted: 0,
    documentAnswers: 0,
    documentUploads: 0,
    applicationPdfs: 0,
    validationReports: 0,
    webStatuses: 0,
    serviceTokens: 0,
    files: 0,
    temporaryAnswerSets: 0,
    sessions: 0,
    passwordResets: 0,
    filesNotDeleted: [],
  };
}

/** The accounts whose application may go under these limits (checked again when deleting). */
export async function findExpiredApplications(
  db: Executor,
  limits: RetentionLimits,
): Promise<Array<{ accountId: string; reason: RetentionReason }>> {
  const rows = await createRetentionStore(db).candidates({
    unsubmittedBefore: limits.unsubmittedBefore,
    anyEntryTerm: Boolean(limits.cycleStartedBefore),
  });
  return rows.flatMap((row) => {
    const reason = retentionReason(row, limits);
    return reason ? [{ accountId: row.accountId, reason }] : [];
  });
}

/** What deleting one application removed: its rows by kind, and the objects to remove after. */
export interface DeletedApplication {
  reason: RetentionReason;
  submitted: boolean;
  counts: Pick<
    RetentionReport,
    | 'documentAnswers'
    | 'documentUploads'
    | 'applicationPdfs'
    | 'validationReports'
    | 'webStatuses'
    | 'serviceTokens'
  >;
  fileKeys: string[];
}

/**
 * Deletes one account's application data inside `tx` (a transaction): the application row
 * (answers, tabs, add-another counts, last page), validation reports, web statuses, document
 * answers, issued upload keys, the application PDF's row and staff links. The account, its
 * sign-ins and its sessions stay. The row is locked and judged again first, so an application
 * changed since it was found is left alone (null). Objects are not touched: the caller removes
 * `fileKeys` once the transaction has committed.
 */
export async function deleteApplicationData(
  tx: Executor,
  accountId: string,
  limits: RetentionLimits,
): Promise<DeletedApplication | null> {
  const store = createRetentionStore(tx);
  const row = await store.lockApplication(accountId, tx);
  const reason = row ? retentionReason(row, limits) : null;
  if (!row || !reason) return null;

  const { documents, uploads, pdfs, transcripts, reports, statuses, tokens } =
    await store.deleteApplicationRows(accountId, tx);

  const keys = [
    ...documents.flatMap((document) => [document.fileKey, document.pdfKey]),
    ...uploads.map((upload) => upload.fileKey),
    ...pdfs.map((pdf) => pdf.pdfKey),
    ...transcripts.map((transcript) => transcript.storageKey),
  ].filter((key): key is string => Boolean(key));
  return {
    reason,
    submitted: row.submittedAt !== null,
    counts: {
      documentAnswers: documents.length,
      documentUploads: uploads.length,
      applicationPdfs: pdfs.length,
      validationReports: reports,
      webStatuses: statuses,
      serviceTokens: tokens,
    },
    fileKeys: [...new Set(keys)],
  };
}

/**
 * Prefilled answer sets, applicants' and staff sessions, single sign-on hand-shakes and
 * password-reset links that expired (or, for sessions, were ended) before `before`: none can be
 * used any more. Staff members, their invitations and the audit trail are never deleted here.
 */
export async function deleteExpiredRecords(
  tx: Executor,
  before: Date,
): Promise<Pick<RetentionReport, 'temporaryAnswerSets' | 'sessions' | 'passwordResets'>> {
  const deleted = await createRetentionStore(tx).deleteExpiredBefore(before, tx);
  return {
    temporaryAnswerSets: deleted.sets,
    sessions: deleted.sessions + deleted.staffSessions,
    passwordResets: deleted.resets,
  };
}

/** Thrown inside a dry run's transaction to roll it back with what it would have done. */
class DryRunRollback<T> extends Error {
  constructor(readonly result: T) {
    super('dry run');
  }
}

/** Runs `work` in a transaction that commits, or for a dry run is rolled back. */
async function inTransaction<T>(
  db: AppDatabase,
  dryRun: boolean,
  work: (tx: Executor) => Promise<T>,
): Promise<T> {
  try {
    return await createRetentionStore(db).transaction(async (tx) => {
      const result = await work(tx);
      if (dryRun) throw new DryRunRollback(result);
      return result;
    });
  } catch (error) {
    if (error instanceof DryRunRollback) return error.result as T;
    throw error;
  }
}

export interface RetentionOptions {
  limits: RetentionLimits;
  /** Counts what would go, with the same statements, in transactions that are rolled back. */
  dryRun?: boolean;
}

/**
 * Deletes what the limits say, one transaction per application, so a failure leaves no
 * application half deleted; its objects are removed after its transaction commits (a missing
 * object is not an error, a failed removal is reported in `filesNotDeleted`). Running it again
 * with the same limits deletes nothing more. Safe while servers run: each application is locked
 * and judged again before it goes.
 */
export async function applyRetention(
  db: AppDatabase,
  storage: StorageDriver,
  options: RetentionOptions,
): Promise<RetentionReport> {
  const { limits } = options;
  const dryRun = options.dryRun ?? false;
  const report = emptyReport();
  for (const { accountId } of await findExpiredApplications(db, limits)) {
    const deleted = await inTransaction(db, dryRun, (tx) =>
      deleteApplicationData(tx, accountId, limits),
    );
    if (!deleted) continue;
    if (deleted.reason === 'closed-cycle') {
      report.closedCycleApplications++;
      if (deleted.submitted) report.closedCycleSubmitted++;
    } else {
      report.unsubmittedApplications++;
    }
    for (const [kind, count] of Object.entries(deleted.counts))
      report[kind as keyof DeletedApplication['counts']] += count;
    report.files += deleted.fileKeys.length;
    if (dryRun) continue;
    for (const key of deleted.fileKeys) {
      try {
        await storage.delete(key);
      } catch {
        report.filesNotDeleted.push(key);
      }
    }
  }
  const { unsubmittedBefore } = limits;
  if (unsubmittedBefore) {
    Object.assign(
      report,
      await inTransaction(db, dryRun, (tx) => deleteExpiredRecords(tx, unsubmittedBefore)),
    );
  }
  return report;
}
