import { z } from 'zod';
import {
  checkCourseworkRules,
  DEFAULT_COURSEWORK_RULES,
  FRACTION_TEXT,
  REPEAT_POLICIES,
} from './coursework-grading';

/*
 * The tenant file's `coursework` rules as the server reads them at start-up. The rules and what
 * they do are in coursework-grading.ts, which the browser's form reads without zod.
 */
export * from './coursework-grading';

const GRADE_NAME = /^[A-Z0-9][A-Z0-9.+-]{0,5}$/;
const gradeName = z
  .string()
  .regex(GRADE_NAME, 'must be 1 to 6 capital letters, digits, +, - or . (such as B+)');
const gradeList = z.array(gradeName).max(40);

export const courseworkRulesSchema = z
  .strictObject({
    /** The grade scale: each letter grade and the points a unit of it earns. */
    grade_points: z
      .record(gradeName, z.number())
      .default(() => ({ ...DEFAULT_COURSEWORK_RULES.grade_points })),
    /** Grades of the scale with at least this grade's points transfer. */
    lowest_transferable_grade: gradeName.default(
      DEFAULT_COURSEWORK_RULES.lowest_transferable_grade,
    ),
    /** Which attempts of a course taken more than once count. */
    repeat_policy: z.enum(REPEAT_POLICIES).default(DEFAULT_COURSEWORK_RULES.repeat_policy),
    /** Grades that earn (and transfer) units without grade points. */
    pass_grades: gradeList.default(() => [...DEFAULT_COURSEWORK_RULES.pass_grades]),
    /** Finished courses that earn neither units nor points (a failed pass/no-pass course). */
    no_credit_grades: gradeList.default(() => [...DEFAULT_COURSEWORK_RULES.no_credit_grades]),
    /** Courses not finished: they earn nothing and are not attempts a repeat rule chooses. */
    unfinished_grades: gradeList.default(() => [...DEFAULT_COURSEWORK_RULES.unfinished_grades]),
    /** Semester units per quarter unit: a number or a fraction written as text, `"2/3"`. */
    quarter_to_semester: z
      .union([
        z.number(),
        z.string().regex(FRACTION_TEXT, 'must be a number or a fraction such as "2/3"'),
      ])
      .default(DEFAULT_COURSEWORK_RULES.quarter_to_semester),
  })
  .superRefine(
    (rules, context) => {
      for (const { path, message } of checkCourseworkRules(rules))
        context.addIssue({ code: 'custom', path, message });
    },
    // The rules are checked together once each is well formed, so a malformed one is named once.
    { when: (payload) => payload.issues.length === 0 },
  );
