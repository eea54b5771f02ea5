import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import {
  applicationPdfs,
  applications,
  collegeTranscripts,
  documentAnswers,
  documentUploads,
  integrationEvents,
  oidcSignIns,
  passwordResets,
  serviceTokens,
  sessions,
  staffSessions,
  temporaryAnswerSets,
  validationReports,
  webhookDeliveries,
  webStatuses,
} from '../db/schema';

/** What retention judges an application by. */
export interface RetentionCandidate {
  submittedAt: Date | null;
  updatedAt: Date;
  entryTerm: string | null;
}

/** What deleting one application's rows removed, by table. */
export interface DeletedApplicationRows {
  documents: Array<{ fileKey: string; pdfKey: string | null }>;
  uploads: Array<{ fileKey: string }>;
  pdfs: Array<{ pdfKey: string | null }>;
  /** Official transcripts evaluators attached. */
  transcripts: Array<{ storageKey: string }>;
  reports: number;
  statuses: number;
  tokens: number;
}

const entryTerm = sql<string | null>`${applications.answers}->>'entry_term'`;

/** The rows retention deletes: applications' data and records nobody can use any more. */
export function createRetentionStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /**
     * Applications unsubmitted and unchanged since `unsubmittedBefore`, and, with `anyEntryTerm`,
     * every one naming an entry term; in account order.
     */
    async candidates(
      filter: { unsubmittedBefore?: Date | null; anyEntryTerm: boolean },
      tx: Executor = db,
    ): Promise<Array<RetentionCandidate & { accountId: string }>> {
      const conditions = [];
      if (filter.unsubmittedBefore)
        conditions.push(
          and(
            isNull(applications.submittedAt),
            lt(applications.updatedAt, filter.unsubmittedBefore),
          ),
        );
      if (filter.anyEntryTerm) conditions.push(isNotNull(entryTerm));
      if (conditions.length === 0) return [];
      return tx
        .select({
          accountId: applications.accountId,
          submittedAt: applications.submittedAt,
          updatedAt: applications.updatedAt,
          entryTerm,
        })
        .from(applications)
        .where(or(...conditions))
        .orderBy(applications.accountId);
    },

    /** The application, locked until the transaction ends. */
    async lockApplication(accountId: string, tx: Executor): Promise<RetentionCandidate | null> {
      const [row] = await tx
        .select({
          submittedAt: applications.submittedAt,
          updatedAt: applications.updatedAt,
          entryTerm,
        })
        .from(applications)
        .where(eq(applications.accountId, accountId))
        .for('update');
      return row ?? null;
    },

    /**
     * Deletes the application row and everything hanging from it but the account, its sign-ins
     * and its sessions; the objects' keys come back for removal after commit.
     */
    async deleteApplicationRows(accountId: string, tx: Executor): Promise<DeletedApplicationRows> {
      const documents = await tx
        .delete(documentAnswers)
        .where(eq(documentAnswers.accountId, accountId))
        .returning({ fileKey: documentAnswers.fileKey, pdfKey: documentAnswers.pdfKey });
      const uploads = await tx
        .delete(documentUploads)
        .where(eq(documentUploads.accountId, accountId))
        .returning({ fileKey: documentUploads.fileKey });
      const pdfs = await tx
        .delete(applicationPdfs)
        .where(eq(applicationPdfs.accountId, accountId))
        .returning({ pdfKey: applicationPdfs.pdfKey });
      const transcripts = await tx
        .delete(collegeTranscripts)
        .where(eq(collegeTranscripts.accountId, accountId))
        .returning({ storageKey: collegeTranscripts.storageKey });
      const reports = await tx
        .delete(validationReports)
        .where(eq(validationReports.accountId, accountId))
        .returning({ id: validationReports.id });
      const statuses = await tx
        .delete(webStatuses)
        .where(eq(webStatuses.accountId, accountId))
        .returning({ status: webStatuses.webStatus });
      const tokens = await tx
        .delete(serviceTokens)
        .where(eq(serviceTokens.accountId, accountId))
        .returning({ tokenHash: serviceTokens.tokenHash });
      // Events and webhook payloads name the application: they go with it (attempts cascade).
      await tx.delete(integrationEvents).where(eq(integrationEvents.accountId, accountId));
      await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.accountId, accountId));
      await tx.delete(applications).where(eq(applications.accountId, accountId));
      return {
        documents,
        uploads,
        pdfs,
        transcripts,
        reports: reports.length,
        statuses: statuses.length,
        tokens: tokens.length,
      };
    },

    /** Deletes what expired (or, for sessions, was ended) before `before`; how many of each. */
    async deleteExpiredBefore(
      before: Date,
      tx: Executor = db,
    ): Promise<{ sets: number; sessions: number; staffSessions: number; resets: number }> {
      const sets = await tx
        .delete(temporaryAnswerSets)
        .where(lt(temporaryAnswerSets.expiresAt, before))
        .returning({ tokenHash: temporaryAnswerSets.tokenHash });
      const ended = await tx
        .delete(sessions)
        .where(or(lt(sessions.expiresAt, before), lt(sessions.revokedAt, before)))
        .returning({ tokenHash: sessions.tokenHash });
      const endedStaff = await tx
        .delete(staffSessions)
        .where(or(lt(staffSessions.expiresAt, before), lt(staffSessions.revokedAt, before)))
        .returning({ tokenHash: staffSessions.tokenHash });
      // Single sign-on hand-shakes live ten minutes; nothing about them is worth reporting.
      await tx.delete(oidcSignIns).where(lt(oidcSignIns.expiresAt, before));
      const resets = await tx
        .delete(passwordResets)
        .where(lt(passwordResets.expiresAt, before))
        .returning({ tokenHash: passwordResets.tokenHash });
      return {
        sets: sets.length,
        sessions: ended.length,
        staffSessions: endedStaff.length,
        resets: resets.length,
      };
    },
  };
}
