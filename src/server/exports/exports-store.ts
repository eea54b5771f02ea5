import { and, desc, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { ExportJob } from '../../shared/staff/application-api';
import type { ListViewer } from '../../shared/staff/application-list-api';
import {
  APPLICATION_STATUSES,
  type ApplicationListRequest,
  type ApplicationStatus,
} from '../../shared/staff/application-list-api';
import { selectedApplicationIds } from '../applications-list/application-selection-store';
import { reviewColumnsOf } from '../applications-list/applications-list-store';
import { currentCourseworkAnswers } from '../coursework/current-coursework-store';
import type { AppDatabase } from '../db/database';
import {
  accounts,
  applicationReceipts,
  applicationSisIds,
  applications,
  courseworkTotals,
  creditRequirementStatuses,
  creditSummaries,
  decisions,
  exportJobs,
} from '../db/schema';

/** Rows read per query while an export streams: enough to keep round trips few, never all. */
export const EXPORT_BATCH_SIZE = 200;

/** One application as an export writes it. */
export interface ExportApplication {
  id: string;
  email: string;
  status: ApplicationStatus;
  submittedAt: Date | null;
  lastActivity: Date;
  answers: Record<string, string | boolean>;
  /** The receipt's confirmation number, once submitted. */
  confirmationNumber: string | null;
  /** The student information system's id, once its integration wrote it back. */
  sisId: string | null;
  decision: {
    code: string;
    releaseAt: Date | null;
    releasedAt: Date | null;
    reply: 'accepted' | 'declined' | null;
    repliedAt: Date | null;
  } | null;
  /** The transfer GPA and units stored at submit, two decimals each; null before submit. */
  coursework: {
    gpa: string | null;
    transferUnits: string;
    inProgressUnits: string;
  } | null;
  /** The transfer credit summary; null before the application's credit is evaluated. */
  credit: {
    courses: number;
    mapped: number;
    needsReview: number;
    /** Each requirement that applies, by id: met, in_progress or not_met. */
    requirements: Record<string, string>;
  } | null;
  /** Reading's columns as the exporting member may see them; absent when not asked for. */
  review?: { score: string | null; recommendation: string | null };
}

/** What a per-course export reads of one application: its answers with the current coursework. */
export interface CourseworkSource {
  id: string;
  /** The answers, each coursework grid's as it stands now (its latest update after submit). */
  answers: Record<string, string | boolean>;
  addAnother: Record<string, number>;
  tabs: Record<string, string>;
}

/** A numeric(…, 2) as two decimals (`3.40`), whichever way the driver hands it over. */
const twoDecimals = (value: string | number) => Number(value).toFixed(2);

export type ExportJobRow = typeof exportJobs.$inferSelect;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function exportJobView(row: ExportJobRow): ExportJob {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    total: row.total,
    done: row.done,
    byte_size: row.byteSize,
    message: row.message,
    created_at: row.createdAt.toISOString(),
    finished_at: iso(row.finishedAt),
    expires_at: iso(row.expiresAt),
    query: row.query,
  };
}

export function createExportsStore(db: AppDatabase) {
  return {
    /** Reading's columns of these applications as the member may see them (the blind rule). */
    async reviewColumns(ids: readonly string[], viewer: ListViewer | undefined) {
      return reviewColumnsOf(db, ids, viewer);
    },

    /** The ids of the list's selection, in its order (application-selection-store.ts). */
    async matchingIds(request: ApplicationListRequest, limit?: number): Promise<string[]> {
      return selectedApplicationIds(db, request, limit);
    },

    /** The applications of `ids`, in that order (an id deleted since is left out). */
    async applications(ids: readonly string[]): Promise<ExportApplication[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({
          id: applications.accountId,
          email: accounts.email,
          listStatus: applications.listStatus,
          submittedAt: applications.submittedAt,
          updatedAt: applications.updatedAt,
          answers: applications.answers,
          confirmationNumber: applicationReceipts.number,
          sisId: applicationSisIds.sisId,
          decisionCode: decisions.code,
          releaseAt: decisions.releaseAt,
          releasedAt: decisions.releasedAt,
          reply: decisions.reply,
          repliedAt: decisions.repliedAt,
          transferGpa: courseworkTotals.transferGpa,
          transferUnits: courseworkTotals.transferUnits,
          inProgressUnits: courseworkTotals.inProgressUnits,
          creditCourses: creditSummaries.courses,
          creditMapped: creditSummaries.mapped,
          creditNeedsReview: creditSummaries.needsReview,
          creditRequirements: sql<Record<
            string,
            string
          > | null>`(select jsonb_object_agg(${creditRequirementStatuses.requirementId}, ${creditRequirementStatuses.status}) from ${creditRequirementStatuses} where ${creditRequirementStatuses.accountId} = ${applications.accountId})`,
        })
        .from(applications)
        .innerJoin(accounts, eq(accounts.id, applications.accountId))
        .leftJoin(applicationReceipts, eq(applicationReceipts.accountId, applications.accountId))
        .leftJoin(decisions, eq(decisions.accountId, applications.accountId))
        .leftJoin(applicationSisIds, eq(applicationSisIds.accountId, applications.accountId))
        .leftJoin(courseworkTotals, eq(courseworkTotals.accountId, applications.accountId))
        .leftJoin(creditSummaries, eq(creditSummaries.accountId, applications.accountId))
        .where(inArray(applications.accountId, [...ids]));
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.flatMap((id) => {
        const row = byId.get(id);
        if (!row) return [];
        return [
          {
            id: row.id,
            email: row.email,
            status: APPLICATION_STATUSES[row.listStatus] ?? 'started',
            submittedAt: row.submittedAt,
            lastActivity: row.updatedAt,
            answers: row.answers,
            confirmationNumber: row.confirmationNumber,
            sisId: row.sisId,
            decision:
              row.decisionCode === null
                ? null
                : {
                    code: row.decisionCode,
                    releaseAt: row.releaseAt,
                    releasedAt: row.releasedAt,
                    reply: row.reply,
                    repliedAt: row.repliedAt,
                  },
            coursework:
              row.transferUnits === null || row.inProgressUnits === null
                ? null
                : {
                    gpa: row.transferGpa === null ? null : twoDecimals(row.transferGpa),
                    transferUnits: twoDecimals(row.transferUnits),
                    inProgressUnits: twoDecimals(row.inProgressUnits),
                  },
            credit:
              row.creditCourses === null ||
              row.creditMapped === null ||
              row.creditNeedsReview === null
                ? null
                : {
                    courses: row.creditCourses,
                    mapped: row.creditMapped,
                    needsReview: row.creditNeedsReview,
                    requirements: row.creditRequirements ?? {},
                  },
          },
        ];
      });
    },

    /**
     * The answers of `ids` a per-course export reads, in that order (an id deleted since is left
     * out), each coursework grid as it stands now: its latest update after submit, if any.
     */
    async courseworkSources(ids: readonly string[]): Promise<CourseworkSource[]> {
      if (ids.length === 0) return [];
      const [rows, updates] = await Promise.all([
        db
          .select({
            id: applications.accountId,
            answers: applications.answers,
            addAnother: applications.addAnother,
            tabs: applications.tabs,
          })
          .from(applications)
          .where(inArray(applications.accountId, [...ids])),
        currentCourseworkAnswers(db, ids),
      ]);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.flatMap((id) => {
        const row = byId.get(id);
        if (!row) return [];
        return [
          {
            id,
            answers: { ...row.answers, ...updates.get(id) },
            addAnother: row.addAnother,
            tabs: row.tabs,
          },
        ];
      });
    },

    async createJob(values: {
      staffId: string;
      query: string;
      total: number;
    }): Promise<ExportJobRow> {
      const [row] = await db
        .insert(exportJobs)
        .values({ ...values, kind: 'pdf_zip', status: 'queued' })
        .returning();
      if (!row) throw new Error('export job not created');
      return row;
    },

    async job(id: string): Promise<ExportJobRow | null> {
      const [row] = await db.select().from(exportJobs).where(eq(exportJobs.id, id));
      return row ?? null;
    },

    /** A member's own job; another member's is as good as missing. */
    async jobOf(id: string, staffId: string): Promise<ExportJobRow | null> {
      const [row] = await db
        .select()
        .from(exportJobs)
        .where(and(eq(exportJobs.id, id), eq(exportJobs.staffId, staffId)));
      return row ?? null;
    },

    async jobsOf(staffId: string, limit: number): Promise<ExportJobRow[]> {
      return db
        .select()
        .from(exportJobs)
        .where(eq(exportJobs.staffId, staffId))
        .orderBy(desc(exportJobs.createdAt), desc(exportJobs.id))
        .limit(limit);
    },

    /** Claims a job that is not finished; null when it is (a second delivery of the job). */
    async start(id: string): Promise<ExportJobRow | null> {
      const [row] = await db
        .update(exportJobs)
        .set({ status: 'running', done: 0 })
        .where(and(eq(exportJobs.id, id), inArray(exportJobs.status, ['queued', 'running'])))
        .returning();
      return row ?? null;
    },

    async progress(id: string, values: { done: number; total?: number }): Promise<void> {
      await db.update(exportJobs).set(values).where(eq(exportJobs.id, id));
    },

    /** Finishes a running job; false when it is no longer running (the object is then nobody's). */
    async complete(
      id: string,
      values: { storageKey: string; byteSize: number; done: number; expiresAt: Date },
    ): Promise<boolean> {
      const rows = await db
        .update(exportJobs)
        .set({ ...values, status: 'completed', message: null, finishedAt: sql`now()` })
        .where(and(eq(exportJobs.id, id), eq(exportJobs.status, 'running')))
        .returning({ id: exportJobs.id });
      return rows.length > 0;
    },

    async fail(id: string, message: string): Promise<void> {
      await db
        .update(exportJobs)
        .set({ status: 'failed', message, finishedAt: sql`now()` })
        .where(and(eq(exportJobs.id, id), inArray(exportJobs.status, ['queued', 'running'])));
    },

    /** Exports not finished: after a restart of the in-process queue, nobody works them. */
    async unfinishedIds(): Promise<string[]> {
      const rows = await db
        .select({ id: exportJobs.id })
        .from(exportJobs)
        .where(inArray(exportJobs.status, ['queued', 'running']));
      return rows.map((row) => row.id);
    },

    /** Finished exports past their expiry whose file is still stored. */
    async expiredFiles(now: Date, limit = 100): Promise<Array<{ id: string; storageKey: string }>> {
      const rows = await db
        .select({ id: exportJobs.id, storageKey: exportJobs.storageKey })
        .from(exportJobs)
        .where(and(isNotNull(exportJobs.storageKey), lt(exportJobs.expiresAt, now)))
        .limit(limit);
      return rows.flatMap((row) =>
        row.storageKey ? [{ id: row.id, storageKey: row.storageKey }] : [],
      );
    },

    /** Forgets a file once it is deleted from storage. */
    async forgetFile(id: string): Promise<void> {
      await db.update(exportJobs).set({ storageKey: null }).where(eq(exportJobs.id, id));
    },
  };
}

export type ExportsStore = ReturnType<typeof createExportsStore>;
