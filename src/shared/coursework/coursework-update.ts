import { normalizeGrade, type TermStatus, termName } from './coursework';
import {
  type CourseEntry,
  type CourseworkAnswer,
  type CourseworkEntryProblem,
  courseRowName,
  courseworkCounts,
  courseworkEntryProblems,
  isBlankCourse,
  parseCourseworkAnswer,
  type TermEntry,
  unitsOf,
} from './coursework-answer';
import type { CourseworkRules } from './coursework-grading';

/*
 * Coursework after submit (issue 27: offices ask for a term's grades in January). The submitted
 * grid never changes; an update is the grid as it stands afterwards, and may only add to it: a
 * grade for a course of a term that was in progress or planned, courses in such a term, and new
 * terms. What was submitted (a course's subject, number, title and units, a grade already given,
 * a term, the term system) stays as it was. The checks of a finished entry apply to what is new.
 */

export const COURSEWORK_UPDATE_MESSAGES = {
  notSubmitted:
    'Your application is not submitted yet: change your coursework in the application itself.',
  notAGrid: 'There is no coursework for this college in your submitted application.',
  nothingChanged:
    'Nothing has changed: add a grade, a course or a term to the coursework you submitted.',
  system: (system: string) =>
    `The term system cannot change after you submit: these are ${system} terms.`,
  termRemoved: (name: string) => `${name} was submitted and cannot be removed.`,
  termCompleted: (name: string) =>
    `${name} was submitted as completed, so its courses cannot change.`,
  statusBack: (name: string, status: string) =>
    `${name} was submitted as ${status} and cannot go back to an earlier status.`,
  courseRemoved: 'This course was submitted and cannot be removed.',
  cellChanged: (cell: string, was: string) =>
    `The ${cell} cannot change after you submit: it was ${was === '' ? 'empty' : was}.`,
  gradeChanged: (was: string) => `The grade cannot change after you submit: it was ${was}.`,
} as const;

export const TERM_STATUS_WORDS: Record<TermStatus, string> = {
  completed: 'completed',
  in_progress: 'in progress',
  planned: 'planned',
};

/** A term moves forward only: planned, then in progress, then completed. */
const STATUS_ORDER: Record<TermStatus, number> = { planned: 0, in_progress: 1, completed: 2 };

const CELL_WORDS = { subject: 'subject', number: 'course number', title: 'title', units: 'units' };
const FIXED_CELLS = ['subject', 'number', 'title', 'units'] as const;

const termKey = (term: Pick<TermEntry, 'season' | 'year'>) => `${term.season} ${term.year}`;
const gradeOf = (course: CourseEntry | undefined) => normalizeGrade(course?.grade ?? null);

function sameCell(cell: (typeof FIXED_CELLS)[number], before: string, after: string): boolean {
  if (cell === 'units') {
    const [was, now] = [unitsOf(before), unitsOf(after)];
    if (!Number.isNaN(was) && !Number.isNaN(now)) return was === now;
  }
  return before.trim() === after.trim();
}

/** Whether a row of `after` adds to or changes its row of `before` (blank rows count as none). */
function rowChanged(before: CourseEntry | undefined, after: CourseEntry): boolean {
  if (isBlankCourse(after)) return false;
  if (!before || isBlankCourse(before)) return true;
  return (
    FIXED_CELLS.some((cell) => !sameCell(cell, before[cell], after[cell])) ||
    gradeOf(before) !== gradeOf(after)
  );
}

export interface CourseworkUpdateContext {
  rules: CourseworkRules;
  /** `YYYY-MM-DD`: a term that cannot have started by then has no grade. */
  today: string;
  /** Courses and terms at the applicant's other colleges (current versions), for the limits. */
  elsewhere?: { courses: number; terms: number };
}

/**
 * Every reason `proposed` is not an update the applicant may make to `current` (the grid as
 * submitted, or as the last update left it), in entry order, each naming its term or row. Empty
 * when the update may be stored (which includes no change at all: see describeCourseworkUpdate).
 */
export function courseworkUpdateProblems(
  current: CourseworkAnswer,
  proposed: CourseworkAnswer,
  context: CourseworkUpdateContext,
): CourseworkEntryProblem[] {
  const problems: CourseworkEntryProblem[] = [];
  if (proposed.system !== current.system) {
    const message = COURSEWORK_UPDATE_MESSAGES.system(current.system);
    problems.push({ term: null, course: null, cell: 'terms', message, named: message });
  }
  const proposedByKey = new Map(proposed.terms.map((term, index) => [termKey(term), index]));
  /** Positions in `proposed` the entry checks may speak about: what is new or changed. */
  const newTerms = new Set(proposed.terms.keys());
  const changedRows = new Set<string>();
  const wholeTerms = new Set<number>();

  for (const [currentIndex, was] of current.terms.entries()) {
    const name = termName(was);
    const index = proposedByKey.get(termKey(was));
    const now = index === undefined ? undefined : proposed.terms[index];
    if (index === undefined || !now) {
      const message = COURSEWORK_UPDATE_MESSAGES.termRemoved(name);
      problems.push({
        term: currentIndex,
        course: null,
        cell: 'terms',
        message,
        named: `${name}: ${message}`,
      });
      continue;
    }
    newTerms.delete(index);
    const termProblem = (message: string) =>
      problems.push({ term: index, course: null, cell: 'terms', message, named: message });
    if (STATUS_ORDER[now.status] < STATUS_ORDER[was.status]) {
      termProblem(COURSEWORK_UPDATE_MESSAGES.statusBack(name, TERM_STATUS_WORDS[was.status]));
    } else if (now.status !== was.status) {
      // A term marked completed now needs every course finished: all its rows are checked.
      wholeTerms.add(index);
    }
    const completed = was.status === 'completed';
    let completedRefused = false;
    const refuseCompleted = () => {
      if (completedRefused) return;
      completedRefused = true;
      termProblem(COURSEWORK_UPDATE_MESSAGES.termCompleted(name));
    };
    const rows = Math.max(was.courses.length, now.courses.length);
    for (let row = 0; row < rows; row++) {
      const before = was.courses[row];
      const after = now.courses[row];
      const submittedRow = before !== undefined && !isBlankCourse(before);
      if (submittedRow) {
        const rowName = courseRowName(was, row, before);
        const rowProblem = (cell: CourseworkEntryProblem['cell'], message: string) =>
          problems.push({
            term: index,
            course: row,
            cell,
            message,
            named: `${rowName}: ${message}`,
          });
        if (!after || isBlankCourse(after)) {
          rowProblem('courses', COURSEWORK_UPDATE_MESSAGES.courseRemoved);
          continue;
        }
        for (const cell of FIXED_CELLS) {
          if (!sameCell(cell, before[cell], after[cell]))
            rowProblem(
              cell,
              COURSEWORK_UPDATE_MESSAGES.cellChanged(CELL_WORDS[cell], before[cell].trim()),
            );
        }
        const [gradeBefore, gradeAfter] = [gradeOf(before), gradeOf(after)];
        if (gradeBefore !== '' && gradeAfter !== gradeBefore)
          rowProblem('grade', COURSEWORK_UPDATE_MESSAGES.gradeChanged(before.grade.trim()));
        else if (gradeBefore === '' && gradeAfter !== '') {
          if (completed) refuseCompleted();
          else changedRows.add(`${index}:${row}`);
        }
      } else if (after && !isBlankCourse(after)) {
        // A new course (or a row left blank at submit, now filled in).
        if (completed) refuseCompleted();
        else changedRows.add(`${index}:${row}`);
      }
    }
  }

  const grew =
    courseworkCounts(proposed).courses > courseworkCounts(current).courses ||
    proposed.terms.length > current.terms.length;
  const entry = courseworkEntryProblems(proposed, {
    rules: context.rules,
    today: context.today,
    stage: 'submit',
    ...(context.elsewhere ? { elsewhere: context.elsewhere } : {}),
  });
  for (const problem of entry) {
    const term = problem.term ?? -1;
    const limit = problem.cell === 'courses' || problem.cell === 'terms';
    const relevant =
      newTerms.has(term) ||
      (limit && grew) ||
      (problem.course !== null &&
        (wholeTerms.has(term) || changedRows.has(`${term}:${problem.course}`)));
    if (relevant) problems.push(problem);
  }
  return problems;
}

function courseCode(course: CourseEntry, index: number): string {
  const code = `${course.subject.trim()} ${course.number.trim()}`.trim();
  return code === '' ? `course ${index + 1}` : code;
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/**
 * What an update changed, in lines a reader understands: "Spring 2025: grades added for MATH 1B
 * (A), CHEM 2 (B+)", "Fall 2025 added with 4 courses (in progress)". Empty when nothing that
 * counts changed (blank rows, spaces, a grade's case).
 */
export function describeCourseworkUpdate(
  before: CourseworkAnswer | null,
  after: CourseworkAnswer,
): string[] {
  const lines: string[] = [];
  if (before && before.system !== after.system)
    lines.push(`Term system changed from ${before.system} to ${after.system}`);
  const beforeByKey = new Map((before?.terms ?? []).map((term) => [termKey(term), term]));
  for (const term of after.terms) {
    const name = termName(term);
    const was = beforeByKey.get(termKey(term));
    beforeByKey.delete(termKey(term));
    if (!was) {
      const courses = term.courses.filter((course) => !isBlankCourse(course)).length;
      lines.push(
        `${name} added with ${plural(courses, 'course')} (${TERM_STATUS_WORDS[term.status]})`,
      );
      continue;
    }
    const added: string[] = [];
    const graded: string[] = [];
    const changed: string[] = [];
    for (const [row, course] of term.courses.entries()) {
      if (!rowChanged(was.courses[row], course)) continue;
      const previous = was.courses[row];
      const code = courseCode(course, row);
      const grade = course.grade.trim();
      if (!previous || isBlankCourse(previous)) {
        added.push(grade === '' ? code : `${code} (${grade})`);
      } else if (
        gradeOf(previous) === '' &&
        FIXED_CELLS.every((cell) => sameCell(cell, previous[cell], course[cell]))
      ) {
        graded.push(`${code} (${grade})`);
      } else {
        changed.push(courseCode(previous, row));
      }
    }
    const removed = was.courses.filter(
      (course, row) =>
        !isBlankCourse(course) &&
        (term.courses[row] === undefined || isBlankCourse(term.courses[row] as CourseEntry)),
    ).length;
    if (added.length > 0) lines.push(`${name}: courses added: ${added.join(', ')}`);
    if (graded.length > 0) lines.push(`${name}: grades added for ${graded.join(', ')}`);
    if (changed.length > 0) lines.push(`${name}: courses changed: ${changed.join(', ')}`);
    if (removed > 0) lines.push(`${name}: ${plural(removed, 'course')} removed`);
    if (was.status !== term.status) lines.push(`${name} is now ${TERM_STATUS_WORDS[term.status]}`);
  }
  for (const term of beforeByKey.values()) lines.push(`${termName(term)} removed`);
  return lines;
}

/** One stored update of a grid, as the store reads it (oldest first). */
export interface StoredCourseworkUpdate {
  key: string;
  /** The grid's JSON text after the update. */
  answer: string;
  createdAt: string;
}

/** The submitted answers with each grid replaced by its latest update: the current coursework. */
export function currentCourseworkAnswers<T extends Record<string, unknown>>(
  submitted: T,
  updates: readonly Pick<StoredCourseworkUpdate, 'key' | 'answer'>[],
): T {
  const current: Record<string, unknown> = { ...submitted };
  for (const update of updates) current[update.key] = update.answer;
  return current as T;
}

function gridOf(value: unknown): CourseworkAnswer | null {
  if (typeof value !== 'string') return null;
  const parsed = parseCourseworkAnswer(value);
  return parsed.ok ? parsed.answer : null;
}

/**
 * Each update (oldest first) with what it changed: compared with the grid's previous update, or
 * for the first, with the grid as submitted.
 */
export function describedCourseworkUpdates<
  T extends Pick<StoredCourseworkUpdate, 'key' | 'answer'>,
>(
  submitted: Readonly<Record<string, unknown>>,
  updates: readonly T[],
): (T & { lines: string[] })[] {
  const previous = new Map<string, CourseworkAnswer | null>();
  return updates.map((update) => {
    const before = previous.has(update.key)
      ? (previous.get(update.key) ?? null)
      : gridOf(submitted[update.key]);
    const after = gridOf(update.answer);
    previous.set(update.key, after);
    return { ...update, lines: after ? describeCourseworkUpdate(before, after) : [] };
  });
}
