import {
  MAX_COURSES,
  MAX_TERMS,
  type Season,
  type TermStatus,
} from '../../shared/coursework/coursework';
import {
  type CourseEntry,
  type CourseworkAnswer,
  courseworkCounts,
  EARLIEST_TERM_YEAR,
  EMPTY_COURSE,
  LATEST_TERM_YEARS_AHEAD,
  type TermEntry,
} from '../../shared/coursework/coursework-answer';
import { isFutureTerm } from '../../shared/coursework/coursework-validation';

/*
 * The grid's edits as pure functions of its answer: each returns the next answer, which the grid
 * writes as one answer string through the answer store.
 */

export const EMPTY_COURSEWORK: CourseworkAnswer = { system: 'semester', terms: [] };

export const SEASON_LABELS: Record<Season, string> = {
  fall: 'Fall',
  winter: 'Winter',
  spring: 'Spring',
  summer: 'Summer',
};

export const STATUS_LABELS: Record<TermStatus, string> = {
  completed: 'Completed',
  in_progress: 'In progress',
  planned: 'Planned',
};

export const seasonLabel = (season: Season): string => SEASON_LABELS[season];
export const statusLabel = (status: TermStatus): string => STATUS_LABELS[status];

/** The seasons offered, in a school year's order. */
export const SEASON_CHOICES: readonly Season[] = ['fall', 'winter', 'spring', 'summer'];

/** Years a term may be in, latest first: up to five years ahead, back to 1950. */
export function termYears(today: string): number[] {
  const latest = Number(today.slice(0, 4)) + LATEST_TERM_YEARS_AHEAD;
  const years: number[] = [];
  for (let year = latest; year >= EARLIEST_TERM_YEAR; year -= 1) years.push(year);
  return years;
}

/** The status a term most likely has on `today`: finished, under way, or not yet begun. */
export function likelyStatus(term: { season: Season; year: number }, today: string): TermStatus {
  if (isFutureTerm(term, today)) return 'planned';
  const next = nextTerm(term, 'semester');
  return isFutureTerm(next, today) ? 'in_progress' : 'completed';
}

const SEMESTER_ORDER: readonly Season[] = ['spring', 'summer', 'fall'];
const QUARTER_ORDER: readonly Season[] = ['winter', 'spring', 'summer', 'fall'];

/** The term after `term` in the college's calendar (Fall 2024 is followed by Spring 2025). */
export function nextTerm(
  term: { season: Season; year: number },
  system: CourseworkAnswer['system'],
): { season: Season; year: number } {
  const order = system === 'quarter' ? QUARTER_ORDER : SEMESTER_ORDER;
  const index = order.indexOf(term.season);
  const next = order[index + 1];
  if (index >= 0 && next) return { season: next, year: term.year };
  return { season: order[0] ?? 'spring', year: term.year + 1 };
}

/** What the "Add term" controls offer first: the term after the last one, or this fall. */
export function suggestedTerm(
  answer: CourseworkAnswer,
  today: string,
): { season: Season; year: number; status: TermStatus } {
  const last = answer.terms.at(-1);
  const term = last
    ? nextTerm(last, answer.system)
    : { season: 'fall' as Season, year: Number(today.slice(0, 4)) - 1 };
  return { ...term, status: likelyStatus(term, today) };
}

export function addTerm(
  answer: CourseworkAnswer,
  term: Pick<TermEntry, 'season' | 'year' | 'status'>,
): CourseworkAnswer {
  return { ...answer, terms: [...answer.terms, { ...term, courses: [{ ...EMPTY_COURSE }] }] };
}

export function updateTerm(
  answer: CourseworkAnswer,
  termIndex: number,
  change: (term: TermEntry) => TermEntry,
): CourseworkAnswer {
  return {
    ...answer,
    terms: answer.terms.map((term, index) => (index === termIndex ? change(term) : term)),
  };
}

export function removeTerm(answer: CourseworkAnswer, termIndex: number): CourseworkAnswer {
  return { ...answer, terms: answer.terms.filter((_, index) => index !== termIndex) };
}

export function setCourses(
  answer: CourseworkAnswer,
  termIndex: number,
  courses: (current: readonly CourseEntry[]) => CourseEntry[],
): CourseworkAnswer {
  return updateTerm(answer, termIndex, (term) => ({ ...term, courses: courses(term.courses) }));
}

export function setCell(
  answer: CourseworkAnswer,
  termIndex: number,
  courseIndex: number,
  cell: keyof CourseEntry,
  text: string,
): CourseworkAnswer {
  return setCourses(answer, termIndex, (courses) =>
    courses.map((course, index) => (index === courseIndex ? { ...course, [cell]: text } : course)),
  );
}

/** A blank row inserted after `afterIndex`. */
export function addCourse(
  answer: CourseworkAnswer,
  termIndex: number,
  afterIndex: number,
): CourseworkAnswer {
  return setCourses(answer, termIndex, (courses) => [
    ...courses.slice(0, afterIndex + 1),
    { ...EMPTY_COURSE },
    ...courses.slice(afterIndex + 1),
  ]);
}

export function removeCourse(
  answer: CourseworkAnswer,
  termIndex: number,
  courseIndex: number,
): CourseworkAnswer {
  return setCourses(answer, termIndex, (courses) =>
    courses.filter((_, index) => index !== courseIndex),
  );
}

/** `Fall 2024, course 2: MATH 1A, grade A`: how a screen reader hears a row. */
export function courseRowLabel(
  termLabel: string,
  courseIndex: number,
  course: CourseEntry,
): string {
  const code = `${course.subject.trim()} ${course.number.trim()}`.trim();
  const grade = course.grade.trim();
  return `${termLabel}, course ${courseIndex + 1}${code ? `: ${code}` : ''}${
    grade ? `, grade ${grade}` : ''
  }`;
}

/** How many more courses and terms the application takes, all colleges together. */
export function roomLeft(
  answer: CourseworkAnswer,
  elsewhere: { courses: number; terms: number },
): { courses: number; terms: number } {
  const rows = answer.terms.reduce((count, term) => count + term.courses.length, 0);
  const here = courseworkCounts(answer);
  return {
    // A blank row takes room too while it is there: it is about to be filled.
    courses: Math.max(0, MAX_COURSES - elsewhere.courses - Math.max(rows, here.courses)),
    terms: Math.max(0, MAX_TERMS - elsewhere.terms - here.terms),
  };
}
