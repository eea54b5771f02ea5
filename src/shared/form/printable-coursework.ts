import { termName } from '../coursework/coursework';
import { type CourseworkAnswer, isBlankCourse } from '../coursework/coursework-answer';
import type { CourseworkRules } from '../coursework/coursework-grading';
import type { CollegeSubtotals, CourseworkTotals } from '../coursework/coursework-totals';
import { courseworkTotalsOf, enteredCoursework } from './coursework-grids';
import type { FormModel, FormState } from './model';

/*
 * The coursework part of the printable projection (printable.ts): each grid's terms and courses
 * with the repeats the rules leave out, its college's subtotals, and the application's totals.
 */

export interface PrintableCourse {
  subject: string;
  number: string;
  title: string;
  units: string;
  grade: string;
  /** Another attempt of the course counts instead (the repeat rule). */
  repeat: boolean;
}

export interface PrintableTerm {
  /** `Fall 2024`. */
  name: string;
  status: CourseworkAnswer['terms'][number]['status'];
  courses: readonly PrintableCourse[];
}

export interface PrintableCoursework {
  kind: 'coursework';
  /** `3 terms, 14 courses`, or '' when nothing is entered. */
  text: string;
  system: CourseworkAnswer['system'];
  terms: readonly PrintableTerm[];
  /** This college's share of the totals. */
  subtotals: CollegeSubtotals | null;
}

/** Each grid's part of the totals, by its answer key. */
export type CourseworkProjection = ReadonlyMap<
  string,
  { answer: CourseworkAnswer; subtotals: CollegeSubtotals | null; repeats: ReadonlySet<string> }
>;

const positionId = (term: number, course: number) => `${term}:${course}`;

/** A grid's printable value: its terms without blank rows, each course marked when it is a repeat left out. */
export function courseworkValue(
  projection: CourseworkProjection,
  key: string,
): PrintableCoursework {
  const grid = projection.get(key);
  if (!grid)
    return { kind: 'coursework', text: '', system: 'semester', terms: [], subtotals: null };
  const terms = grid.answer.terms.map(
    (term, termIndex): PrintableTerm => ({
      name: termName(term),
      status: term.status,
      courses: term.courses.flatMap((course, courseIndex) =>
        isBlankCourse(course)
          ? []
          : [
              {
                subject: course.subject.trim(),
                number: course.number.trim(),
                title: course.title.trim(),
                units: course.units.trim(),
                grade: course.grade.trim(),
                repeat: grid.repeats.has(positionId(termIndex, courseIndex)),
              },
            ],
      ),
    }),
  );
  const courses = terms.reduce((count, term) => count + term.courses.length, 0);
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return {
    kind: 'coursework',
    text: terms.length === 0 ? '' : `${plural(terms.length, 'term')}, ${plural(courses, 'course')}`,
    system: grid.answer.system,
    terms,
    subtotals: grid.subtotals,
  };
}

/**
 * Every shown grid's part of the totals, and the totals (null when no course is entered), for a
 * state whose hidden answers are already cleared.
 */
export function courseworkProjection(
  model: FormModel,
  state: FormState,
  rules: CourseworkRules,
): { projection: CourseworkProjection; totals: CourseworkTotals | null } {
  const entered = enteredCoursework(model, state);
  const totals = courseworkTotalsOf(entered, rules);
  const projection = new Map(
    entered.map((grid, index) => [
      grid.key,
      {
        answer: grid.answer,
        subtotals: totals.colleges[index] ?? null,
        repeats: new Set(
          totals.excludedRepeats
            .filter((repeat) => repeat.college === index)
            .map((repeat) => positionId(repeat.term, repeat.course)),
        ),
      },
    ]),
  );
  const anyCourse = entered.some((grid) =>
    grid.answer.terms.some((term) => term.courses.some((course) => !isBlankCourse(course))),
  );
  return { projection, totals: anyCourse ? totals : null };
}
