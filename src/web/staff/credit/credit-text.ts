import type { CreditEvaluationView, ReviewBody } from '../../../shared/credit/credit-api';
import { reviewBodySchema } from '../../../shared/credit/credit-api';
import {
  type CreditCourse,
  type CreditSummary,
  MAPPING_KIND_LABELS,
  REVIEW_STATUS_LABELS,
  type ReviewStatus,
} from '../../../shared/credit/credit-evaluation';
import type { EquivalencyKind } from '../../../shared/credit/equivalency';

/** `MATH 1A`. */
export function courseCode(course: Pick<CreditCourse, 'subject' | 'number'>): string {
  return [course.subject, course.number].filter(Boolean).join(' ');
}

/** Units as the evaluator reads them: `4`, `4.5`, `3.33`. */
export function unitsText(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** The effective grade, with what the applicant entered where a correction differs. */
export function gradeText(course: Pick<CreditCourse, 'grade' | 'effective_grade'>): string {
  const effective = course.effective_grade || '—';
  if (course.grade.toUpperCase() === course.effective_grade.toUpperCase()) return effective;
  return `${effective} (entered ${course.grade || 'none'})`;
}

/** The effective units, with the applicant's entry where a correction differs. */
export function courseUnitsText(course: Pick<CreditCourse, 'units' | 'effective_units'>): string {
  const effective = unitsText(course.effective_units);
  const entered = Number(course.units);
  if (course.units.trim() !== '' && Number.isFinite(entered) && entered === course.effective_units)
    return effective;
  return `${effective} (entered ${course.units.trim() || 'none'})`;
}

/** `MATH 150 · Course · GE-B4`, or `Needs review`. */
export function mappingText(mapping: CreditCourse['mapping']): string {
  const kind = MAPPING_KIND_LABELS[mapping.kind];
  const parts = [mapping.local_course, kind];
  if (
    mapping.local_units !== null &&
    mapping.kind !== 'needs_review' &&
    mapping.kind !== 'no_credit'
  )
    parts.push(`${unitsText(mapping.local_units)} units`);
  if (mapping.satisfies.length > 0) parts.push(mapping.satisfies.join(', '));
  return parts.filter(Boolean).join(' · ');
}

export function reviewText(course: Pick<CreditCourse, 'review'>): string {
  return course.review ? REVIEW_STATUS_LABELS[course.review.status] : 'Not reviewed';
}

/** `5 of 6 mapped`. */
export function mappedText(summary: CreditSummary): string {
  return `${summary.mapped} of ${summary.courses} mapped`;
}

/** `4 of 6 reviewed`. */
export function reviewedText(summary: CreditSummary): string {
  return `${summary.reviewed} of ${summary.courses} reviewed`;
}

const DONE: Record<ReviewStatus | 'undone', string> = {
  verified: 'verified',
  corrected: 'corrected',
  not_on_transcript: 'marked not on the transcript',
  undone: 'review undone',
};

/** What the live region says after a review: `MATH 1A verified. 4 of 6 reviewed.` */
export function reviewAnnouncement(
  code: string,
  done: ReviewStatus | 'undone',
  view: Pick<CreditEvaluationView, 'summary'>,
): string {
  return `${code} ${DONE[done]}. ${reviewedText(view.summary)}.`;
}

/** The correction form as typed: every field a string, empty for "keep what was entered". */
export interface CorrectionDraft {
  grade: string;
  units: string;
  kind: '' | EquivalencyKind;
  local_course: string;
  local_units: string;
  satisfies: string;
  reason: string;
}

export type CorrectionField = keyof CorrectionDraft;

export function emptyDraft(course: CreditCourse): CorrectionDraft {
  const corrected = course.review?.status === 'corrected' ? course.review : null;
  const mapping = corrected?.mapping ?? null;
  return {
    grade: corrected?.grade ?? '',
    units:
      corrected?.units === null || corrected?.units === undefined ? '' : String(corrected.units),
    kind: mapping?.kind ?? '',
    local_course: mapping?.local_course ?? '',
    local_units: mapping ? String(mapping.local_units) : '',
    satisfies: mapping?.satisfies.join(', ') ?? '',
    reason: corrected?.reason ?? '',
  };
}

/** A number typed in a units field, or the text itself so the schema refuses it with its words. */
function numberOf(text: string): number | string {
  const trimmed = text.trim();
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** Where the schema (or the server) puts an error, as the form's field. */
export function fieldOfPath(path: ReadonlyArray<PropertyKey>): CorrectionField | 'form' {
  const [first, second] = path.map(String);
  if (first === 'mapping') {
    if (second === 'local_course') return 'local_course';
    if (second === 'local_units') return 'local_units';
    if (second === 'satisfies') return 'satisfies';
    return 'kind';
  }
  if (first === 'grade' || first === 'units' || first === 'reason') return first;
  return 'form';
}

export type CorrectionErrors = Partial<Record<CorrectionField | 'form', string>>;

/** The correction's body, checked with the server's own schema; or the errors by field. */
export function correctionBody(
  courseRef: string,
  draft: CorrectionDraft,
): { body: ReviewBody; errors: null } | { body: null; errors: CorrectionErrors } {
  const input = {
    course_ref: courseRef,
    status: 'corrected',
    grade: draft.grade.trim() === '' ? null : draft.grade,
    units: draft.units.trim() === '' ? null : numberOf(draft.units),
    mapping:
      draft.kind === ''
        ? null
        : {
            kind: draft.kind,
            local_course:
              draft.kind === 'no_credit' ? draft.local_course.trim() : draft.local_course,
            local_units:
              draft.local_units.trim() === '' && draft.kind === 'no_credit'
                ? 0
                : numberOf(draft.local_units),
            satisfies: draft.satisfies
              .split(/[\s,]+/)
              .map((code) => code.trim())
              .filter(Boolean),
          },
    reason: draft.reason,
  };
  const result = reviewBodySchema.safeParse(input);
  if (result.success) return { body: result.data, errors: null };
  const errors: CorrectionErrors = {};
  for (const issue of result.error.issues) {
    const field = fieldOfPath(issue.path);
    errors[field] ??= issue.message;
  }
  return { body: null, errors };
}

/** The server's field errors (`{"mapping.local_course": [...]}`) as the form's. */
export function serverCorrectionErrors(
  errors: Record<string, string[]> | undefined,
): CorrectionErrors {
  const found: CorrectionErrors = {};
  for (const [key, messages] of Object.entries(errors ?? {})) {
    const field = fieldOfPath(key.split(/[.[\]]+/).filter(Boolean));
    const message = messages[0];
    if (message) found[field] ??= message;
  }
  return found;
}

/** The evaluator's screen of an application. */
export function creditPagePath(applicationId: string): string {
  return `/staff/applications/${encodeURIComponent(applicationId)}/credit`;
}
