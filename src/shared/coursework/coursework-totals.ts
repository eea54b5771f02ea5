import { type CollegeCoursework, compareTerms, courseKey, MAX_COURSE_UNITS } from './coursework';
import {
  type CourseworkRules,
  type GradeEffect,
  gradeEffect,
  isGradedAttempt,
  quarterToSemesterFactor,
} from './coursework-grading';
import {
  add,
  compare,
  divide,
  type Fraction,
  fromDecimal,
  multiply,
  ONE,
  toFixedHalfUp,
  ZERO,
} from './fraction';

/** A course by its place in the entry: college, term and course indexes. */
export interface CoursePosition {
  college: number;
  term: number;
  course: number;
}

/**
 * Amounts in semester units (quarter units converted) and grade points, shown to two decimals
 * rounded half up from the exact sums.
 */
export interface CourseworkSubtotals {
  /** Grade points over graded units, to two decimals ("3.45"); null without graded units. */
  gpa: string | null;
  gradePoints: string;
  /** Units of the counted courses graded on the scale: the GPA's denominator, F included. */
  gradedUnits: string;
  /** Units of counted courses graded at least the lowest transferable grade, or passed. */
  transferableUnits: string;
  /** Units of the courses of terms in progress or planned, whatever their grade says. */
  inProgressUnits: string;
  /** Units of every counted course with a finished result: graded, passed or no credit. */
  unitsAttempted: string;
}

export interface CollegeSubtotals extends CourseworkSubtotals {
  college: string;
}

export interface RepeatExclusion extends CoursePosition {
  /** The attempt of the same course that counts instead. */
  countedAttempt: CoursePosition;
}

export interface CourseworkTotals extends CourseworkSubtotals {
  /** One per college entry, in the entry's order. */
  colleges: CollegeSubtotals[];
  /** Finished attempts that do not count because the repeat rule chose another attempt. */
  excludedRepeats: RepeatExclusion[];
}

interface Attempt extends CoursePosition {
  key: string;
  season: CollegeCoursework['terms'][number]['season'];
  year: number;
  semesterUnits: Fraction;
  effect: GradeEffect;
}

interface ExactSums {
  gradePoints: Fraction;
  gradedUnits: Fraction;
  transferableUnits: Fraction;
  inProgressUnits: Fraction;
  unitsAttempted: Fraction;
}

const NO_SUMS: ExactSums = {
  gradePoints: ZERO,
  gradedUnits: ZERO,
  transferableUnits: ZERO,
  inProgressUnits: ZERO,
  unitsAttempted: ZERO,
};

/**
 * Units as entered, exactly; an entry the validation refuses (below 0, over 30, not a number)
 * counts as none, so the totals can be shown beside the messages that ask to correct it.
 */
function enteredUnits(units: number): Fraction {
  const exact = fromDecimal(units);
  if (!exact || units < 0 || units > MAX_COURSE_UNITS) return ZERO;
  return exact;
}

/**
 * Latest by term order, then by entry order: the later of two courses entered in the same term
 * (a correction typed below the original, or the college entered twice) is the later attempt.
 */
function compareOrder(a: Attempt, b: Attempt): number {
  return compareTerms(a, b) || a.college - b.college || a.term - b.term || a.course - b.course;
}

/**
 * How a finished result ranks under the "highest" policy: a grade that transfers beats a pass,
 * which beats a grade that does not transfer (it earns points but no transferable units), which
 * beats no credit. Within letter grades, more points rank higher.
 */
function compareResults(a: GradeEffect, b: GradeEffect): number {
  const tier = (effect: GradeEffect) =>
    effect.kind === 'points' ? (effect.transferable ? 3 : 1) : effect.kind === 'pass' ? 2 : 0;
  const byTier = tier(a) - tier(b);
  if (byTier !== 0 || a.kind !== 'points' || b.kind !== 'points') return byTier;
  return compare(a.points, b.points);
}

/** The attempt of a course taken more than once that counts under the policy (not for "all"). */
function countedAttemptOf(attempts: Attempt[], rules: CourseworkRules): Attempt | undefined {
  let counted: Attempt | undefined;
  for (const attempt of attempts) {
    if (!counted) counted = attempt;
    else if (rules.repeat_policy === 'highest') {
      // Equal results: the later attempt counts, as under "latest".
      const byResult = compareResults(attempt.effect, counted.effect);
      if (byResult > 0 || (byResult === 0 && compareOrder(attempt, counted) > 0)) counted = attempt;
    } else if (compareOrder(attempt, counted) > 0) counted = attempt;
  }
  return counted;
}

function addAttempt(sums: ExactSums, attempt: Attempt): ExactSums {
  const { effect, semesterUnits } = attempt;
  switch (effect.kind) {
    case 'points':
      return {
        ...sums,
        gradePoints: add(sums.gradePoints, multiply(semesterUnits, effect.points)),
        gradedUnits: add(sums.gradedUnits, semesterUnits),
        transferableUnits: effect.transferable
          ? add(sums.transferableUnits, semesterUnits)
          : sums.transferableUnits,
        unitsAttempted: add(sums.unitsAttempted, semesterUnits),
      };
    case 'pass':
      return {
        ...sums,
        transferableUnits: add(sums.transferableUnits, semesterUnits),
        unitsAttempted: add(sums.unitsAttempted, semesterUnits),
      };
    case 'no_credit':
      return { ...sums, unitsAttempted: add(sums.unitsAttempted, semesterUnits) };
    default:
      return sums;
  }
}

function addSums(a: ExactSums, b: ExactSums): ExactSums {
  return {
    gradePoints: add(a.gradePoints, b.gradePoints),
    gradedUnits: add(a.gradedUnits, b.gradedUnits),
    transferableUnits: add(a.transferableUnits, b.transferableUnits),
    inProgressUnits: add(a.inProgressUnits, b.inProgressUnits),
    unitsAttempted: add(a.unitsAttempted, b.unitsAttempted),
  };
}

function shown(sums: ExactSums): CourseworkSubtotals {
  return {
    gpa:
      compare(sums.gradedUnits, ZERO) > 0
        ? toFixedHalfUp(divide(sums.gradePoints, sums.gradedUnits))
        : null,
    gradePoints: toFixedHalfUp(sums.gradePoints),
    gradedUnits: toFixedHalfUp(sums.gradedUnits),
    transferableUnits: toFixedHalfUp(sums.transferableUnits),
    inProgressUnits: toFixedHalfUp(sums.inProgressUnits),
    unitsAttempted: toFixedHalfUp(sums.unitsAttempted),
  };
}

/**
 * The transfer GPA and units of an applicant's coursework under a tenant's rules. Everything is
 * summed exactly in semester units and rounded once, when shown, so the order of entry never
 * changes a total and a GPA of exactly 2.345 shows as 2.35.
 */
export function computeCourseworkTotals(
  colleges: CollegeCoursework[],
  rules: CourseworkRules,
): CourseworkTotals {
  const quarterFactor = quarterToSemesterFactor(rules);
  const finished: Attempt[] = [];
  const collegeSums: ExactSums[] = colleges.map(() => NO_SUMS);

  for (const [collegeIndex, college] of colleges.entries()) {
    const factor = college.termSystem === 'quarter' ? quarterFactor : ONE;
    for (const [termIndex, term] of college.terms.entries()) {
      for (const [courseIndex, course] of term.courses.entries()) {
        const semesterUnits = multiply(enteredUnits(course.units), factor);
        if (term.status !== 'completed') {
          // The term's status decides, not the grade: until the term is marked completed its
          // courses are in progress, so a grade typed early changes no GPA.
          const sums = collegeSums[collegeIndex] ?? NO_SUMS;
          collegeSums[collegeIndex] = {
            ...sums,
            inProgressUnits: add(sums.inProgressUnits, semesterUnits),
          };
          continue;
        }
        finished.push({
          college: collegeIndex,
          term: termIndex,
          course: courseIndex,
          key: courseKey(college.college, course),
          season: term.season,
          year: term.year,
          semesterUnits,
          effect: gradeEffect(course.grade, rules),
        });
      }
    }
  }

  const attemptsByCourse = new Map<string, Attempt[]>();
  for (const attempt of finished) {
    if (!isGradedAttempt(attempt.effect)) continue;
    const attempts = attemptsByCourse.get(attempt.key) ?? [];
    attempts.push(attempt);
    attemptsByCourse.set(attempt.key, attempts);
  }

  const excludedRepeats: RepeatExclusion[] = [];
  for (const attempts of attemptsByCourse.values()) {
    const counted =
      rules.repeat_policy === 'all' || attempts.length === 1
        ? undefined
        : countedAttemptOf(attempts, rules);
    for (const attempt of attempts) {
      if (counted && attempt !== counted) {
        excludedRepeats.push({
          college: attempt.college,
          term: attempt.term,
          course: attempt.course,
          countedAttempt: { college: counted.college, term: counted.term, course: counted.course },
        });
        continue;
      }
      collegeSums[attempt.college] = addAttempt(collegeSums[attempt.college] ?? NO_SUMS, attempt);
    }
  }
  excludedRepeats.sort((a, b) => a.college - b.college || a.term - b.term || a.course - b.course);

  return {
    ...shown(collegeSums.reduce(addSums, NO_SUMS)),
    colleges: colleges.map((college, index) => ({
      college: college.college,
      ...shown(collegeSums[index] ?? NO_SUMS),
    })),
    excludedRepeats,
  };
}
