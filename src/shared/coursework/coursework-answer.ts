import { isStorableText } from '../validation/storable-text';
import {
  type CollegeCoursework,
  type Course,
  MAX_COURSE_UNITS,
  MAX_COURSES,
  MAX_TERMS,
  normalizeGrade,
  SEASONS,
  type Season,
  TERM_STATUSES,
  TERM_SYSTEMS,
  type Term,
  type TermStatus,
  type TermSystem,
  termName,
} from './coursework';
import type { CourseworkRules } from './coursework-grading';
import { gradeEffect } from './coursework-grading';
import {
  futureGradeMessage,
  gradeValidity,
  isFutureTerm,
  TOO_MANY_COURSES_MESSAGE,
  TOO_MANY_TERMS_MESSAGE,
  UNITS_MESSAGE,
} from './coursework-validation';

/*
 * One college's coursework as the application stores it: one answer (the grid's key inside the
 * college's repeat instance) holding this JSON as text, so it saves, survives a time-out and is
 * cleared with its college exactly like every other answer. Units and grades are kept as typed
 * (`4.0`, `b+`) and read as numbers and grades by the totals; this module is the one parse both
 * the browser and the server run.
 */

export const COURSE_TEXT_LIMITS = { subject: 10, number: 10, title: 100, units: 6, grade: 6 };
export const EARLIEST_TERM_YEAR = 1950;
export const LATEST_TERM_YEARS_AHEAD = 5;

export interface CourseEntry {
  subject: string;
  number: string;
  title: string;
  units: string;
  grade: string;
}

export interface TermEntry {
  season: Season;
  year: number;
  status: TermStatus;
  // One college may hold every course; the limit on all colleges together is checked apart.
  courses: CourseEntry[];
}

export interface CourseworkAnswer {
  system: TermSystem;
  terms: TermEntry[];
}

const LATEST_STORED_TERM_YEAR = 2200;

type Path = (string | number)[];

/** Where a stored grid leaves the grid's shape, and how. */
interface ShapeProblem {
  path: Path;
  message: string;
}

/**
 * The first place where a JSON value is not a grid, or null. Written out rather than declared
 * with zod: the form's first page carries this module, and zod would come with it (decision 060).
 */
function shapeProblem(json: unknown): ShapeProblem | null {
  const at = (path: Path, message: string): ShapeProblem => ({ path, message });
  const objectProblem = (value: unknown, keys: readonly string[], path: Path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return at(path, 'must be an object');
    for (const key of Object.keys(value))
      if (!keys.includes(key)) return at([...path, key], 'is not allowed');
    for (const key of keys) if (!Object.hasOwn(value, key)) return at([...path, key], 'is missing');
    return null;
  };
  const oneOf = (value: unknown, allowed: readonly string[], path: Path) =>
    typeof value === 'string' && allowed.includes(value)
      ? null
      : at(path, `must be one of ${allowed.join(', ')}`);
  const listProblem = (value: unknown, max: number, path: Path) => {
    if (!Array.isArray(value)) return at(path, 'must be a list');
    return value.length > max ? at(path, `must hold at most ${max}`) : null;
  };

  const answer = json as CourseworkAnswer;
  const problem =
    objectProblem(json, ['system', 'terms'], []) ??
    oneOf(answer.system, TERM_SYSTEMS, ['system']) ??
    listProblem(answer.terms, MAX_TERMS + 1, ['terms']);
  if (problem) return problem;
  for (const [termIndex, term] of answer.terms.entries()) {
    const path = ['terms', termIndex];
    const termProblem =
      objectProblem(term, ['season', 'year', 'status', 'courses'], path) ??
      oneOf(term.season, SEASONS, [...path, 'season']) ??
      (Number.isInteger(term.year) &&
      term.year >= EARLIEST_TERM_YEAR &&
      term.year <= LATEST_STORED_TERM_YEAR
        ? null
        : at(
            [...path, 'year'],
            `must be a whole year from ${EARLIEST_TERM_YEAR} to ${LATEST_STORED_TERM_YEAR}`,
          )) ??
      oneOf(term.status, TERM_STATUSES, [...path, 'status']) ??
      listProblem(term.courses, MAX_COURSES + 1, [...path, 'courses']);
    if (termProblem) return termProblem;
    for (const [courseIndex, course] of term.courses.entries()) {
      const coursePath = [...path, 'courses', courseIndex];
      const cells = Object.keys(COURSE_TEXT_LIMITS) as CourseCell[];
      const courseProblem = objectProblem(course, cells, coursePath);
      if (courseProblem) return courseProblem;
      for (const cell of cells) {
        const text: unknown = course[cell];
        const max = COURSE_TEXT_LIMITS[cell];
        if (typeof text !== 'string') return at([...coursePath, cell], 'must be text');
        if (text.length > max)
          return at([...coursePath, cell], `must be at most ${max} characters`);
        if (!isStorableText(text))
          return at([...coursePath, cell], 'contains characters that cannot be stored');
      }
    }
  }
  return null;
}

/** Room for 200 courses with every cell full, written as JSON. */
export const COURSEWORK_ANSWER_MAX_LENGTH = 64_000;

export const EMPTY_COURSE: CourseEntry = {
  subject: '',
  number: '',
  title: '',
  units: '',
  grade: '',
};

export const COURSEWORK_ANSWER_MESSAGES = {
  notCoursework: 'Send the coursework as the grid writes it: a term system and a list of terms.',
  subject: 'Enter the subject, such as MATH.',
  number: 'Enter the course number, such as 1A.',
  units: 'Enter the units.',
  grade: 'Enter the grade from your transcript, or mark the term in progress.',
  termYear: (min: number, max: number) => `Enter a year from ${min} to ${max}.`,
  duplicateTerm: (name: string) => `${name} is entered twice for this college.`,
} as const;

/** The JSON text stored for a grid. */
export function serializeCourseworkAnswer(answer: CourseworkAnswer): string {
  return JSON.stringify(answer);
}

export type ParsedCoursework =
  | { ok: true; answer: CourseworkAnswer | null }
  | { ok: false; message: string };

/** The stored text read back: '' is no coursework; anything not in the grid's shape is refused. */
export function parseCourseworkAnswer(value: string): ParsedCoursework {
  if (value === '') return { ok: true, answer: null };
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return { ok: false, message: COURSEWORK_ANSWER_MESSAGES.notCoursework };
  }
  const problem = shapeProblem(json);
  if (!problem) return { ok: true, answer: json as CourseworkAnswer };
  const where = problem.path.length ? ` (${problem.path.join('.')} ${problem.message})` : '';
  return { ok: false, message: `${COURSEWORK_ANSWER_MESSAGES.notCoursework}${where}` };
}

/** A row the applicant has not started: it is kept for typing into, and counts as nothing. */
export function isBlankCourse(course: CourseEntry): boolean {
  return Object.values(course).every((cell) => cell.trim() === '');
}

/** Units as typed (`4`, `4.5`, `.5`): a number, or NaN when it is not one. */
export function unitsOf(text: string): number {
  const trimmed = text.trim();
  return /^(\d{1,3}(\.\d{0,3})?|\.\d{1,3})$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/**
 * The model of the totals, row for row (so a position in the totals is a position in the grid):
 * units read as numbers, grades as typed. A blank row has no units and no grade, so it counts as
 * nothing.
 */
export function collegeCourseworkOf(college: string, answer: CourseworkAnswer): CollegeCoursework {
  return {
    college,
    termSystem: answer.system,
    terms: answer.terms.map(
      (term): Term => ({
        season: term.season,
        year: term.year,
        status: term.status,
        courses: term.courses.map(
          (course): Course => ({
            subject: course.subject.trim(),
            number: course.number.trim(),
            title: course.title.trim(),
            units: unitsOf(course.units),
            grade: course.grade.trim() === '' ? null : course.grade.trim(),
          }),
        ),
      }),
    ),
  };
}

/** `Fall 2024, course 3 (MATH 1A)`: how a message names its row. */
export function courseRowName(
  term: Pick<Term, 'season' | 'year'>,
  index: number,
  course?: CourseEntry,
) {
  const code = course ? `${course.subject.trim()} ${course.number.trim()}`.trim() : '';
  return `${termName(term)}, course ${index + 1}${code ? ` (${code})` : ''}`;
}

export type CourseCell = keyof CourseEntry;

/** A message for one place of a grid: a cell of a row, a term, or the grid as a whole. */
export interface CourseworkEntryProblem {
  term: number | null;
  course: number | null;
  cell: CourseCell | 'year' | 'courses' | 'terms';
  message: string;
  /** The message with its row or term named, for the error summary and the server's 400. */
  named: string;
}

export interface CourseworkCheckContext {
  rules: CourseworkRules;
  /** `YYYY-MM-DD`: a term that cannot have started by then has no grade. */
  today: string;
  /**
   * `save`: what the server refuses to store (a grade not on the scale, units out of range, a
   * grade for a future term, too many rows). `submit` adds what a finished entry needs.
   */
  stage: 'save' | 'submit';
  /** Courses and terms entered at the other colleges, for the limits on all together. */
  elsewhere?: { courses: number; terms: number };
}

/** Every message for one college's grid, in entry order. Blank rows are never wrong. */
export function courseworkEntryProblems(
  answer: CourseworkAnswer,
  context: CourseworkCheckContext,
): CourseworkEntryProblem[] {
  const problems: CourseworkEntryProblem[] = [];
  const latestYear = Number(context.today.slice(0, 4)) + LATEST_TERM_YEARS_AHEAD;
  const termsBefore = context.elsewhere?.terms ?? 0;
  let coursesSeen = context.elsewhere?.courses ?? 0;
  const seenTerms = new Set<string>();
  for (const [termIndex, term] of answer.terms.entries()) {
    const name = termName(term);
    const termProblem = (cell: CourseworkEntryProblem['cell'], message: string) =>
      problems.push({ term: termIndex, course: null, cell, message, named: `${name}: ${message}` });
    if (termsBefore + termIndex + 1 > MAX_TERMS) termProblem('terms', TOO_MANY_TERMS_MESSAGE);
    if (term.year > latestYear)
      termProblem('year', COURSEWORK_ANSWER_MESSAGES.termYear(EARLIEST_TERM_YEAR, latestYear));
    const termKey = `${term.season} ${term.year}`;
    if (seenTerms.has(termKey)) termProblem('year', COURSEWORK_ANSWER_MESSAGES.duplicateTerm(name));
    seenTerms.add(termKey);
    const future = isFutureTerm(term, context.today);
    for (const [courseIndex, course] of term.courses.entries()) {
      if (isBlankCourse(course)) continue;
      coursesSeen += 1;
      const rowName = courseRowName(term, courseIndex, course);
      const rowProblem = (cell: CourseworkEntryProblem['cell'], message: string) =>
        problems.push({
          term: termIndex,
          course: courseIndex,
          cell,
          message,
          named: `${rowName}: ${message}`,
        });
      if (coursesSeen === MAX_COURSES + 1) rowProblem('courses', TOO_MANY_COURSES_MESSAGE);
      const units = unitsOf(course.units);
      if (course.units.trim() !== '' && (Number.isNaN(units) || units > MAX_COURSE_UNITS))
        rowProblem('units', UNITS_MESSAGE);
      const grade = course.grade.trim() === '' ? null : course.grade;
      const gradeProblem = gradeValidity(grade, context.rules);
      if (gradeProblem) rowProblem('grade', gradeProblem);
      else if (future && gradeEffect(grade, context.rules).kind !== 'missing')
        rowProblem('grade', futureGradeMessage(term));
      if (context.stage === 'submit') {
        if (course.subject.trim() === '') rowProblem('subject', COURSEWORK_ANSWER_MESSAGES.subject);
        if (course.number.trim() === '') rowProblem('number', COURSEWORK_ANSWER_MESSAGES.number);
        if (course.units.trim() === '') rowProblem('units', COURSEWORK_ANSWER_MESSAGES.units);
        if (term.status === 'completed' && grade === null)
          rowProblem('grade', COURSEWORK_ANSWER_MESSAGES.grade);
      }
    }
  }
  return problems;
}

/** Courses (not blank) and terms of a grid: what the limits on all colleges count. */
export function courseworkCounts(answer: CourseworkAnswer | null): {
  courses: number;
  terms: number;
} {
  if (!answer) return { courses: 0, terms: 0 };
  return {
    courses: answer.terms.reduce(
      (count, term) => count + term.courses.filter((course) => !isBlankCourse(course)).length,
      0,
    ),
    terms: answer.terms.length,
  };
}

/** A grade as the grid stores it once typed: `b +` is `B+`. */
export function gradeAsStored(grade: string): string {
  return normalizeGrade(grade);
}
