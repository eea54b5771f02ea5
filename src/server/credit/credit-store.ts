import { and, arrayOverlaps, asc, eq, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { CourseReview, CreditEvaluation } from '../../shared/credit/credit-evaluation';
import type { RequirementStatus } from '../../shared/credit/credit-requirements';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import {
  accounts,
  applications,
  collegeTranscripts,
  creditEstimates,
  creditRequirementStatuses,
  creditReviews,
  creditSummaries,
  equivalencyTables,
} from '../db/schema';

export interface Reviewer {
  id: string | null;
  label: string;
}

/** An application's credit as the list and the exports read it. */
export interface CreditSummaryRow {
  courses: number;
  mapped: number;
  needsReview: number;
  verified: number;
  /** Each applying requirement's status by id. */
  requirements: Record<string, RequirementStatus>;
  colleges: string[];
}

/** The summary of an evaluation. */
export function summaryOf(evaluation: CreditEvaluation): CreditSummaryRow {
  return {
    courses: evaluation.summary.courses,
    mapped: evaluation.summary.mapped,
    needsReview: evaluation.summary.needs_review,
    verified: evaluation.summary.reviewed,
    requirements: Object.fromEntries(
      evaluation.requirements.map((requirement) => [requirement.id, requirement.status]),
    ),
    colleges: evaluation.colleges.flatMap((college) => (college.ceeb ? [college.ceeb] : [])),
  };
}

export interface EstimateRow {
  evaluation: CreditEvaluation;
  releasedByLabel: string;
  releasedAt: Date;
}

export interface TranscriptRow {
  gridKey: string;
  storageKey: string;
  fileName: string;
  byteSize: number;
  attachedByLabel: string;
  attachedAt: Date;
}

const decimal = (value: string | null) => (value === null ? null : Number(value));

/**
 * What transfer credit keeps beside an application: the evaluator's reviews, the attached
 * transcripts, and the summary the list reads; and the equivalency tables it maps through.
 * Methods run on the database unless given a transaction (`tx`).
 */
export function createCreditStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    async reviewsOf(accountId: string, tx: Executor = db): Promise<Map<string, CourseReview>> {
      const rows = await tx
        .select()
        .from(creditReviews)
        .where(eq(creditReviews.accountId, accountId));
      return new Map(
        rows.map((row) => [
          row.courseRef,
          {
            course_ref: row.courseRef,
            status: row.status,
            grade: row.grade,
            units: decimal(row.units),
            mapping:
              row.mappingKind === null
                ? null
                : {
                    kind: row.mappingKind,
                    local_course: row.localCourse ?? '',
                    local_units: decimal(row.localUnits) ?? 0,
                    satisfies: row.satisfies ?? [],
                  },
            reason: row.reason,
            reviewed_by: row.reviewedByLabel,
            reviewed_at: row.reviewedAt.toISOString(),
          } satisfies CourseReview,
        ]),
      );
    },

    /** Sets a course's review, replacing the one before. */
    async saveReview(
      accountId: string,
      review: Pick<
        CourseReview,
        'course_ref' | 'status' | 'grade' | 'units' | 'mapping' | 'reason'
      >,
      by: Reviewer,
      tx: Executor = db,
    ): Promise<void> {
      const values = {
        status: review.status,
        grade: review.grade,
        units: review.units === null ? null : String(review.units),
        mappingKind: review.mapping?.kind ?? null,
        localCourse: review.mapping?.local_course ?? null,
        localUnits: review.mapping ? String(review.mapping.local_units) : null,
        satisfies: review.mapping?.satisfies ?? null,
        reason: review.reason,
        reviewedById: by.id,
        reviewedByLabel: by.label,
      };
      await tx
        .insert(creditReviews)
        .values({ accountId, courseRef: review.course_ref, ...values })
        .onConflictDoUpdate({
          target: [creditReviews.accountId, creditReviews.courseRef],
          set: { ...values, reviewedAt: sql`now()` },
        });
    },

    /** Removes a course's review; whether there was one. */
    async deleteReview(accountId: string, courseRef: string, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .delete(creditReviews)
        .where(and(eq(creditReviews.accountId, accountId), eq(creditReviews.courseRef, courseRef)))
        .returning({ ref: creditReviews.courseRef });
      return rows.length > 0;
    },

    /** Writes what the list and the exports read of an application's credit (see summaryOf). */
    async saveSummary(
      accountId: string,
      summary: CreditSummaryRow,
      tx: Executor = db,
    ): Promise<void> {
      const { requirements, ...values } = summary;
      await tx
        .insert(creditSummaries)
        .values({ accountId, ...values })
        .onConflictDoUpdate({
          target: creditSummaries.accountId,
          set: { ...values, updatedAt: sql`now()` },
        });
      await tx
        .delete(creditRequirementStatuses)
        .where(eq(creditRequirementStatuses.accountId, accountId));
      const statuses = Object.entries(requirements).map(([requirementId, status]) => ({
        accountId,
        requirementId,
        status,
      }));
      if (statuses.length > 0) await tx.insert(creditRequirementStatuses).values(statuses);
    },

    /** Submitted applications with a college among `ceebs`: those an import of their tables changes. */
    async accountsWithColleges(ceebs: readonly string[], tx: Executor = db): Promise<string[]> {
      if (ceebs.length === 0) return [];
      const rows = await tx
        .select({ accountId: creditSummaries.accountId })
        .from(creditSummaries)
        .where(arrayOverlaps(creditSummaries.colleges, [...ceebs]));
      return rows.map((row) => row.accountId);
    },

    /** Submitted applications without a summary yet (submitted before credit was evaluated). */
    async accountsWithoutSummary(limit: number, tx: Executor = db): Promise<string[]> {
      const rows = await tx
        .select({ accountId: applications.accountId })
        .from(applications)
        .leftJoin(creditSummaries, eq(creditSummaries.accountId, applications.accountId))
        .where(and(isNotNull(applications.submittedAt), isNull(creditSummaries.accountId)))
        .limit(limit);
      return rows.map((row) => row.accountId);
    },

    /** The applicant's address and answers (for a release's mail and the estimate's name). */
    async applicantOf(
      accountId: string,
      tx: Executor = db,
    ): Promise<{ email: string; answers: Record<string, unknown> } | null> {
      const [row] = await tx
        .select({ email: accounts.email, answers: applications.answers })
        .from(accounts)
        .innerJoin(applications, eq(applications.accountId, accounts.id))
        .where(eq(accounts.id, accountId));
      return row ?? null;
    },

    /** The submitted applications a list's filters select, by id, at most `limit`. */
    async submittedIn(where: SQL | undefined, limit: number, tx: Executor = db): Promise<string[]> {
      const rows = await tx
        .select({ id: applications.accountId })
        .from(applications)
        .where(and(where, isNotNull(applications.submittedAt)))
        .orderBy(asc(applications.accountId))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    /** The estimate as last released, or null: nothing of an unreleased estimate is stored. */
    async estimateOf(accountId: string, tx: Executor = db): Promise<EstimateRow | null> {
      const [row] = await tx
        .select()
        .from(creditEstimates)
        .where(eq(creditEstimates.accountId, accountId));
      return row
        ? {
            evaluation: row.estimate as CreditEvaluation,
            releasedByLabel: row.releasedByLabel,
            releasedAt: row.releasedAt,
          }
        : null;
    },

    /** Releases (or releases again) an estimate: the evaluation as it stands, kept as released. */
    async saveEstimate(
      accountId: string,
      evaluation: CreditEvaluation,
      by: Reviewer,
      tx: Executor = db,
    ): Promise<Date> {
      const values = { estimate: evaluation, releasedById: by.id, releasedByLabel: by.label };
      const [row] = await tx
        .insert(creditEstimates)
        .values({ accountId, ...values })
        .onConflictDoUpdate({
          target: creditEstimates.accountId,
          set: { ...values, releasedAt: sql`now()` },
        })
        .returning({ releasedAt: creditEstimates.releasedAt });
      if (!row) throw new Error('the estimate was not stored');
      return row.releasedAt;
    },

    /**
     * Summaries written before the latest import of one of their colleges' tables: an import from
     * the command line, which cannot evaluate, leaves them for the servers' sweep.
     */
    async accountsWithStaleSummaries(limit: number, tx: Executor = db): Promise<string[]> {
      const rows = await tx
        .selectDistinct({ accountId: creditSummaries.accountId })
        .from(creditSummaries)
        .innerJoin(
          equivalencyTables,
          sql`${equivalencyTables.sendingCeeb} = any(${creditSummaries.colleges})`,
        )
        .where(lt(creditSummaries.updatedAt, equivalencyTables.importedAt))
        .limit(limit);
      return rows.map((row) => row.accountId);
    },

    async transcriptsOf(accountId: string, tx: Executor = db): Promise<TranscriptRow[]> {
      return tx
        .select({
          gridKey: collegeTranscripts.gridKey,
          storageKey: collegeTranscripts.storageKey,
          fileName: collegeTranscripts.fileName,
          byteSize: collegeTranscripts.byteSize,
          attachedByLabel: collegeTranscripts.attachedByLabel,
          attachedAt: collegeTranscripts.attachedAt,
        })
        .from(collegeTranscripts)
        .where(eq(collegeTranscripts.accountId, accountId));
    },

    /** Attaches a college's transcript; answers the storage key of the one it replaced, if any. */
    async attachTranscript(
      accountId: string,
      transcript: Pick<TranscriptRow, 'gridKey' | 'storageKey' | 'fileName' | 'byteSize'>,
      by: Reviewer,
      tx: Executor = db,
    ): Promise<string | null> {
      const [before] = await tx
        .select({ storageKey: collegeTranscripts.storageKey })
        .from(collegeTranscripts)
        .where(
          and(
            eq(collegeTranscripts.accountId, accountId),
            eq(collegeTranscripts.gridKey, transcript.gridKey),
          ),
        )
        .for('update');
      const values = {
        storageKey: transcript.storageKey,
        fileName: transcript.fileName,
        byteSize: transcript.byteSize,
        attachedById: by.id,
        attachedByLabel: by.label,
      };
      await tx
        .insert(collegeTranscripts)
        .values({ accountId, gridKey: transcript.gridKey, ...values })
        .onConflictDoUpdate({
          target: [collegeTranscripts.accountId, collegeTranscripts.gridKey],
          set: { ...values, attachedAt: sql`now()` },
        });
      return before?.storageKey ?? null;
    },
  };
}

export type CreditStore = ReturnType<typeof createCreditStore>;
