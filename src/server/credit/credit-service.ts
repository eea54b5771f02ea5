import type { FastifyBaseLogger } from 'fastify';
import { gradeEffect } from '../../shared/coursework/coursework-rules';
import { CREDIT_MESSAGES, type ReviewBody } from '../../shared/credit/credit-api';
import {
  type CourseReview,
  type CreditEvaluation,
  evaluateCredit,
} from '../../shared/credit/credit-evaluation';
import type { FormModel } from '../../shared/form/model';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { RequestAudit } from '../audit/request-audit';
import type {
  CourseworkUpdatesStore,
  SubmittedApplication,
} from '../coursework/coursework-updates-store';
import { type Executor, readAll } from '../db/executor';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import { creditGridsOf, type PlacedCreditGrid } from './credit-grids';
import { type CreditStore, type Reviewer, summaryOf } from './credit-store';
import type { EquivalenciesStore } from './equivalencies-store';

export interface CreditServiceDeps {
  model: FormModel;
  tenant: Pick<TenantConfig, 'coursework' | 'credit'>;
  store: CreditStore;
  coursework: CourseworkUpdatesStore;
  equivalencies: Pick<EquivalenciesStore, 'tablesFor'>;
  log?: Pick<FastifyBaseLogger, 'info'>;
}

export interface EvaluatedApplication {
  application: SubmittedApplication;
  grids: PlacedCreditGrid[];
  evaluation: CreditEvaluation;
}

/** How often servers that run jobs write missing and stale summaries. */
export const CREDIT_SWEEP_INTERVAL_MS = 60_000;

/** Applications refreshed per transaction when an import or a start-up refreshes many. */
const REFRESH_BATCH = 200;

function invalid(field: string, message: string): HttpError {
  return new HttpError(400, message, { [field]: [message] });
}

/**
 * Transfer credit of submitted applications: evaluated from the current coursework, the
 * equivalency tables and the evaluator's reviews (evaluateCredit), with the summary the list
 * reads rewritten whenever one of those changes.
 */
export function createCreditService(deps: CreditServiceDeps) {
  const { model, store, coursework } = deps;
  const rules = deps.tenant.coursework;
  const requirements = deps.tenant.credit.requirements;

  async function evaluate(
    accountId: string,
    tx: Executor | undefined,
    options: { lock?: boolean; withReviews?: boolean } = {},
  ): Promise<EvaluatedApplication | null> {
    const application = await coursework.application(accountId, tx, options);
    if (!application?.submittedAt) return null;
    const updates = await coursework.updatesOf(accountId, tx);
    const grids = creditGridsOf(model, application, updates);
    const ceebs = grids.flatMap((grid) => (grid.ceeb ? [grid.ceeb] : []));
    const [tables, reviews] = await readAll(tx, [
      () => deps.equivalencies.tablesFor(ceebs, tx),
      // Without reviews: what the applicant's own entries give, for the applicant, who must not
      // learn of an evaluator's work before the estimate is released.
      () =>
        options.withReviews === false
          ? Promise.resolve(new Map<string, CourseReview>())
          : store.reviewsOf(accountId, tx),
    ]);
    const evaluation = evaluateCredit({
      grids,
      tables,
      reviews,
      rules,
      requirements,
      answers: application.answers,
    });
    return { application, grids, evaluation };
  }

  async function refresh(accountId: string, tx?: Executor): Promise<CreditEvaluation | null> {
    const evaluated = await evaluate(accountId, tx);
    if (evaluated) await store.saveSummary(accountId, summaryOf(evaluated.evaluation), tx);
    return evaluated?.evaluation ?? null;
  }

  async function refreshAll(accountIds: readonly string[]): Promise<number> {
    for (let start = 0; start < accountIds.length; start += REFRESH_BATCH) {
      const batch = accountIds.slice(start, start + REFRESH_BATCH);
      await store.transaction(async (tx) => {
        for (const accountId of batch) await refresh(accountId, tx);
      });
    }
    return accountIds.length;
  }

  /** The evaluation of a submitted application for staff: 404 for no application, 409 unsubmitted. */
  async function required(accountId: string, tx?: Executor, options: { lock?: boolean } = {}) {
    const evaluated = await evaluate(accountId, tx, options);
    if (evaluated) return evaluated;
    const application = await coursework.application(accountId, tx);
    if (!application) throw new HttpError(404, NOT_FOUND_MESSAGE);
    throw new HttpError(409, CREDIT_MESSAGES.notSubmitted);
  }

  return {
    evaluate,
    required,
    refresh,

    /** After an import: every application with one of these colleges is mapped again. */
    async refreshColleges(ceebs: readonly string[]): Promise<number> {
      return refreshAll(await store.accountsWithColleges(ceebs));
    },

    /**
     * Writes the summaries that are missing (applications submitted before transfer credit was
     * evaluated) or stale (a table imported from the command line since), in batches, so the
     * list's credit filters find them. Answers how many were written.
     */
    async refreshOutdated(): Promise<number> {
      let total = 0;
      for (;;) {
        const batch = [
          ...(await store.accountsWithoutSummary(REFRESH_BATCH)),
          ...(await store.accountsWithStaleSummaries(REFRESH_BATCH)),
        ];
        if (batch.length === 0) return total;
        total += await refreshAll(batch);
        deps.log?.info({ refreshed: total }, 'credit summaries written');
      }
    },

    /**
     * Sets one course's review (verified, corrected with a reason, or not on the transcript),
     * audited with what changed, and answers the evaluation after it.
     */
    async review(
      accountId: string,
      body: ReviewBody,
      by: Reviewer,
      audit: RequestAudit,
    ): Promise<CreditEvaluation> {
      if (body.grade !== null && gradeEffect(body.grade, rules).kind === 'unknown')
        throw invalid('grade', CREDIT_MESSAGES.grade);
      return store.transaction(async (tx) => {
        // Locked: two evaluators on one application take turns, each seeing the other's work.
        const { evaluation } = await required(accountId, tx, { lock: true });
        const course = evaluation.courses.find((candidate) => candidate.ref === body.course_ref);
        if (!course) throw invalid('course_ref', CREDIT_MESSAGES.unknownCourse);
        const corrected = body.status === 'corrected';
        await store.saveReview(
          accountId,
          {
            course_ref: body.course_ref,
            status: body.status,
            grade: corrected ? body.grade : null,
            units: corrected ? body.units : null,
            mapping: corrected ? body.mapping : null,
            reason: body.reason,
          },
          by,
          tx,
        );
        const after = await refresh(accountId, tx);
        if (!after) throw new Error('a submitted application has an evaluation');
        await audit.record(
          {
            action: 'credit.course_reviewed',
            applicationId: accountId,
            detail: {
              course_ref: body.course_ref,
              status: body.status,
              ...(corrected
                ? {
                    grade: body.grade === null ? undefined : { from: course.grade, to: body.grade },
                    units: body.units === null ? undefined : { from: course.units, to: body.units },
                    mapping:
                      body.mapping === null
                        ? undefined
                        : {
                            from: course.mapping.local_course || course.mapping.kind,
                            to: body.mapping.local_course || body.mapping.kind,
                          },
                    reason: body.reason,
                  }
                : {}),
            },
          },
          tx,
        );
        return after;
      });
    },

    /** Removes a course's review (back to the table's mapping and the applicant's entry). */
    async undoReview(
      accountId: string,
      courseRef: string,
      audit: RequestAudit,
    ): Promise<CreditEvaluation> {
      return store.transaction(async (tx) => {
        await required(accountId, tx, { lock: true });
        if (!(await store.deleteReview(accountId, courseRef, tx)))
          throw invalid('course_ref', CREDIT_MESSAGES.unknownCourse);
        const after = await refresh(accountId, tx);
        if (!after) throw new Error('a submitted application has an evaluation');
        await audit.record(
          {
            action: 'credit.review_undone',
            applicationId: accountId,
            detail: { course_ref: courseRef },
          },
          tx,
        );
        return after;
      });
    },
  };
}

export type CreditService = ReturnType<typeof createCreditService>;
