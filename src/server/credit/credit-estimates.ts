import { CREDIT_MESSAGES, type ReleasedEstimate } from '../../shared/credit/credit-api';
import type { CreditEvaluation } from '../../shared/credit/credit-evaluation';
import type { RequirementResult } from '../../shared/credit/credit-requirements';
import { COMPLETION_ROUTE } from '../../shared/routes';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { parseSelectionQueryString } from '../applications-list/application-selection';
import { selectionCondition } from '../applications-list/application-selection-store';
import type { RequestAudit } from '../audit/request-audit';
import type { Env } from '../config/env';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { BATCH_MAX } from '../decisions/decision-service';
import { HttpError } from '../http/http-error';
import { brandedMail } from '../mail/account-messages';
import type { Mailer, MailMessage } from '../mail/mailer';
import type { CreditService } from './credit-service';
import type { CreditStore, Reviewer } from './credit-store';

/** Estimates released per transaction: a batch of 5,000 is released in steps, not one lock. */
const RELEASE_STEP = 100;

export const ESTIMATE_MAIL_SUBJECT = 'A transfer credit estimate is available';

export interface CreditEstimatesDeps {
  db: AppDatabase;
  tenant: TenantConfig;
  env: Pick<Env, 'PUBLIC_URL'>;
  mailer: Mailer;
  credit: CreditService;
  store: CreditStore;
}

/** Who releases: the staff member, and the request's audit trail (their actor and address). */
export interface EstimateCaller {
  by: Reviewer;
  audit: RequestAudit;
}

export interface EstimateBatchResult {
  /** Estimates released. */
  count: number;
  /** Matching submitted applications left alone: no courses to estimate. */
  skipped: number;
}

function invalid(field: string, message: string): HttpError {
  return new HttpError(400, message, { [field]: [message] });
}

/** The applicant's name as the application gives it. */
export function applicantNameOf(answers: Record<string, unknown>): string {
  const text = (key: string) =>
    typeof answers[key] === 'string' ? String(answers[key]).trim() : '';
  return [text('first_name'), text('last_name')].filter(Boolean).join(' ');
}

/**
 * The credit estimate, released like a decision: the evaluation as it stands is kept as released
 * (release again replaces it), audited in the same transaction, and the applicant is told by one
 * mail that says only that an estimate is available. Nothing of an unreleased evaluation reaches
 * the applicant: their own routes read the released snapshot, and their requirements are
 * computed from their own entries without the evaluator's reviews.
 */
export function createCreditEstimates(deps: CreditEstimatesDeps) {
  const { db, credit, store, mailer, tenant } = deps;
  const mail = brandedMail(tenant);

  function releaseMail(to: string): MailMessage {
    const base = deps.env.PUBLIC_URL?.replace(/\/+$/, '');
    // Like a decision's mail: mail can be read by others, so it says only that there is one.
    return mail(
      to,
      ESTIMATE_MAIL_SUBJECT,
      [
        `A transfer credit estimate for your application to ${tenant.partner_name} is now available.`,
        'Sign in to your application account to read it.',
      ],
      base ? { label: 'Sign in to read it', url: `${base}${COMPLETION_ROUTE}` } : undefined,
    );
  }

  async function emailOf(accountId: string, tx: Executor): Promise<string | null> {
    return (await store.applicantOf(accountId, tx))?.email ?? null;
  }

  /**
   * Releases one application's estimate inside `tx`; answers the mail to send after the commit,
   * or null when there is nothing to estimate and `skipEmpty` is set.
   */
  async function releaseIn(
    accountId: string,
    caller: EstimateCaller,
    tx: Executor,
    options: { batch?: boolean } = {},
  ): Promise<{ releasedAt: Date; message: MailMessage | null } | null> {
    const { evaluation } = await credit.required(accountId, tx, { lock: true });
    if (evaluation.courses.length === 0) {
      if (options.batch) return null;
      throw invalid('applicationId', CREDIT_MESSAGES.estimateNothing);
    }
    const releasedAt = await store.saveEstimate(accountId, evaluation, caller.by, tx);
    await caller.audit.record(
      {
        action: 'credit.estimate_released',
        applicationId: accountId,
        detail: {
          ...(options.batch ? { batch: true } : {}),
          courses: evaluation.summary.courses,
          credit_units: evaluation.totals.credit_units,
          pending_credit_units: evaluation.totals.pending_credit_units,
        },
      },
      tx,
    );
    const email = await emailOf(accountId, tx);
    return { releasedAt, message: email ? releaseMail(email) : null };
  }

  return {
    /** Releases (or releases again) one application's estimate. */
    async release(
      accountId: string,
      caller: EstimateCaller,
    ): Promise<{ released_at: string; released_by: string }> {
      const done = await store.transaction((tx) => releaseIn(accountId, caller, tx));
      if (!done) throw invalid('applicationId', CREDIT_MESSAGES.estimateNothing);
      // After the commit: a rolled-back release must not have told anyone.
      if (done.message) mailer.send(done.message);
      return { released_at: done.releasedAt.toISOString(), released_by: caller.by.label };
    },

    /** Releases the estimate of every submitted application a list's query selects. */
    async releaseBatch(query: string, caller: EstimateCaller): Promise<EstimateBatchResult> {
      const parsed = parseSelectionQueryString(query);
      const selection = await selectionCondition(db, parsed.request);
      const ids = selection ? await store.submittedIn(selection.where, BATCH_MAX + 1) : [];
      if (ids.length === 0) throw invalid('query', CREDIT_MESSAGES.batchEmpty);
      if (ids.length > BATCH_MAX) throw invalid('query', CREDIT_MESSAGES.batchTooMany);
      let count = 0;
      for (let start = 0; start < ids.length; start += RELEASE_STEP) {
        const step = ids.slice(start, start + RELEASE_STEP);
        const messages = await store.transaction(async (tx) => {
          const sent: MailMessage[] = [];
          for (const id of step) {
            const done = await releaseIn(id, caller, tx, { batch: true });
            if (!done) continue;
            count += 1;
            if (done.message) sent.push(done.message);
          }
          return sent;
        });
        for (const message of messages) mailer.send(message);
      }
      return { count, skipped: ids.length - count };
    },

    /** The evaluation as it would be released now, for the staff preview. */
    async preview(accountId: string): Promise<{ evaluation: CreditEvaluation; name: string }> {
      const { evaluation, application } = await credit.required(accountId);
      if (evaluation.courses.length === 0)
        throw invalid('applicationId', CREDIT_MESSAGES.estimateNothing);
      return { evaluation, name: applicantNameOf(application.answers) };
    },

    /** The applicant's estimate: null until released, exactly as if there were none. */
    async released(accountId: string): Promise<ReleasedEstimate | null> {
      const row = await store.estimateOf(accountId);
      return row ? { released_at: row.releasedAt.toISOString(), evaluation: row.evaluation } : null;
    },

    /** The released snapshot with the applicant's name, for its PDF; null before release. */
    async releasedForPdf(
      accountId: string,
    ): Promise<{ evaluation: CreditEvaluation; releasedAt: Date; name: string } | null> {
      const row = await store.estimateOf(accountId);
      if (!row) return null;
      const applicant = await store.applicantOf(accountId);
      return {
        evaluation: row.evaluation,
        releasedAt: row.releasedAt,
        name: applicantNameOf(applicant?.answers ?? {}),
      };
    },

    /**
     * The requirements the tenant shows applicants, on the applicant's own entries only (no
     * evaluator's review: an unreleased evaluation stays unknown to them); [] before submit and
     * without courses.
     */
    async applicantRequirements(accountId: string): Promise<RequirementResult[]> {
      const evaluated = await credit.evaluate(accountId, undefined, { withReviews: false });
      // Without a course entered there is nothing to compute them from: none are shown.
      if (!evaluated || evaluated.evaluation.courses.length === 0) return [];
      return evaluated.evaluation.requirements.filter(
        (requirement) => requirement.show_to_applicant,
      );
    },
  };
}

export type CreditEstimates = ReturnType<typeof createCreditEstimates>;
