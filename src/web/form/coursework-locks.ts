import { TERM_STATUSES, type TermStatus } from '../../shared/coursework/coursework';
import {
  type CourseCell,
  type CourseworkAnswer,
  isBlankCourse,
} from '../../shared/coursework/coursework-answer';

/*
 * What an update after submit may not change, as the grid draws it: the cells of a submitted
 * row, a grade already given, every course of a term submitted as completed, a submitted term's
 * season and year, and the term system. The server checks the same (coursework-update.ts); the
 * locks only keep the applicant from typing what would be refused.
 *
 * Places are read by index: in update mode a submitted term cannot be removed and new terms and
 * rows are only ever added after the submitted ones, so a submitted term or row keeps its place.
 */

const FIXED_CELLS: readonly CourseCell[] = ['subject', 'number', 'title', 'units'];

export interface CourseworkLocks {
  /** The term system cannot change. */
  system: true;
  /** Null for a term added in this update: it is edited freely. */
  term(termIndex: number): TermLock | null;
  /** The row's cells that may not change, in column order ('' joined, for memoised rows). */
  cells(termIndex: number, courseIndex: number): readonly CourseCell[];
  /** A submitted course (any row of a completed term), which cannot be removed. */
  rowKept(termIndex: number, courseIndex: number): boolean;
}

export interface TermLock {
  /** Submitted as completed: nothing in it may change, and no course may be added. */
  completed: boolean;
  /** The statuses it may move to: its own and the later ones. */
  statuses: readonly TermStatus[];
}

const NOTHING: readonly CourseCell[] = [];
const EVERY_CELL: readonly CourseCell[] = [...FIXED_CELLS, 'grade'];

/** The locks of an update to `current`: the grid as submitted, or as its last update left it. */
export function courseworkLocks(current: CourseworkAnswer): CourseworkLocks {
  const courseOf = (termIndex: number, courseIndex: number) =>
    current.terms[termIndex]?.courses[courseIndex];
  return {
    system: true,
    term(termIndex) {
      const term = current.terms[termIndex];
      if (!term) return null;
      const from = TERM_STATUSES.indexOf(term.status);
      return {
        completed: term.status === 'completed',
        // TERM_STATUSES lists completed first: a term moves toward it.
        statuses: TERM_STATUSES.filter((_, index) => index <= from),
      };
    },
    cells(termIndex, courseIndex) {
      const term = current.terms[termIndex];
      if (!term) return NOTHING;
      if (term.status === 'completed') return EVERY_CELL;
      const course = courseOf(termIndex, courseIndex);
      if (!course || isBlankCourse(course)) return NOTHING;
      return course.grade.trim() === '' ? FIXED_CELLS : EVERY_CELL;
    },
    rowKept(termIndex, courseIndex) {
      const course = courseOf(termIndex, courseIndex);
      if (!course) return false;
      return current.terms[termIndex]?.status === 'completed' || !isBlankCourse(course);
    },
  };
}
