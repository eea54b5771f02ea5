import { answerKeySpecs, parseAnswerPatch } from '../../shared/form/answer-keys';
import type { Answers, FormState } from '../../shared/form/model';
import { hiddenAnswersPatch } from '../../shared/form/resolve';
import { validateAnswers } from '../../shared/form/validate';
import {
  type Agreement,
  type ApplicationReviews,
  type CommitteeView,
  READ_ROUNDS,
  REVIEW_MESSAGES_API,
  type ReadView,
} from '../../shared/review/review-api';
import {
  buildReviewForm,
  criterionSpreads,
  needsThirdRead,
  type ReviewForm,
  readScore,
  reviewFormConfigFor,
  withoutBlindAnswers,
} from '../../shared/review/review-form';
import { roleAllows, type StaffRole } from '../../shared/staff/permissions';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { Executor } from '../db/executor';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import type { ReadRow, ReadWithReader, ReviewStore } from './review-store';

/** Who is reading: the member's id and role. */
export interface Reader {
  id: string;
  role: StaffRole;
}

/** What a refused or done call writes to the audit trail (ids only, never answers). */
export type ReviewAuditNote = (
  entry: {
    action: 'review.started' | 'review.submitted' | 'review.refused';
    applicationId: string;
    detail: Record<string, string | number | boolean | null>;
  },
  tx?: Executor,
) => Promise<void>;

/** Who gives a third read started by a score gap a reader. */
export const SCORE_GAP_ASSIGNER = 'Score gap';

const iso = (date: Date | null) => date?.toISOString() ?? null;
const today = () => new Date().toISOString().slice(0, 10);

function formState(answers: Answers): FormState {
  return { answers, addAnother: {}, tabs: {}, isLoggedIn: true };
}

/**
 * The blind rule: a member sees another read's blind answers, score and recommendation only with
 * the committee permission or once they have submitted their own read of the application.
 */
export function seesBlind(reader: Reader, reads: readonly Pick<ReadRow, 'readerId' | 'status'>[]) {
  return (
    roleAllows(reader.role, 'reviews.committee') ||
    reads.some((read) => read.readerId === reader.id && read.status === 'submitted')
  );
}

export interface ReviewServiceDeps {
  store: ReviewStore;
  tenant: Pick<TenantConfig, 'review' | 'decisions'>;
  /** Called after a submit left reads without a reader (a third read), to find them one. */
  onReadsWaiting?: (accountId: string) => Promise<void>;
  log?: { warn(object: object, message: string): void };
}

/** Reads: seen under the blind rule, started, saved as drafts and submitted once. */
export function createReviewService(deps: ReviewServiceDeps) {
  const { store, tenant } = deps;
  const decisionCodes = tenant.decisions.codes.map((code) => ({
    value: code.code,
    label: code.label,
  }));
  const labelOf = (code: string) =>
    decisionCodes.find((option) => option.value === code)?.label ?? code;
  const forms = new Map<string, ReviewForm>();
  /** The form of a cycle (`FA26`), or of a read's `form_cycle` (`*` too). */
  const formFor = (cycle: string | null): ReviewForm => {
    const config = reviewFormConfigFor(tenant.review, cycle);
    const cached = forms.get(config.cycle);
    if (cached) return cached;
    const built = buildReviewForm(config, decisionCodes);
    forms.set(config.cycle, built);
    return built;
  };

  function readView(read: ReadWithReader, blind: boolean): ReadView {
    const form = formFor(read.formCycle);
    let answers: Answers = read.answers;
    if (blind) {
      answers = withoutBlindAnswers(form, answers);
      if (form.recommendationKey) delete answers[form.recommendationKey];
    }
    return {
      id: read.id,
      application_id: read.accountId,
      round: read.round,
      status: read.status,
      reader_id: read.readerId,
      reader_name: read.readerName,
      form_cycle: read.formCycle,
      form_version: read.formVersion,
      answers: answers as Record<string, string | boolean>,
      ...(blind ? {} : { score: read.score, recommendation: read.recommendation }),
      assigned_at: read.assignedAt.toISOString(),
      saved_at: iso(read.savedAt),
      submitted_at: iso(read.submittedAt),
      blinded: blind,
    };
  }

  /** The application, 404 when unknown and 409 when not submitted. */
  async function submittedApplication(accountId: string, tx?: Executor) {
    const application = await store.application(accountId, tx);
    if (!application) throw new HttpError(404, NOT_FOUND_MESSAGE);
    if (!application.submitted)
      throw new HttpError(409, REVIEW_MESSAGES_API.notSubmittedApplication);
    return application;
  }

  /**
   * A read that is this member's own and still open. Checked before the transaction so that a
   * refusal's audit entry is not rolled back with it; checked again under the row's lock.
   */
  async function ownOpenRead(
    readId: string,
    reader: Reader,
    audit: ReviewAuditNote,
    attempt: 'draft' | 'submit',
    tx?: Executor,
  ): Promise<ReadRow> {
    const read = await store.read(readId, tx, tx !== undefined);
    if (!read) throw new HttpError(404, NOT_FOUND_MESSAGE);
    const application = await store.application(read.accountId, tx);
    if (!application?.submitted)
      throw new HttpError(409, REVIEW_MESSAGES_API.notSubmittedApplication);
    if (read.readerId !== reader.id) {
      if (!tx)
        await audit({
          action: 'review.refused',
          applicationId: read.accountId,
          detail: { read_id: read.id, attempt, reason: 'not_yours' },
        });
      throw new HttpError(403, REVIEW_MESSAGES_API.notYours);
    }
    if (read.status === 'submitted') throw new HttpError(409, REVIEW_MESSAGES_API.submitted);
    return read;
  }

  async function withReaderName(read: ReadRow, tx: Executor): Promise<ReadWithReader> {
    const reads = await store.readsOf(read.accountId, tx);
    return reads.find((each) => each.id === read.id) ?? { ...read, readerName: null };
  }

  return {
    formFor,
    readView,
    labelOf,

    async applicationReviews(accountId: string, reader: Reader): Promise<ApplicationReviews> {
      const application = await submittedApplication(accountId);
      const reads = await store.readsOf(accountId);
      const blind = !seesBlind(reader, reads);
      const mine = reads.find((read) => read.readerId === reader.id) ?? null;
      return {
        form: reviewFormConfigFor(tenant.review, application.cycle),
        decision_codes: decisionCodes,
        mine: mine ? readView(mine, false) : null,
        others: reads.filter((read) => read !== mine).map((read) => readView(read, blind)),
        can_start: mine === null && roleAllows(reader.role, 'reviews.read_unassigned'),
      };
    },

    /** A read of an application not assigned to the member (reviews.read_unassigned). */
    async start(accountId: string, reader: Reader, audit: ReviewAuditNote): Promise<ReadView> {
      if (!roleAllows(reader.role, 'reviews.read_unassigned')) {
        await submittedApplication(accountId);
        await audit({
          action: 'review.refused',
          applicationId: accountId,
          detail: { attempt: 'start', reason: 'not_assigned' },
        });
        throw new HttpError(403, REVIEW_MESSAGES_API.notAssigned);
      }
      return store.transaction(async (tx) => {
        const application = await submittedApplication(accountId, tx);
        await store.lockApplication(accountId, tx);
        const reads = await store.readsOf(accountId, tx);
        if (reads.some((read) => read.readerId === reader.id))
          throw new HttpError(409, REVIEW_MESSAGES_API.alreadyReading);
        const taken = new Set(reads.map((read) => read.round));
        const round = READ_ROUNDS.find((each) => !taken.has(each));
        let started: ReadRow | null = null;
        if (round) {
          const form = formFor(application.cycle);
          started = await store.insertRead(
            {
              accountId,
              round,
              readerId: reader.id,
              formCycle: form.cycle,
              formVersion: form.version,
              assignedBy: 'Started by the reader',
            },
            tx,
          );
        } else {
          // A third read waiting for a reader is taken by whoever starts one.
          const waiting = reads.find(
            (read) => read.readerId === null && read.status !== 'submitted',
          );
          if (waiting) started = await store.claim(waiting.id, reader.id, tx);
        }
        if (!started) throw new HttpError(409, REVIEW_MESSAGES_API.roundsFull);
        await audit(
          {
            action: 'review.started',
            applicationId: accountId,
            detail: { read_id: started.id, round: started.round },
          },
          tx,
        );
        return readView(await withReaderName(started, tx), false);
      });
    },

    async saveDraft(
      readId: string,
      patch: unknown,
      reader: Reader,
      audit: ReviewAuditNote,
    ): Promise<ReadView> {
      await ownOpenRead(readId, reader, audit, 'draft');
      return store.transaction(async (tx) => {
        const read = await ownOpenRead(readId, reader, audit, 'draft', tx);
        const form = formFor(read.formCycle);
        const parsed = parseAnswerPatch(answerKeySpecs(form.model), patch);
        if (!parsed.ok) throw new HttpError(422, REVIEW_MESSAGES_API.invalidAnswers, parsed.errors);
        const merged: Answers = { ...read.answers, ...parsed.patch };
        const answers = { ...merged, ...hiddenAnswersPatch(form.model, formState(merged)) };
        const saved = await store.saveDraft(
          read.id,
          answers as Record<string, string | boolean>,
          tx,
        );
        if (!saved) throw new HttpError(409, REVIEW_MESSAGES_API.submitted);
        return readView(await withReaderName(saved, tx), false);
      });
    },

    async submit(readId: string, reader: Reader, audit: ReviewAuditNote): Promise<ReadView> {
      let waiting: string | null = null;
      await ownOpenRead(readId, reader, audit, 'submit');
      const view = await store.transaction(async (tx) => {
        const read = await ownOpenRead(readId, reader, audit, 'submit', tx);
        await store.lockApplication(read.accountId, tx);
        const form = formFor(read.formCycle);
        const errors = validateAnswers(form.model, formState(read.answers), { today: today() });
        if (Object.keys(errors).length > 0)
          throw new HttpError(422, REVIEW_MESSAGES_API.incomplete, errors);
        const recommendation = form.recommendationKey
          ? read.answers[form.recommendationKey]
          : undefined;
        const saved = await store.submit(
          read.id,
          {
            score: readScore(form.criteria, read.answers),
            recommendation:
              typeof recommendation === 'string' && recommendation !== '' ? recommendation : null,
          },
          tx,
        );
        if (!saved) throw new HttpError(409, REVIEW_MESSAGES_API.submitted);
        await audit(
          {
            action: 'review.submitted',
            applicationId: read.accountId,
            detail: { read_id: read.id, round: read.round },
          },
          tx,
        );
        const reads = await store.readsOf(read.accountId, tx);
        const pair = reads.filter(
          (each) =>
            (each.round === 'first' || each.round === 'second') && each.status === 'submitted',
        );
        const hasThird = reads.some((each) => each.round === 'third');
        if (
          read.round !== 'third' &&
          pair.length === 2 &&
          !hasThird &&
          needsThirdRead(
            pair.map((each) => each.score),
            tenant.review.third_read_gap,
          )
        ) {
          await store.insertRead(
            {
              accountId: read.accountId,
              round: 'third',
              readerId: null,
              formCycle: read.formCycle,
              formVersion: read.formVersion,
              assignedBy: SCORE_GAP_ASSIGNER,
            },
            tx,
          );
          waiting = read.accountId;
        }
        return readView(await withReaderName(saved, tx), false);
      });
      if (waiting && deps.onReadsWaiting) {
        // The submit stands whether or not a reader is found now; the finder can run again later.
        await deps.onReadsWaiting(waiting).catch((error: unknown) => {
          deps.log?.warn({ err: error, applicationId: waiting }, 'no reader found for a read');
        });
      }
      return view;
    },

    async committee(accountId: string): Promise<CommitteeView> {
      const application = await submittedApplication(accountId);
      const reads = await store.readsOf(accountId);
      const submitted = reads.filter((read) => read.status === 'submitted');
      const form = formFor(reads[0]?.formCycle ?? application.cycle);
      const scores = submitted
        .map((read) => read.score)
        .filter((score): score is number => score !== null);
      const tally = new Map<string, number>();
      for (const read of submitted)
        if (read.recommendation)
          tally.set(read.recommendation, (tally.get(read.recommendation) ?? 0) + 1);
      return {
        form: reviewFormConfigFor(tenant.review, application.cycle),
        reads: reads.map((read) => readView(read, false)),
        criteria: criterionSpreads(
          form.criteria,
          submitted.map((read) => read.answers),
        ),
        mean_score:
          scores.length === 0
            ? null
            : Math.round((scores.reduce((sum, score) => sum + score, 0) / scores.length) * 100) /
              100,
        recommendations: [...tally.entries()]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .map(([code, count]) => ({ code, label: labelOf(code), count })),
        bands: tenant.review.score_bands ?? null,
        third_read_gap: tenant.review.third_read_gap ?? null,
      };
    },

    async agreement(): Promise<Agreement> {
      const within = tenant.review.third_read_gap ?? 1;
      const byCycle = new Map<
        string | null,
        Awaited<ReturnType<ReviewStore['firstAndSecondPairs']>>
      >();
      for (const pair of await store.firstAndSecondPairs()) {
        const list = byCycle.get(pair.cycle) ?? [];
        list.push(pair);
        byCycle.set(pair.cycle, list);
      }
      const cycles = [...byCycle.entries()]
        .sort(([a], [b]) => (a ?? '').localeCompare(b ?? ''))
        .map(([cycle, pairs]) => {
          const scored = pairs.filter(
            (pair) => pair.firstScore !== null && pair.secondScore !== null,
          );
          const differences = scored.map((pair) =>
            Math.abs((pair.firstScore as number) - (pair.secondScore as number)),
          );
          const form = formFor(pairs[0]?.firstFormCycle ?? cycle);
          const round = (value: number) => Math.round(value * 1000) / 1000;
          return {
            cycle,
            count: pairs.length,
            mean_difference:
              differences.length === 0
                ? null
                : round(differences.reduce((sum, value) => sum + value, 0) / differences.length),
            within_gap:
              differences.length === 0
                ? null
                : round(differences.filter((value) => value <= within).length / differences.length),
            within,
            criteria: form.criteria.map((criterion) => {
              const both = pairs.filter(
                (pair) =>
                  typeof pair.firstAnswers[criterion.key] === 'string' &&
                  pair.firstAnswers[criterion.key] !== '' &&
                  typeof pair.secondAnswers[criterion.key] === 'string' &&
                  pair.secondAnswers[criterion.key] !== '',
              );
              const same = both.filter(
                (pair) => pair.firstAnswers[criterion.key] === pair.secondAnswers[criterion.key],
              );
              return {
                key: criterion.key,
                label: criterion.label,
                count: both.length,
                exact: both.length === 0 ? null : round(same.length / both.length),
              };
            }),
          };
        });
      return { cycles };
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
