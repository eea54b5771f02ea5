import { type Course, type TermStatus, termName } from '../coursework/coursework';
import {
  type CourseworkAnswer,
  collegeCourseworkOf,
  isBlankCourse,
} from '../coursework/coursework-answer';
import { type CourseworkRules, gradeEffect } from '../coursework/coursework-grading';
import { computeCourseworkTotals } from '../coursework/coursework-totals';
import {
  evaluateRequirements,
  type Requirement,
  type RequirementCourse,
  type RequirementResult,
} from './credit-requirements';
import { type EquivalencyKind, type EquivalencyTable, equivalencyKey } from './equivalency';

/*
 * One application's transfer credit: each entered course mapped through its college's
 * equivalency table, the evaluator's reviews laid over what the applicant entered (never an edit
 * of it), the totals recomputed from the reviewed courses, and the tenant's requirements
 * evaluated on them. A pure function of its inputs: the server stores what it gives, the
 * evaluator's screen and the estimate show it.
 */

export const MAPPING_KINDS = ['course', 'elective', 'no_credit', 'needs_review'] as const;
export type MappingKind = (typeof MAPPING_KINDS)[number];

export const MAPPING_KIND_LABELS: Record<MappingKind, string> = {
  course: 'Course',
  elective: 'Elective',
  no_credit: 'No credit',
  needs_review: 'Needs review',
};

export const REVIEW_STATUSES = ['verified', 'corrected', 'not_on_transcript'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const REVIEW_STATUS_LABELS: Record<ReviewStatus, string> = {
  verified: 'Verified',
  corrected: 'Corrected',
  not_on_transcript: 'Not on the transcript',
};

export interface CourseMapping {
  kind: MappingKind;
  /** `MATH 150`, an elective's name, or '' (no credit, needs review). */
  local_course: string;
  /** This university's units; null while it needs review. */
  local_units: number | null;
  satisfies: string[];
  /** Where the mapping comes from. */
  source: 'table' | 'evaluator' | 'none';
}

/** What an evaluator set for a course; a correction's null fields keep what was entered. */
export interface CourseReview {
  course_ref: string;
  status: ReviewStatus;
  grade: string | null;
  units: number | null;
  mapping: {
    kind: EquivalencyKind;
    local_course: string;
    local_units: number;
    satisfies: string[];
  } | null;
  reason: string;
  reviewed_by: string;
  reviewed_at: string;
}

/** How a course ends up: what the estimate tells the applicant. */
export const CREDIT_OUTCOMES = [
  'transfers',
  'pending',
  'no_credit',
  'not_transferable',
  'needs_review',
  'not_counted',
] as const;
export type CreditOutcome = (typeof CREDIT_OUTCOMES)[number];

export const CREDIT_OUTCOME_LABELS: Record<CreditOutcome, string> = {
  transfers: 'Transfers',
  pending: 'Transfers when completed',
  no_credit: 'No credit',
  not_transferable: 'Grade does not transfer',
  needs_review: 'Needs review',
  not_counted: 'Not counted',
};

export interface CreditCourse {
  /** Names the course across updates: see courseRefs. */
  ref: string;
  grid_key: string;
  college_index: number;
  /** `Fall 2024`. */
  term: string;
  term_status: TermStatus;
  subject: string;
  number: string;
  title: string;
  /** As the applicant entered them. */
  units: string;
  grade: string;
  /** After the evaluator's correction. */
  effective_units: number;
  effective_grade: string;
  mapping: CourseMapping;
  review: CourseReview | null;
  /** A later (or better) attempt of the same course counts instead. */
  repeat_excluded: boolean;
  outcome: CreditOutcome;
  /** This university's units the course earns (or will, when pending); 0 when none. */
  credit_units: number;
}

export interface CreditCollege {
  grid_key: string;
  /** The college's CEEB code where the application gives one. */
  ceeb: string | null;
  name: string;
  /** Whether an equivalency table is loaded for it. */
  has_table: boolean;
}

export interface CreditSummary {
  courses: number;
  /** Courses with a mapping (course, elective or no credit), from the table or the evaluator. */
  mapped: number;
  needs_review: number;
  /** Courses the evaluator has reviewed (any status). */
  reviewed: number;
  /** mapped / courses to two decimals ("0.85"); null without courses. */
  mapped_share: string | null;
}

export interface CreditTotals {
  transfer_gpa: string | null;
  transfer_units: string;
  in_progress_units: string;
  /** This university's units earned by completed courses, and pending on courses in progress. */
  credit_units: string;
  pending_credit_units: string;
}

export interface CreditEvaluation {
  colleges: CreditCollege[];
  courses: CreditCourse[];
  summary: CreditSummary;
  totals: CreditTotals;
  requirements: RequirementResult[];
}

/** One shown grid of the application with its college. */
export interface CreditGrid {
  key: string;
  ceeb: string | null;
  name: string;
  answer: CourseworkAnswer;
}

export interface CreditInput {
  grids: readonly CreditGrid[];
  /** Equivalency tables by sending CEEB code. */
  tables: ReadonlyMap<string, EquivalencyTable>;
  /** Reviews by course_ref; reviews of courses no longer entered are ignored. */
  reviews: ReadonlyMap<string, CourseReview>;
  rules: CourseworkRules;
  requirements: readonly Requirement[];
  /** The application's answers (submitted), for requirements that apply to some programs only. */
  answers: Readonly<Record<string, unknown>>;
}

/**
 * A name for each course of a grid that stays the same when the applicant adds terms or courses
 * after submit: grid, term and course code, with `#2` for a second entry of one code in a term
 * (`college_coursework:fall-2024:MATH 1A`). Null for blank rows, which are not courses.
 */
export function courseRefs(gridKey: string, answer: CourseworkAnswer): Array<Array<string | null>> {
  return answer.terms.map((term) => {
    const seen = new Map<string, number>();
    return term.courses.map((course) => {
      if (isBlankCourse(course)) return null;
      const code = equivalencyKey(course.subject, course.number);
      const count = (seen.get(code) ?? 0) + 1;
      seen.set(code, count);
      const suffix = count > 1 ? `#${count}` : '';
      return `${gridKey}:${term.season}-${term.year}:${code}${suffix}`;
    });
  });
}

const NEEDS_REVIEW: CourseMapping = {
  kind: 'needs_review',
  local_course: '',
  local_units: null,
  satisfies: [],
  source: 'none',
};

/** The table's mapping of a course, or "needs review" when the table has no row for it. */
export function mapCourse(
  course: Pick<Course, 'subject' | 'number'>,
  table: EquivalencyTable | undefined,
): CourseMapping {
  const row = table?.get(equivalencyKey(course.subject, course.number));
  if (!row) return NEEDS_REVIEW;
  return {
    kind: row.kind,
    local_course: row.localCourse,
    local_units: row.localUnits,
    satisfies: [...row.satisfies],
    source: 'table',
  };
}

const fixed = (value: number) => (Math.round(value * 100) / 100).toFixed(2);

/** See the file's comment. */
export function evaluateCredit(input: CreditInput): CreditEvaluation {
  const { rules } = input;
  const courses: CreditCourse[] = [];
  const colleges: CreditCollege[] = [];
  // Courses the totals leave out (not on the transcript, mapped to no credit) keep their place
  // with no units and no grade, so positions in the totals stay positions in the grid.
  const effectiveColleges = input.grids.map((grid, collegeIndex) => {
    const table = grid.ceeb ? input.tables.get(grid.ceeb) : undefined;
    colleges.push({ grid_key: grid.key, ceeb: grid.ceeb, name: grid.name, has_table: !!table });
    const refs = courseRefs(grid.key, grid.answer);
    const college = collegeCourseworkOf(grid.ceeb ?? grid.name, grid.answer);
    college.terms = college.terms.map((term, termIndex) => ({
      ...term,
      courses: term.courses.map((course, courseIndex) => {
        const ref = refs[termIndex]?.[courseIndex] ?? null;
        const entry = grid.answer.terms[termIndex]?.courses[courseIndex];
        if (ref === null || !entry) return { ...course, units: 0, grade: null };
        const review = input.reviews.get(ref) ?? null;
        const corrected = review?.status === 'corrected' ? review : null;
        const mapping: CourseMapping = corrected?.mapping
          ? {
              ...corrected.mapping,
              satisfies: [...corrected.mapping.satisfies],
              source: 'evaluator',
            }
          : mapCourse(course, table);
        const effectiveUnits =
          corrected?.units ?? (Number.isFinite(course.units) ? course.units : 0);
        const effectiveGrade = corrected?.grade ?? course.grade ?? '';
        courses.push({
          ref,
          grid_key: grid.key,
          college_index: collegeIndex,
          term: termName(term),
          term_status: term.status,
          subject: entry.subject.trim(),
          number: entry.number.trim(),
          title: entry.title.trim(),
          units: entry.units.trim(),
          grade: entry.grade.trim(),
          effective_units: effectiveUnits,
          effective_grade: effectiveGrade,
          mapping,
          review,
          repeat_excluded: false,
          outcome: 'not_counted',
          credit_units: 0,
        });
        const leftOut = review?.status === 'not_on_transcript' || mapping.kind === 'no_credit';
        return leftOut
          ? { ...course, units: 0, grade: null }
          : {
              ...course,
              units: effectiveUnits,
              grade: effectiveGrade === '' ? null : effectiveGrade,
            };
      }),
    }));
    return college;
  });

  const totals = computeCourseworkTotals(effectiveColleges, rules);
  const excluded = new Set(
    totals.excludedRepeats.map((at) => `${at.college}/${at.term}/${at.course}`),
  );
  // Positions of the evaluation's courses, in the order they were pushed.
  let next = 0;
  for (const [collegeIndex, grid] of input.grids.entries()) {
    const refs = courseRefs(grid.key, grid.answer);
    for (const [termIndex, termRefs] of refs.entries()) {
      for (const [courseIndex, ref] of termRefs.entries()) {
        if (ref === null) continue;
        const course = courses[next++];
        if (!course) continue;
        course.repeat_excluded = excluded.has(`${collegeIndex}/${termIndex}/${courseIndex}`);
        [course.outcome, course.credit_units] = outcomeOf(course, rules);
      }
    }
  }

  const mapped = courses.filter((course) => course.mapping.kind !== 'needs_review').length;
  const sumOf = (outcome: CreditOutcome) =>
    courses
      .filter((course) => course.outcome === outcome)
      .reduce((total, course) => total + course.credit_units, 0);
  const requirementCourses: RequirementCourse[] = courses.map((course) => ({
    name: `${course.subject} ${course.number}`.trim(),
    satisfies: course.mapping.satisfies,
    state:
      course.outcome === 'transfers'
        ? 'completed'
        : course.outcome === 'pending'
          ? 'in_progress'
          : 'not_counted',
    points: pointsOf(course.effective_grade, rules) ?? null,
  }));
  return {
    colleges,
    courses,
    summary: {
      courses: courses.length,
      mapped,
      needs_review: courses.length - mapped,
      reviewed: courses.filter((course) => course.review !== null).length,
      mapped_share: courses.length > 0 ? fixed(mapped / courses.length) : null,
    },
    totals: {
      transfer_gpa: totals.gpa,
      transfer_units: totals.transferableUnits,
      in_progress_units: totals.inProgressUnits,
      credit_units: fixed(sumOf('transfers')),
      pending_credit_units: fixed(sumOf('pending')),
    },
    requirements: evaluateRequirements(input.requirements, {
      transferableUnits: Number(totals.transferableUnits),
      inProgressUnits: Number(totals.inProgressUnits),
      gpa: totals.gpa === null ? null : Number(totals.gpa),
      courses: requirementCourses,
      pointsOf: (grade) => pointsOf(grade, rules),
      answers: input.answers,
    }),
  };
}

function pointsOf(grade: string, rules: CourseworkRules): number | undefined {
  const effect = gradeEffect(grade, rules);
  return effect.kind === 'points'
    ? Number(effect.points.numerator) / Number(effect.points.denominator)
    : undefined;
}

function outcomeOf(course: CreditCourse, rules: CourseworkRules): [CreditOutcome, number] {
  if (course.review?.status === 'not_on_transcript' || course.repeat_excluded)
    return ['not_counted', 0];
  const { mapping } = course;
  if (mapping.kind === 'needs_review') return ['needs_review', 0];
  if (mapping.kind === 'no_credit') return ['no_credit', 0];
  const units = mapping.local_units ?? 0;
  if (course.term_status !== 'completed') return ['pending', units];
  const effect = gradeEffect(course.effective_grade, rules);
  // A withdrawal, an incomplete or no grade says nothing of the course: it is not counted.
  if (effect.kind === 'unfinished' || effect.kind === 'missing') return ['not_counted', 0];
  const transfers = (effect.kind === 'points' && effect.transferable) || effect.kind === 'pass';
  return transfers ? ['transfers', units] : ['not_transferable', 0];
}
