import { describe, expect, it } from 'vitest';
import type { CourseEntry, CourseworkAnswer, TermEntry } from './coursework-answer';
import { DEFAULT_COURSEWORK_RULES } from './coursework-rules';
import {
  COURSEWORK_UPDATE_MESSAGES,
  courseworkUpdateProblems,
  currentCourseworkAnswers,
  describeCourseworkUpdate,
  describedCourseworkUpdates,
} from './coursework-update';

const course = (subject: string, number: string, units: string, grade = ''): CourseEntry => ({
  subject,
  number,
  title: `${subject} ${number}`,
  units,
  grade,
});
const term = (
  season: TermEntry['season'],
  year: number,
  status: TermEntry['status'],
  ...courses: CourseEntry[]
): TermEntry => ({ season, year, status, courses });

const submitted: CourseworkAnswer = {
  system: 'semester',
  terms: [
    term('fall', 2024, 'completed', course('MATH', '1A', '4', 'A'), course('ENGL', '1', '3', 'B')),
    term('spring', 2025, 'in_progress', course('MATH', '1B', '4'), course('CHEM', '2', '5')),
  ],
};

const context = { rules: DEFAULT_COURSEWORK_RULES, today: '2025-06-15' };
const check = (proposed: CourseworkAnswer, current = submitted) =>
  courseworkUpdateProblems(current, proposed, context).map((problem) => problem.named);

/** The submitted grid with `change` applied to a copy. */
function changed(change: (grid: CourseworkAnswer) => void): CourseworkAnswer {
  const grid = structuredClone(submitted);
  change(grid);
  return grid;
}
const courseAt = (grid: CourseworkAnswer, termIndex: number, row: number) =>
  grid.terms[termIndex]?.courses[row] as CourseEntry;
/** The submitted grid with one cell of one row changed. */
const withCell = (termIndex: number, row: number, cell: keyof CourseEntry, value: string) =>
  changed((grid) => {
    courseAt(grid, termIndex, row)[cell] = value;
  });

describe('an update after submit', () => {
  it('may add grades to an in-progress term, which stays in progress or becomes completed', () => {
    const graded = changed((grid) => {
      courseAt(grid, 1, 0).grade = 'A';
      courseAt(grid, 1, 1).grade = 'b+';
    });
    expect(check(graded)).toEqual([]);
    const completed = changed((grid) => {
      courseAt(grid, 1, 0).grade = 'A';
      courseAt(grid, 1, 1).grade = 'B+';
      (grid.terms[1] as TermEntry).status = 'completed';
    });
    expect(check(completed)).toEqual([]);
    expect(describeCourseworkUpdate(submitted, completed)).toEqual([
      'Spring 2025: grades added for MATH 1B (A), CHEM 2 (B+)',
      'Spring 2025 is now completed',
    ]);
  });

  it('asks for every grade of a term marked completed, naming the row', () => {
    const half = changed((grid) => {
      courseAt(grid, 1, 0).grade = 'A';
      (grid.terms[1] as TermEntry).status = 'completed';
    });
    expect(check(half)).toEqual([
      'Spring 2025, course 2 (CHEM 2): Enter the grade from your transcript, or mark the term in progress.',
    ]);
  });

  it('may add terms, with courses and any status, and courses to a term not completed', () => {
    const added = changed((grid) => {
      grid.terms[1]?.courses.push(course('PHYS', '4A', '4'));
      grid.terms.push(
        term(
          'fall',
          2025,
          'planned',
          course('MATH', '2', '4'),
          course('HIST', '17', '3'),
          course('PE', '1', '1'),
          course('ART', '5', '3'),
        ),
      );
    });
    expect(check(added)).toEqual([]);
    expect(describeCourseworkUpdate(submitted, added)).toEqual([
      'Spring 2025: courses added: PHYS 4A',
      'Fall 2025 added with 4 courses (planned)',
    ]);
  });

  it('refuses a changed grade, a removed course, changed units and a removed term, naming each', () => {
    expect(check(withCell(0, 0, 'grade', 'B'))).toEqual([
      `Fall 2024, course 1 (MATH 1A): ${COURSEWORK_UPDATE_MESSAGES.gradeChanged('A')}`,
    ]);
    expect(check(changed((grid) => void grid.terms[1]?.courses.splice(1, 1)))).toEqual([
      `Spring 2025, course 2 (CHEM 2): ${COURSEWORK_UPDATE_MESSAGES.courseRemoved}`,
    ]);
    expect(check(withCell(1, 0, 'units', '5'))).toEqual([
      'Spring 2025, course 1 (MATH 1B): The units cannot change after you submit: it was 4.',
    ]);
    expect(check(withCell(1, 0, 'subject', 'STAT'))).toEqual([
      'Spring 2025, course 1 (MATH 1B): The subject cannot change after you submit: it was MATH.',
    ]);
    expect(check(changed((grid) => void grid.terms.splice(0, 1)))).toEqual([
      'Fall 2024: Fall 2024 was submitted and cannot be removed.',
    ]);
  });

  it('takes the same units and grade written differently as unchanged', () => {
    const same = changed((grid) => {
      courseAt(grid, 1, 0).units = '4.0';
      courseAt(grid, 0, 1).grade = ' b ';
    });
    expect(check(same)).toEqual([]);
    expect(describeCourseworkUpdate(submitted, same)).toEqual([]);
    expect(describeCourseworkUpdate(submitted, structuredClone(submitted))).toEqual([]);
  });

  it('refuses a change to a completed term, to the term system and a status going back', () => {
    expect(
      check(changed((grid) => void grid.terms[0]?.courses.push(course('PE', '2', '1', 'P')))),
    ).toEqual([COURSEWORK_UPDATE_MESSAGES.termCompleted('Fall 2024')]);
    expect(
      check(
        changed((grid) => {
          grid.system = 'quarter';
        }),
      ),
    ).toEqual([COURSEWORK_UPDATE_MESSAGES.system('semester')]);
    expect(
      check(
        changed((grid) => {
          (grid.terms[1] as TermEntry).status = 'planned';
        }),
      ),
    ).toEqual([COURSEWORK_UPDATE_MESSAGES.statusBack('Spring 2025', 'in progress')]);
  });

  it('refuses what a finished entry refuses, for new rows only', () => {
    const future = changed((grid) => {
      grid.terms.push(term('fall', 2026, 'planned', course('MATH', '3', '4', 'A')));
    });
    expect(check(future)).toEqual([
      'Fall 2026, course 1 (MATH 3): Fall 2026 has not started yet, so its courses cannot have a grade.',
    ]);
    const offScale = withCell(1, 1, 'grade', 'Q');
    expect(check(offScale)).toEqual([
      'Spring 2025, course 2 (CHEM 2): Enter a grade from the scale, such as A, B+ or P.',
    ]);
    const noNumber = changed((grid) => void grid.terms[1]?.courses.push(course('BIO', '', '4')));
    expect(check(noNumber)).toEqual([
      'Spring 2025, course 3 (BIO): Enter the course number, such as 1A.',
    ]);
    // A submitted row the rules would refuse today (a grade the tenant dropped) stays as it was.
    const older = withCell(0, 0, 'grade', 'E');
    expect(
      courseworkUpdateProblems(older, structuredClone(older), context).map((p) => p.named),
    ).toEqual([]);
  });

  it('may add terms to a grid that was empty at submit', () => {
    const empty: CourseworkAnswer = { system: 'quarter', terms: [] };
    const first: CourseworkAnswer = {
      system: 'semester',
      terms: [term('spring', 2025, 'completed', course('MATH', '1', '4', 'A'))],
    };
    expect(courseworkUpdateProblems({ ...first, terms: [] }, first, context)).toEqual([]);
    expect(describeCourseworkUpdate(null, first)).toEqual([
      'Spring 2025 added with 1 course (completed)',
    ]);
    expect(describeCourseworkUpdate(empty, first)[0]).toBe(
      'Term system changed from quarter to semester',
    );
  });
});

describe('the current coursework', () => {
  it('is the submitted answers with each grid replaced by its latest update', () => {
    const current = currentCourseworkAnswers({ first_name: 'Ana', college_coursework: 'old' }, [
      { key: 'college_coursework', answer: 'first' },
      { key: 'college_2_coursework', answer: 'other' },
      { key: 'college_coursework', answer: 'second' },
    ]);
    expect(current).toEqual({
      first_name: 'Ana',
      college_coursework: 'second',
      college_2_coursework: 'other',
    });
  });
});

describe('the updates described', () => {
  it('compare each update with the one before it, the first with the submitted grid', () => {
    const first = withCell(1, 0, 'grade', 'A');
    const second = structuredClone(first);
    courseAt(second, 1, 1).grade = 'C';
    const described = describedCourseworkUpdates(
      { college_coursework: JSON.stringify(submitted) },
      [
        { key: 'college_coursework', answer: JSON.stringify(first) },
        { key: 'college_coursework', answer: JSON.stringify(second) },
      ],
    );
    expect(described.map((update) => update.lines)).toEqual([
      ['Spring 2025: grades added for MATH 1B (A)'],
      ['Spring 2025: grades added for CHEM 2 (C)'],
    ]);
  });
});
