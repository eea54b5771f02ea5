import { z } from 'zod';
import { COURSEWORK_ANSWER_MAX_LENGTH } from './coursework-answer';

/*
 * The contract of coursework updates after submit: the applicant's calls and what the staff
 * console's application detail adds. See coursework-update.ts for what an update may change.
 */

/** GET: the applicant's coursework now (see CourseworkOverview). */
export const COURSEWORK_URL = '/api/coursework';
/** POST `{key, value}`: one grid as it stands after the update; answers a CourseworkOverview. */
export const COURSEWORK_UPDATES_URL = '/api/coursework-updates';

export const courseworkUpdateBodySchema = z.strictObject({
  /** The grid's answer key in the submitted application: `college_2_coursework`. */
  key: z.string().min(1).max(200),
  /** The grid's JSON text, as `coursework-answer.ts` writes it. */
  value: z
    .string()
    .max(
      COURSEWORK_ANSWER_MAX_LENGTH,
      `The coursework is longer than ${COURSEWORK_ANSWER_MAX_LENGTH} characters.`,
    ),
});
export type CourseworkUpdateBody = z.infer<typeof courseworkUpdateBodySchema>;

/** The transfer GPA and units, as the totals show them (`"3.45"`, `"60.00"`). */
export interface CourseworkTotalsView {
  gpa: string | null;
  gradePoints: string;
  gradedUnits: string;
  transferableUnits: string;
  inProgressUnits: string;
  unitsAttempted: string;
}

export interface CourseworkGridView {
  key: string;
  /** The college's name as the application gives it (its code when it has no name). */
  college: string;
  /** The grid's JSON text now: its latest update, else as submitted. */
  current: string;
  /** The grid's JSON text as submitted ('' when none was entered). */
  submitted: string;
}

export interface CourseworkUpdateView {
  key: string;
  created_at: string;
  /** What the update changed, in words (describeCourseworkUpdate). */
  lines: string[];
}

/** GET /api/coursework and the answer of POST /api/coursework-updates. */
export interface CourseworkOverview {
  submitted: boolean;
  /** Every shown grid of the submitted application, in the form's order; none before submit. */
  grids: CourseworkGridView[];
  /** The totals of the current coursework; null before submit. */
  totals: CourseworkTotalsView | null;
  /** Every update, oldest first. */
  updates: CourseworkUpdateView[];
}

/** One update as the staff console reads it. */
export const staffCourseworkUpdateSchema = z.object({
  answer_key: z.string(),
  /** The college's name as the application gives it (its code when it has no name). */
  college: z.string(),
  /** The grid's JSON text after the update. */
  answer: z.string(),
  created_at: z.string(),
  lines: z.array(z.string()),
});
export type StaffCourseworkUpdate = z.infer<typeof staffCourseworkUpdateSchema>;

/** The totals stored at submit and after each update (coursework_totals). */
export const storedCourseworkTotalsSchema = z.object({
  transfer_gpa: z.string().nullable(),
  transfer_units: z.string(),
  in_progress_units: z.string(),
  updated_at: z.string(),
});
export type StoredCourseworkTotals = z.infer<typeof storedCourseworkTotalsSchema>;

/** What GET /staff/api/applications/:id adds to the application detail. */
export const staffCourseworkFields = {
  /** Every update after submit, oldest first; each is new since the submission. */
  coursework_updates: z.array(staffCourseworkUpdateSchema),
  /** Null before submit. */
  coursework_totals: storedCourseworkTotalsSchema.nullable(),
};
export const staffCourseworkSchema = z.object(staffCourseworkFields);
export type StaffCoursework = z.infer<typeof staffCourseworkSchema>;
