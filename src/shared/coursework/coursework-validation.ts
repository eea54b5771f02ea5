import {
  type CollegeCoursework,
  MAX_COURSE_UNITS,
  MAX_COURSES,
  MAX_TERMS,
  type Season,
  type Term,
  termName,
} from './coursework';
import { type CourseworkRules, gradeEffect } from './coursework-grading';

/*
 * The messages the coursework grid shows beside an entry. The specification words no message
 * about courses, grades or units, so these follow the portal's "Enter …" sentences. The totals
 * are computed whatever these say: a refused entry counts as nothing (coursework-totals.ts).
 */

/** Grades named in the example of the grade message, where the tenant's rules have them. */
const EXAMPLE_GRADES = ['A', 'B+', 'P'];

function listed(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** "Enter a grade from the scale, such as A, B+ or P." with grades the tenant's rules know. */
export function gradeMessage(rules: CourseworkRules): string {
  const known = [
    ...Object.keys(rules.grade_points),
    ...rules.pass_grades,
    ...rules.no_credit_grades,
    ...rules.unfinished_grades,
  ];
  const preferred = EXAMPLE_GRADES.filter((grade) => known.includes(grade));
  const examples = preferred.length >= 2 ? preferred : known.slice(0, 3);
  return `Enter a grade from the scale, such as ${listed(examples)}.`;
}

/** Null for a grade the rules know, or none yet; otherwise the message to show. */
export function gradeValidity(grade: string | null, rules: CourseworkRules): string | null {
  return gradeEffect(grade, rules).kind === 'unknown' ? gradeMessage(rules) : null;
}

export const UNITS_MESSAGE = `Enter units from 0 to ${MAX_COURSE_UNITS}.`;

export function unitsValidity(units: number): string | null {
  return Number.isFinite(units) && units >= 0 && units <= MAX_COURSE_UNITS ? null : UNITS_MESSAGE;
}

/**
 * The month a term of each season starts at the earliest (semester springs start in January,
 * some summer sessions in May, some falls in August): a term is in the future only once no
 * college's term of that name could have begun, so no real grade is refused.
 */
const EARLIEST_START_MONTH: Record<Season, number> = {
  winter: 1,
  spring: 1,
  summer: 5,
  fall: 8,
};

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether the term cannot have begun by `today` (`2026-11-28`, the admissions office's date). */
export function isFutureTerm(term: Pick<Term, 'season' | 'year'>, today: string): boolean {
  const match = ISO_DATE.exec(today);
  if (!match) throw new RangeError(`today must be a date such as 2026-11-28, not ${today}`);
  const todayMonths = Number(match[1]) * 12 + Number(match[2]);
  return term.year * 12 + EARLIEST_START_MONTH[term.season] > todayMonths;
}

export function futureGradeMessage(term: Pick<Term, 'season' | 'year'>): string {
  return `${termName(term)} has not started yet, so its courses cannot have a grade.`;
}

export const TOO_MANY_COURSES_MESSAGE = `You can enter at most ${MAX_COURSES} courses in all.`;
export const TOO_MANY_TERMS_MESSAGE = `You can enter at most ${MAX_TERMS} terms in all.`;

export interface CourseworkProblem {
  /** Which entry the message belongs beside; none for the limits on the whole coursework. */
  at: { college: number; term: number; course: number } | null;
  field: 'grade' | 'units' | 'courses' | 'terms';
  message: string;
}

/** Every message for an applicant's coursework, in entry order, limits first. */
export function courseworkProblems(
  colleges: CollegeCoursework[],
  rules: CourseworkRules,
  today: string,
): CourseworkProblem[] {
  const problems: CourseworkProblem[] = [];
  const terms = colleges.flatMap((college) => college.terms);
  const courseCount = terms.reduce((count, term) => count + term.courses.length, 0);
  if (courseCount > MAX_COURSES)
    problems.push({ at: null, field: 'courses', message: TOO_MANY_COURSES_MESSAGE });
  if (terms.length > MAX_TERMS)
    problems.push({ at: null, field: 'terms', message: TOO_MANY_TERMS_MESSAGE });

  for (const [collegeIndex, college] of colleges.entries()) {
    for (const [termIndex, term] of college.terms.entries()) {
      const future = isFutureTerm(term, today);
      for (const [courseIndex, course] of term.courses.entries()) {
        const at = { college: collegeIndex, term: termIndex, course: courseIndex };
        const unitsMessage = unitsValidity(course.units);
        if (unitsMessage) problems.push({ at, field: 'units', message: unitsMessage });
        const gradeMessageText = gradeValidity(course.grade, rules);
        if (gradeMessageText) problems.push({ at, field: 'grade', message: gradeMessageText });
        else if (future && gradeEffect(course.grade, rules).kind !== 'missing')
          problems.push({ at, field: 'grade', message: futureGradeMessage(term) });
      }
    }
  }
  return problems;
}
