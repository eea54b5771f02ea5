import { z } from 'zod';
import { MAX_COURSE_UNITS } from '../coursework/coursework';
import { COURSE_TEXT_LIMITS } from '../coursework/coursework-answer';
import { STAFF_API } from '../routes';
import type { CreditEvaluation } from './credit-evaluation';
import { REVIEW_STATUSES } from './credit-evaluation';
import type { RequirementResult } from './credit-requirements';
import { EQUIVALENCY_KINDS, REQUIREMENT_CODE } from './equivalency';

/*
 * Transfer credit's calls: the evaluator's view of an application and their reviews, the
 * estimate's release (one application or a filtered list), and what the applicant sees once it is
 * released. The browser checks a review with reviewBodySchema and the server parses it again.
 */

export const CREDIT_MESSAGES = {
  reasonRequired: 'Give the reason for the correction, as the transcript shows it.',
  correctionEmpty: 'A correction changes the grade, the units or the mapping.',
  notSubmitted: 'Transfer credit is evaluated on submitted applications only.',
  unknownCourse: 'This application has no such course: it may have been changed. Reload the page.',
  units: `Enter units from 0 to ${MAX_COURSE_UNITS}.`,
  localCourse: 'Enter the local course, such as MATH 150 (an elective may be MATH 1XX).',
  grade: 'Enter a grade of the grade scale, or one of the pass, no-credit or unfinished grades.',
  satisfies: 'Requirement codes are capital letters, digits, dots, dashes or underscores.',
  estimateNothing: 'This application has no courses to estimate credit for.',
  batchEmpty: 'No submitted applications match these filters.',
  batchTooMany: 'A batch holds at most 5,000 applications. Narrow the filters.',
  noEstimate: 'No credit estimate has been released to you.',
} as const;

export const creditUrls = {
  /** GET: the evaluation (CreditEvaluationView). */
  evaluation: (applicationId: string) => `${STAFF_API}/applications/${applicationId}/credit`,
  /** PUT: one course's review (ReviewBody); DELETE ?course_ref=: undo it. */
  review: (applicationId: string) => `${STAFF_API}/applications/${applicationId}/credit/review`,
  /** POST: release (or release again) the estimate of one application. */
  release: (applicationId: string) =>
    `${STAFF_API}/applications/${applicationId}/credit/estimate/release`,
  /**
   * POST ?file_name= with the PDF itself as the body (application/pdf): attach a college's
   * official transcript; GET `${transcript}/pdf`: read it.
   */
  transcript: (applicationId: string, gridKey: string) =>
    `${STAFF_API}/applications/${applicationId}/credit/transcripts/${gridKey}`,
  /** GET: the estimate's PDF as it would be released now (staff preview). */
  preview: (applicationId: string) =>
    `${STAFF_API}/applications/${applicationId}/credit/estimate.pdf`,
  /** POST {query}: release the estimates of every submitted application of a list's filters. */
  batchRelease: `${STAFF_API}/credit-estimates/release`,
} as const;

/** GET: the released estimate (ReleasedEstimate), or null before release. */
export const CREDIT_ESTIMATE_URL = '/api/credit-estimate';
export const CREDIT_ESTIMATE_PDF_URL = '/api/credit-estimate.pdf';
/** GET: the requirements the tenant shows applicants, on the applicant's own entries. */
export const CREDIT_REQUIREMENTS_URL = '/api/credit-requirements';

const units = z
  .number({ error: CREDIT_MESSAGES.units })
  .min(0, CREDIT_MESSAGES.units)
  .max(MAX_COURSE_UNITS, CREDIT_MESSAGES.units)
  .refine((value) => Math.round(value * 100) === value * 100, CREDIT_MESSAGES.units);

export const reviewBodySchema = z
  .strictObject({
    course_ref: z.string().min(1).max(200),
    status: z.enum(REVIEW_STATUSES),
    /** For a correction: what the transcript says, where it differs from the entry. */
    grade: z
      .string({ error: CREDIT_MESSAGES.grade })
      .trim()
      .min(1, CREDIT_MESSAGES.grade)
      .max(COURSE_TEXT_LIMITS.grade, CREDIT_MESSAGES.grade)
      .regex(/^[A-Za-z0-9.+-]+$/, CREDIT_MESSAGES.grade)
      .transform((grade) => grade.toUpperCase())
      .nullable()
      .default(null),
    units: units.nullable().default(null),
    mapping: z
      .strictObject({
        kind: z.enum(EQUIVALENCY_KINDS),
        local_course: z
          .string({ error: CREDIT_MESSAGES.localCourse })
          .trim()
          .max(40, CREDIT_MESSAGES.localCourse),
        local_units: units,
        satisfies: z
          .array(z.string().trim().toUpperCase().regex(REQUIREMENT_CODE, CREDIT_MESSAGES.satisfies))
          .max(20)
          .default([]),
      })
      .nullable()
      .default(null),
    reason: z.string().trim().max(500).default(''),
  })
  .superRefine((body, context) => {
    if (body.status !== 'corrected') return;
    if (body.grade === null && body.units === null && body.mapping === null)
      context.addIssue({
        code: 'custom',
        path: ['status'],
        message: CREDIT_MESSAGES.correctionEmpty,
      });
    if (body.reason === '')
      context.addIssue({
        code: 'custom',
        path: ['reason'],
        message: CREDIT_MESSAGES.reasonRequired,
      });
    if (body.mapping && body.mapping.kind !== 'no_credit' && body.mapping.local_course === '')
      context.addIssue({
        code: 'custom',
        path: ['mapping', 'local_course'],
        message: CREDIT_MESSAGES.localCourse,
      });
  });
export type ReviewBody = z.infer<typeof reviewBodySchema>;

export const batchEstimateReleaseSchema = z.strictObject({ query: z.string().max(2000) });

/** A transcript the applicant uploaded for a college, as the evaluator's screen shows it. */
export interface CollegeTranscript {
  grid_key: string;
  file_name: string;
  /** The converted PDF, for the pane beside the grid; null while it is being converted. */
  pdf_url: string | null;
}

/** GET creditUrls.evaluation. */
export interface CreditEvaluationView extends CreditEvaluation {
  application_id: string;
  applicant_name: string;
  transcripts: CollegeTranscript[];
  /** The estimate as last released; null before release. */
  estimate: { released_at: string; released_by: string } | null;
  /** Whether the caller may review and release (credit.evaluate). */
  can_evaluate: boolean;
}

/** GET /api/credit-estimate once released: the evaluation as it stood at release. */
export interface ReleasedEstimate {
  released_at: string;
  evaluation: CreditEvaluation;
}

/** GET /api/credit-requirements: only the requirements the tenant shows applicants. */
export interface ApplicantRequirements {
  requirements: RequirementResult[];
}

/** The words every estimate carries, on the status page and in the PDF. */
export const ESTIMATE_NOTICE = 'This is a good-faith estimate, not an official evaluation.';
