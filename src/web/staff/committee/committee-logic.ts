import type { OptionItem } from '../../../shared/form/model';
import {
  type AssignmentResult,
  assignListSchema,
  type CommitteeView,
  REVIEW_MESSAGES_API,
  type ReadView,
} from '../../../shared/review/review-api';
import type { ReviewFieldConfig } from '../../../shared/review/review-config';
import { needsThirdRead, scoreBand } from '../../../shared/review/review-form';
import { listQueryFromSearch, listQueryString } from '../../../shared/staff/list-query';
import { STAFF_HOME_ROUTE } from '../shell/staff-session';

/*
 * What the committee's screens say, as pure functions: the numbers of the reads, the tally's
 * links and the words of an assignment, so each can be checked without a browser.
 */

type Bands = NonNullable<CommitteeView['bands']>;
type Criterion = CommitteeView['criteria'][number];

const one = (value: number) => value.toFixed(1);

/** A point or a score as the committee reads it: its band when bands are shown, else the number. */
export function scoreText(score: number | null | undefined, bands: Bands | null): string {
  if (score === null || score === undefined) return '';
  if (bands) return scoreBand(bands, score) ?? 'Below every band';
  return Number.isInteger(score) ? String(score) : score.toFixed(2);
}

/** A criterion's mean, spread and range: "4.0 ± 1.0, 3–5"; with bands, the bands instead. */
export function spreadText(criterion: Criterion, bands: Bands | null = null): string {
  const { mean, spread, min, max } = criterion;
  if (criterion.count === 0 || mean === null || min === null || max === null)
    return 'No scores yet';
  if (bands) {
    const low = scoreText(min, bands);
    const high = scoreText(max, bands);
    return low === high ? scoreText(mean, bands) : `${scoreText(mean, bands)} (${low} to ${high})`;
  }
  const range = min === max ? String(min) : `${min}–${max}`;
  return `${one(mean)} ± ${one(spread ?? 0)}, ${range}`;
}

/** The criterion's answer in a read: a point of its scale, or nothing when not answered or blind. */
export function pointOf(read: ReadView, criterionKey: string): number | null {
  const value = read.answers[criterionKey];
  return typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : null;
}

/** The sentence when the submitted reads' scores are further apart than a third read allows. */
export function gapNote(view: Pick<CommitteeView, 'reads' | 'third_read_gap'>): string | null {
  if (view.third_read_gap === null) return null;
  const scores = view.reads
    .filter((read) => read.status === 'submitted')
    .map((read) => read.score ?? null);
  if (!needsThirdRead(scores, view.third_read_gap)) return null;
  const known = scores.filter((score): score is number => score !== null);
  const gap = Math.max(...known) - Math.min(...known);
  return `The scores differ by ${gap.toFixed(2)}, more than the third-read gap of ${view.third_read_gap}: a third read is called for.`;
}

/**
 * The list filtered by one recommendation. Built through the list's own query helpers, so it
 * is the list's one address for that view once the list has the filter; until then the plain
 * parameter is kept.
 */
export function recommendationListHref(code: string): string {
  const wanted = new URLSearchParams({ recommendation: code });
  const search = listQueryString(listQueryFromSearch(wanted), { paging: false });
  return `${STAFF_HOME_ROUTE}?${search.includes('recommendation=') ? search : wanted.toString()}`;
}

/** The review form's answers that are neither scores nor the recommendation (comments, choices). */
export function otherFields(
  items: CommitteeView['form']['items'],
): Extract<ReviewFieldConfig, { kind: 'text' | 'choice' }>[] {
  const fields = items.flatMap((item) => (item.kind === 'section' ? item.items : [item]));
  return fields.filter(
    (field): field is Extract<ReviewFieldConfig, { kind: 'text' | 'choice' }> =>
      field.kind === 'text' || field.kind === 'choice',
  );
}

/** An answer as words: a choice's label, or the text itself. */
export function answerText(
  field: Extract<ReviewFieldConfig, { kind: 'text' | 'choice' }>,
  value: string | boolean | undefined,
): string {
  if (value === undefined || value === '') return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (field.kind === 'choice')
    return field.options.find((option: OptionItem) => option.value === value)?.label ?? value;
  return value;
}

// Assigning a list -----------------------------------------------------------------------------

const count = (n: number, word: string) =>
  `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** "Assign 240 applications to 2 readers?" */
export function assignQuestion(applications: number, readers: number): string {
  return `Assign ${count(applications, 'application')} to ${count(readers, 'reader')}?`;
}

export const CAP_MESSAGE = 'Enter a whole number from 1 to 10,000, or leave it empty.';

export interface AssignChoices {
  readerIds: readonly string[];
  secondReads: boolean;
  /** As typed; empty: no cap. */
  cap: string;
}

export type AssignCheck =
  | { ok: true; body: ReturnType<typeof assignListSchema.parse> }
  | { ok: false; errors: { readers?: string; cap?: string } };

/** The call's body for the list and the count the administrator saw, or what is wrong. */
export function assignBody(search: string, choices: AssignChoices, expected: number): AssignCheck {
  const errors: { readers?: string; cap?: string } = {};
  if (choices.readerIds.length === 0) errors.readers = REVIEW_MESSAGES_API.noReaders;
  const cap = choices.cap.trim();
  if (cap !== '' && !(/^\d{1,5}$/.test(cap) && Number(cap) >= 1 && Number(cap) <= 10_000))
    errors.cap = CAP_MESSAGE;
  if (errors.readers || errors.cap) return { ok: false, errors };
  const parsed = assignListSchema.safeParse({
    query: search,
    reader_ids: [...choices.readerIds],
    second_reads: choices.secondReads,
    ...(cap === '' ? {} : { cap: Number(cap) }),
    expected_count: expected,
  });
  if (!parsed.success) return { ok: false, errors: { readers: parsed.error.issues[0]?.message } };
  return { ok: true, body: parsed.data };
}

/** The result of an assignment in one announcement: per reader, and what was left. */
export function assignmentText(result: AssignmentResult): string {
  const parts = [`Assigned ${count(result.assigned, 'read')}.`];
  if (result.per_reader.length > 0)
    parts.push(
      `${result.per_reader.map((reader) => `${reader.name}: ${reader.count.toLocaleString('en-US')}`).join(', ')}.`,
    );
  if (result.already_assigned > 0)
    parts.push(`${count(result.already_assigned, 'application')} already had every read.`);
  if (result.unassigned > 0)
    parts.push(
      `${count(result.unassigned, 'read')} left unassigned: every reader was conflicted or at the cap.`,
    );
  return parts.join(' ');
}
