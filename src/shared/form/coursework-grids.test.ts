import { describe, expect, it } from 'vitest';
import { MAX_COURSES } from '../coursework/coursework';
import type { CourseEntry, CourseworkAnswer } from '../coursework/coursework-answer';
import { DEFAULT_COURSEWORK_RULES } from '../coursework/coursework-rules';
import { TOO_MANY_COURSES_MESSAGE } from '../coursework/coursework-validation';
import { courseworkTotalsOf, enteredCoursework } from './coursework-grids';
import type { FormModel, FormState } from './model';
import { printableApplication, printableRows } from './printable';
import { hiddenAnswersPatch } from './resolve';
import { validateAnswers } from './validate';

const model: FormModel = {
  pages: [
    {
      id: 'education',
      route: '/education',
      title: 'Education',
      items: [
        {
          kind: 'repeat',
          id: 'colleges',
          addLabel: 'college',
          instances: [
            { prefix: 'college_', label: 'College 1' },
            { prefix: 'college_2_', label: 'College 2' },
          ],
          items: [
            { kind: 'field', key: 'name', widget: 'text', label: 'Name' },
            { kind: 'field', key: 'ceeb', widget: 'text', label: 'CEEB code' },
            {
              kind: 'coursework',
              id: 'grid',
              key: 'coursework',
              label: 'Courses taken',
              showWhen: { valueKey: '$name', operator: 'answered' },
              collegeKeys: ['$ceeb', '$name'],
              columns: [
                { cell: 'subject', label: 'Subject' },
                { cell: 'number', label: 'Number' },
                { cell: 'title', label: 'Title' },
                { cell: 'units', label: 'Units' },
                { cell: 'grade', label: 'Grade' },
              ],
            },
          ],
        },
      ],
    },
  ],
};

const course = (subject: string, number: string, units: string, grade: string): CourseEntry => ({
  subject,
  number,
  title: `${subject} ${number}`,
  units,
  grade,
});
const blank: CourseEntry = { subject: '', number: '', title: '', units: '', grade: '' };

const first: CourseworkAnswer = {
  system: 'semester',
  terms: [
    { season: 'fall', year: 2023, status: 'completed', courses: [course('MATH', '1', '4', 'D')] },
    {
      season: 'spring',
      year: 2024,
      status: 'completed',
      courses: [blank, course('MATH', '1', '4', 'A'), course('ENGL', '1', '3', 'B')],
    },
  ],
};
const second: CourseworkAnswer = {
  system: 'semester',
  terms: [
    { season: 'fall', year: 2024, status: 'in_progress', courses: [course('MATH', '1', '3', '')] },
  ],
};

const state = (answers: FormState['answers']): FormState => ({
  answers,
  addAnother: { colleges: 2 },
  tabs: {},
  isLoggedIn: true,
});

describe('coursework grids in the model', () => {
  it('reads each shown grid with its college, CEEB code first, and none of a hidden one', () => {
    const answers = {
      college_name: 'Broward College',
      college_ceeb: '5074',
      college_coursework: JSON.stringify(first),
      college_2_coursework: JSON.stringify(second),
    };
    const entered = enteredCoursework(model, state(answers));
    expect(entered.map((grid) => [grid.key, grid.college, grid.instance?.label])).toEqual([
      ['college_coursework', '5074', 'College 1'],
    ]);
    // The second college has no name: its grid is hidden, and its answer is cleared like any.
    expect(hiddenAnswersPatch(model, state(answers))).toEqual({ college_2_coursework: '' });
    const named = enteredCoursework(model, state({ ...answers, college_2_name: 'Valencia' }));
    expect(named.map((grid) => grid.college)).toEqual(['5074', 'Valencia']);
  });

  it('prints the terms without blank rows, marks the repeat left out, and totals every college', () => {
    const printable = printableApplication(model, {
      answers: {
        college_name: 'Broward College',
        college_coursework: JSON.stringify(first),
        college_2_name: 'Valencia',
        college_2_coursework: JSON.stringify(second),
      },
      addAnother: { colleges: 2 },
      courseworkRules: DEFAULT_COURSEWORK_RULES,
    });
    const rows = printable.pages.flatMap((page) =>
      page.groups.flatMap((group) => printableRows(group.entries)),
    );
    const grid = rows.find((row) => row.key === 'college_coursework');
    expect(grid?.answered).toBe(true);
    if (grid?.value.kind !== 'coursework') throw new Error('no coursework value');
    expect(grid.value.text).toBe('2 terms, 3 courses');
    expect(grid.value.terms.map((term) => term.courses.map((c) => [c.subject, c.repeat]))).toEqual([
      [['MATH', true]],
      [
        ['MATH', false],
        ['ENGL', false],
      ],
    ]);
    // (4 x 4.0 + 3 x 3.0) / 7 = 3.57; the retake in progress at another college is its own course.
    expect(grid.value.subtotals).toMatchObject({ gpa: '3.57', transferableUnits: '7.00' });
    expect(printable.coursework).toMatchObject({ gpa: '3.57', inProgressUnits: '3.00' });
    const nothing = printableApplication(model, { answers: { college_name: 'Broward College' } });
    expect(nothing.coursework).toBeNull();
  });

  it('counts the limit on courses over every college at submit', () => {
    const full = (count: number): CourseworkAnswer => ({
      system: 'semester',
      terms: [
        {
          season: 'fall',
          year: 2023,
          status: 'completed',
          courses: Array.from({ length: count }, (_, i) => course('ART', String(i), '1', 'P')),
        },
      ],
    });
    const answers = {
      college_name: 'Broward College',
      college_coursework: JSON.stringify(full(MAX_COURSES - 10)),
      college_2_name: 'Valencia',
      college_2_coursework: JSON.stringify(full(11)),
    };
    const errors = validateAnswers(model, state(answers), { today: '2026-11-28' });
    expect(errors).toEqual({ college_2_coursework: [TOO_MANY_COURSES_MESSAGE] });
    const totals = courseworkTotalsOf(
      enteredCoursework(model, state(answers)),
      DEFAULT_COURSEWORK_RULES,
    );
    expect(totals.transferableUnits).toBe('201.00');
  });
});
