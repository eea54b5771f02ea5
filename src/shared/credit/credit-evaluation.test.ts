import { describe, expect, it } from 'vitest';
import type { CourseEntry, CourseworkAnswer, TermEntry } from '../coursework/coursework-answer';
import { DEFAULT_COURSEWORK_RULES } from '../coursework/coursework-rules';
import {
  type CourseReview,
  type CreditGrid,
  type CreditInput,
  courseRefs,
  evaluateCredit,
  mapCourse,
} from './credit-evaluation';
import type { Requirement } from './credit-requirements';
import { type Equivalency, type EquivalencyTable, equivalencyKey } from './equivalency';

const rules = DEFAULT_COURSEWORK_RULES;
const FOOTHILL = '4094';
const DE_ANZA = '4095';

function row(subject: string, number: string, units: string, grade = '', title = ''): CourseEntry {
  return { subject, number, title, units, grade };
}

const BLANK = row('', '', '', '');

function term(
  season: TermEntry['season'],
  year: number,
  status: TermEntry['status'],
  ...courses: CourseEntry[]
): TermEntry {
  return { season, year, status, courses };
}

function answer(system: CourseworkAnswer['system'], ...terms: TermEntry[]): CourseworkAnswer {
  return { system, terms };
}

function equivalency(
  subject: string,
  number: string,
  kind: Equivalency['kind'],
  localCourse: string,
  localUnits: number,
  satisfies: string[] = [],
): Equivalency {
  return {
    sendingCeeb: FOOTHILL,
    subject,
    number,
    title: '',
    units: localUnits,
    localCourse,
    localUnits,
    kind,
    satisfies,
  };
}

/** Foothill's table: what its courses are at this university. */
const foothillTable: EquivalencyTable = new Map(
  [
    equivalency('MATH', '1A', 'course', 'MATH 150', 4, ['GE-B4', 'MAJOR-CALC1']),
    equivalency('MATH', '1B', 'course', 'MATH 151', 4, ['MAJOR-CALC2']),
    equivalency('ENGL', '1A', 'course', 'ENGL 100', 3, ['GE-A2']),
    equivalency('COMM', '1', 'course', 'COMM 110', 3, ['GE-A1']),
    equivalency('PE', '10', 'elective', 'PE 1XX', 1),
    equivalency('ESL', '5', 'no_credit', '', 0),
  ].map((entry) => [equivalencyKey(entry.subject, entry.number), entry]),
);

const foothill = (value: CourseworkAnswer): CreditGrid => ({
  key: 'college_coursework',
  ceeb: FOOTHILL,
  name: 'Foothill College',
  answer: value,
});

function input(grids: CreditGrid[], change: Partial<CreditInput> = {}): CreditInput {
  return {
    grids,
    tables: new Map([[FOOTHILL, foothillTable]]),
    reviews: new Map(),
    rules,
    requirements: [],
    answers: {},
    ...change,
  };
}

function review(
  course_ref: string,
  status: CourseReview['status'],
  change: Partial<CourseReview> = {},
): CourseReview {
  return {
    course_ref,
    status,
    grade: null,
    units: null,
    mapping: null,
    reason: 'As the transcript shows.',
    reviewed_by: 'evaluator-1',
    reviewed_at: '2026-03-02T10:00:00Z',
    ...change,
  };
}

const reviews = (...list: CourseReview[]) =>
  new Map(list.map((entry) => [entry.course_ref, entry]));

const goldenFour: Requirement = {
  id: 'golden',
  label: 'Golden Four',
  kind: 'courses',
  codes: ['GE-A2', 'GE-B4'],
  min_grade: 'C',
  show_to_applicant: true,
};

/** What each course ends as: code, outcome and this university's units. */
function outcomes(evaluation: ReturnType<typeof evaluateCredit>) {
  return evaluation.courses.map((course) => [
    `${course.subject} ${course.number}`,
    course.outcome,
    course.credit_units,
  ]);
}

describe('a two-college application', () => {
  // Foothill (semester, with a table) and De Anza (quarter, no table loaded).
  const grids: CreditGrid[] = [
    foothill(
      answer(
        'semester',
        term(
          'fall',
          2023,
          'completed',
          row('MATH', '1A', '4', 'A', 'Calculus'),
          row(' engl', '1 a ', '3', 'B', 'Composition'),
          BLANK,
          row('PE', '10', '1', 'P'),
          row('ESL', '5', '3', 'A'),
        ),
        term('spring', 2024, 'completed', row('HIST', '17A', '3', 'C')),
      ),
    ),
    {
      key: 'college_coursework_2',
      ceeb: DE_ANZA,
      name: 'De Anza College',
      answer: answer('quarter', term('fall', 2024, 'completed', row('PSYC', '1', '4', 'B'), BLANK)),
    },
  ];
  const requirements: Requirement[] = [
    { id: 'units', label: '12 units', kind: 'min_units', units: 12, show_to_applicant: true },
    { id: 'gpa', label: 'GPA 3.1', kind: 'min_gpa', gpa: 3.1, show_to_applicant: true },
    goldenFour,
  ];
  const evaluation = evaluateCredit(input(grids, { requirements }));

  it('names both colleges, with a table for Foothill only', () => {
    expect(evaluation.colleges).toEqual([
      { grid_key: 'college_coursework', ceeb: FOOTHILL, name: 'Foothill College', has_table: true },
      {
        grid_key: 'college_coursework_2',
        ceeb: DE_ANZA,
        name: 'De Anza College',
        has_table: false,
      },
    ]);
  });

  it('maps Foothill’s courses through its table (case and spaces aside) and De Anza’s not at all', () => {
    expect(outcomes(evaluation)).toEqual([
      ['MATH 1A', 'transfers', 4],
      ['engl 1 a', 'transfers', 3],
      ['PE 10', 'transfers', 1],
      ['ESL 5', 'no_credit', 0],
      ['HIST 17A', 'needs_review', 0],
      ['PSYC 1', 'needs_review', 0],
    ]);
    expect(evaluation.courses[1]).toMatchObject({
      ref: 'college_coursework:fall-2023:ENGL 1A',
      grid_key: 'college_coursework',
      college_index: 0,
      term: 'Fall 2023',
      term_status: 'completed',
      title: 'Composition',
      units: '3',
      grade: 'B',
      effective_units: 3,
      effective_grade: 'B',
      mapping: {
        kind: 'course',
        local_course: 'ENGL 100',
        local_units: 3,
        satisfies: ['GE-A2'],
        source: 'table',
      },
      review: null,
      repeat_excluded: false,
    });
    expect(evaluation.courses[2]?.mapping).toMatchObject({
      kind: 'elective',
      local_course: 'PE 1XX',
    });
    expect(evaluation.courses[5]).toMatchObject({
      ref: 'college_coursework_2:fall-2024:PSYC 1',
      college_index: 1,
      mapping: { kind: 'needs_review', local_course: '', local_units: null, source: 'none' },
    });
  });

  it('counts six courses (blank rows are none), four of them mapped', () => {
    // 4 / 6 = 0.666… → 0.67.
    expect(evaluation.summary).toEqual({
      courses: 6,
      mapped: 4,
      needs_review: 2,
      reviewed: 0,
      mapped_share: '0.67',
    });
  });

  it('totals the courses, leaving out the one mapped to no credit and converting quarter units', () => {
    // Graded: MATH 4×4.0 = 16, ENGL 3×3.0 = 9, HIST 3×2.0 = 6, PSYC 4 quarter = 8/3 semester
    // units × 3.0 = 8. ESL (no credit) counts nothing; PE (P) is units without points.
    // GPA = 39 / (4 + 3 + 3 + 8/3) = 39 / (38/3) = 117/38 = 3.0789… → 3.08.
    // Transferable = 4 + 3 + 1 + 3 + 8/3 = 41/3 = 13.666… → 13.67.
    // Credit = MATH 150 4 + ENGL 100 3 + PE 1XX 1 = 8.
    expect(evaluation.totals).toEqual({
      transfer_gpa: '3.08',
      transfer_units: '13.67',
      in_progress_units: '0.00',
      credit_units: '8.00',
      pending_credit_units: '0.00',
    });
  });

  it('evaluates the requirements on the reviewed totals and mapped courses', () => {
    expect(evaluation.requirements.map(({ id, status, reason }) => [id, status, reason])).toEqual([
      ['units', 'met', '13.67 of 12 transferable units completed.'],
      ['gpa', 'not_met', 'Transfer GPA 3.08, below the 3.10 needed.'],
      ['golden', 'met', 'Satisfied: GE-A2 by engl 1 a, GE-B4 by MATH 1A.'],
    ]);
  });
});

describe('mapCourse', () => {
  it('finds a course by subject and number whatever their case and spaces', () => {
    expect(mapCourse({ subject: ' math ', number: '1 a' }, foothillTable)).toEqual({
      kind: 'course',
      local_course: 'MATH 150',
      local_units: 4,
      satisfies: ['GE-B4', 'MAJOR-CALC1'],
      source: 'table',
    });
  });

  it('needs review without a row, or without a table', () => {
    const needsReview = {
      kind: 'needs_review',
      local_course: '',
      local_units: null,
      satisfies: [],
      source: 'none',
    };
    expect(mapCourse({ subject: 'MATH', number: '1C' }, foothillTable)).toEqual(needsReview);
    expect(mapCourse({ subject: 'MATH', number: '1A' }, undefined)).toEqual(needsReview);
  });

  it('gives a copy of the table’s codes, so a change to the mapping leaves the table as it is', () => {
    const mapping = mapCourse({ subject: 'MATH', number: '1A' }, foothillTable);
    mapping.satisfies.push('X');
    expect(foothillTable.get('MATH 1A')?.satisfies).toEqual(['GE-B4', 'MAJOR-CALC1']);
  });
});

describe('the summary', () => {
  it('gives the mapped share to two decimals: 7 of 8 is 0.88', () => {
    // 7 / 8 = 0.875 → 0.88 (half up).
    const courses = [
      row('MATH', '1A', '4', 'A'),
      row('MATH', '1B', '4', 'A'),
      row('ENGL', '1A', '3', 'A'),
      row('COMM', '1', '3', 'A'),
      row('PE', '10', '1', 'P'),
      row('ESL', '5', '3', 'P'),
      row('HIST', '17A', '3', 'A'),
      row('PHYS', '4A', '5', 'A'),
    ];
    const evaluation = evaluateCredit(
      input([foothill(answer('semester', term('fall', 2023, 'completed', ...courses)))], {
        reviews: reviews(
          review('college_coursework:fall-2023:HIST 17A', 'corrected', {
            mapping: { kind: 'elective', local_course: 'HIST 1XX', local_units: 3, satisfies: [] },
          }),
        ),
      }),
    );
    // Six from the table, HIST 17A by the evaluator, PHYS 4A still to review.
    expect(evaluation.summary).toEqual({
      courses: 8,
      mapped: 7,
      needs_review: 1,
      reviewed: 1,
      mapped_share: '0.88',
    });
  });

  it('has no share without courses', () => {
    const evaluation = evaluateCredit(input([foothill(answer('semester'))]));
    expect(evaluation.summary).toEqual({
      courses: 0,
      mapped: 0,
      needs_review: 0,
      reviewed: 0,
      mapped_share: null,
    });
    expect(evaluation.totals).toEqual({
      transfer_gpa: null,
      transfer_units: '0.00',
      in_progress_units: '0.00',
      credit_units: '0.00',
      pending_credit_units: '0.00',
    });
  });
});

describe('the evaluator’s reviews', () => {
  // One Foothill term: MATH 1A 4 B, ENGL 1A 3 B, HIST 17A 3 A (not in the table).
  // Points 12 + 9 + 12 = 33 over 10 units: GPA 3.30, 10 transferable units, credit 4 + 3 = 7.
  const grids = [
    foothill(
      answer(
        'semester',
        term(
          'fall',
          2023,
          'completed',
          row('MATH', '1A', '4', 'B'),
          row('ENGL', '1A', '3', 'B'),
          row('HIST', '17A', '3', 'A'),
        ),
      ),
    ),
  ];
  const MATH = 'college_coursework:fall-2023:MATH 1A';
  const ENGL = 'college_coursework:fall-2023:ENGL 1A';
  const HIST = 'college_coursework:fall-2023:HIST 17A';
  const usHistory: Requirement = {
    id: 'us_history',
    label: 'US history',
    kind: 'courses',
    codes: ['US-HIST'],
    show_to_applicant: false,
  };
  const requirements = [goldenFour, usHistory];
  const evaluate = (...list: CourseReview[]) =>
    evaluateCredit(input(grids, { reviews: reviews(...list), requirements }));
  const statuses = (evaluation: ReturnType<typeof evaluateCredit>) =>
    evaluation.requirements.map((result) => [result.id, result.status, result.reason]);

  it('without reviews: the entries as they are', () => {
    const evaluation = evaluate();
    expect(evaluation.totals).toMatchObject({
      transfer_gpa: '3.30',
      transfer_units: '10.00',
      credit_units: '7.00',
    });
    expect(statuses(evaluation)).toEqual([
      ['golden', 'met', 'Satisfied: GE-A2 by ENGL 1A, GE-B4 by MATH 1A.'],
      ['us_history', 'not_met', 'Missing US-HIST.'],
    ]);
  });

  it('a verified course changes nothing but the count of reviewed courses', () => {
    const evaluation = evaluate(review(MATH, 'verified'));
    expect(evaluation.totals).toEqual(evaluate().totals);
    expect(evaluation.summary.reviewed).toBe(1);
    expect(evaluation.courses[0]?.review?.status).toBe('verified');
    expect(evaluation.courses[0]?.outcome).toBe('transfers');
  });

  it('a course not on the transcript leaves the totals, the credit and the requirements', () => {
    // Without ENGL 1A: points 12 + 12 = 24 over 7 units = 3.4285… → 3.43; 7 transferable units;
    // credit MATH 150's 4 only; GE-A2 is then missing.
    const evaluation = evaluate(review(ENGL, 'not_on_transcript'));
    expect(evaluation.totals).toEqual({
      transfer_gpa: '3.43',
      transfer_units: '7.00',
      in_progress_units: '0.00',
      credit_units: '4.00',
      pending_credit_units: '0.00',
    });
    expect(outcomes(evaluation)).toEqual([
      ['MATH 1A', 'transfers', 4],
      ['ENGL 1A', 'not_counted', 0],
      ['HIST 17A', 'needs_review', 0],
    ]);
    expect(statuses(evaluation)[0]).toEqual(['golden', 'not_met', 'Missing GE-A2.']);
    // It is still mapped by the table: the share counts mappings, not credit.
    expect(evaluation.summary).toMatchObject({ mapped: 2, reviewed: 1 });
  });

  it('a corrected grade (B → C-) changes the GPA, and a C- misses a C minimum', () => {
    // ENGL 1A at C-: 3 × 1.7 = 5.1. Points 12 + 5.1 + 12 = 29.1 over 10 units = 2.91.
    // C- still transfers (lowest transferable is D-), so units and credit stay.
    const evaluation = evaluate(review(ENGL, 'corrected', { grade: 'C-' }));
    expect(evaluation.totals).toMatchObject({
      transfer_gpa: '2.91',
      transfer_units: '10.00',
      credit_units: '7.00',
    });
    expect(evaluation.courses[1]).toMatchObject({
      grade: 'B',
      effective_grade: 'C-',
      effective_units: 3,
      outcome: 'transfers',
      credit_units: 3,
    });
    expect(statuses(evaluation)[0]).toEqual(['golden', 'not_met', 'Missing GE-A2.']);
  });

  it('corrected units change the transfer units and GPA, not the local credit', () => {
    // MATH 1A at 5 units: points 15 + 9 + 12 = 36 over 11 = 3.2727… → 3.27; 11 transferable.
    // Its local credit is the mapping's: MATH 150 is 4 units whatever the college gave.
    const evaluation = evaluate(review(MATH, 'corrected', { units: 5 }));
    expect(evaluation.totals).toMatchObject({
      transfer_gpa: '3.27',
      transfer_units: '11.00',
      credit_units: '7.00',
    });
    expect(evaluation.courses[0]).toMatchObject({
      units: '4',
      effective_units: 5,
      credit_units: 4,
    });
  });

  it('a mapping by the evaluator turns a course needing review into credit and a met requirement', () => {
    const mapping = {
      kind: 'course' as const,
      local_course: 'HIST 170',
      local_units: 3,
      satisfies: ['US-HIST'],
    };
    const evaluation = evaluate(review(HIST, 'corrected', { mapping }));
    expect(evaluation.courses[2]).toMatchObject({
      mapping: { ...mapping, source: 'evaluator' },
      outcome: 'transfers',
      credit_units: 3,
    });
    // 4 + 3 + 3 = 10 local units; three of three mapped.
    expect(evaluation.totals).toMatchObject({ transfer_gpa: '3.30', credit_units: '10.00' });
    expect(evaluation.summary).toEqual({
      courses: 3,
      mapped: 3,
      needs_review: 0,
      reviewed: 1,
      mapped_share: '1.00',
    });
    expect(statuses(evaluation)[1]).toEqual([
      'us_history',
      'met',
      'Satisfied: US-HIST by HIST 17A.',
    ]);
  });

  it('a mapping corrected to no credit takes the course out of the totals too', () => {
    // Without MATH 1A: 9 + 12 = 21 over 6 = 3.50; 6 transferable; credit ENGL 100's 3.
    const mapping = { kind: 'no_credit' as const, local_course: '', local_units: 0, satisfies: [] };
    const evaluation = evaluate(review(MATH, 'corrected', { mapping }));
    expect(evaluation.totals).toMatchObject({
      transfer_gpa: '3.50',
      transfer_units: '6.00',
      credit_units: '3.00',
    });
    expect(outcomes(evaluation)[0]).toEqual(['MATH 1A', 'no_credit', 0]);
  });

  it('ignores a review of a course that is no longer entered', () => {
    const evaluation = evaluate(
      review('college_coursework:fall-2023:CHEM 1A', 'not_on_transcript'),
      review('college_coursework:spring-2024:MATH 1A', 'corrected', { grade: 'F' }),
    );
    expect(evaluation.totals).toEqual(evaluate().totals);
    expect(evaluation.summary.reviewed).toBe(0);
    expect(evaluation.courses.every((course) => course.review === null)).toBe(true);
  });
});

describe('outcomes', () => {
  it('counts only the latest attempt of a repeated course (the default policy)', () => {
    // MATH 1A: D in Fall 2023, B in Spring 2024 (typed in lower case). Only the B counts:
    // GPA 12 / 4 = 3.00, 4 transferable units, credit MATH 150's 4 once.
    const evaluation = evaluateCredit(
      input([
        foothill(
          answer(
            'semester',
            term('fall', 2023, 'completed', row('MATH', '1A', '4', 'D')),
            term('spring', 2024, 'completed', row('math', '1a', '4', 'B')),
          ),
        ),
      ]),
    );
    expect(evaluation.courses.map((course) => [course.term, course.repeat_excluded])).toEqual([
      ['Fall 2023', true],
      ['Spring 2024', false],
    ]);
    expect(outcomes(evaluation)).toEqual([
      ['MATH 1A', 'not_counted', 0],
      ['math 1a', 'transfers', 4],
    ]);
    expect(evaluation.totals).toMatchObject({
      transfer_gpa: '3.00',
      transfer_units: '4.00',
      credit_units: '4.00',
    });
  });

  it('a course of a term in progress or planned is pending, with its local units apart', () => {
    // Completed: ENGL 1A 3 A. In progress: MATH 1A 4 (MATH 150, 4 local units) and PHYS 4A 5
    // (not in the table). Planned: COMM 1 3 (COMM 110, 3). Pending credit 4 + 3 = 7;
    // in-progress units 4 + 5 + 3 = 12 (the terms' own units, mapped or not).
    const evaluation = evaluateCredit(
      input(
        [
          foothill(
            answer(
              'semester',
              term('fall', 2024, 'completed', row('ENGL', '1A', '3', 'A')),
              term('spring', 2025, 'in_progress', row('MATH', '1A', '4'), row('PHYS', '4A', '5')),
              term('fall', 2025, 'planned', row('COMM', '1', '3')),
            ),
          ),
        ],
        { requirements: [goldenFour] },
      ),
    );
    expect(outcomes(evaluation)).toEqual([
      ['ENGL 1A', 'transfers', 3],
      ['MATH 1A', 'pending', 4],
      ['PHYS 4A', 'needs_review', 0],
      ['COMM 1', 'pending', 3],
    ]);
    expect(evaluation.totals).toEqual({
      transfer_gpa: '4.00',
      transfer_units: '3.00',
      in_progress_units: '12.00',
      credit_units: '3.00',
      pending_credit_units: '7.00',
    });
    expect(evaluation.requirements[0]).toMatchObject({
      status: 'in_progress',
      reason: 'Waiting on GE-B4 (MATH 1A in progress).',
    });
  });

  it('a grade that does not transfer (F) earns no credit but counts in the GPA', () => {
    // MATH 1A F: 4 graded units, 0 points; ENGL 1A A: 3 × 4 = 12. GPA 12 / 7 = 1.714… → 1.71.
    // Transferable units: ENGL's 3 only.
    const evaluation = evaluateCredit(
      input(
        [
          foothill(
            answer(
              'semester',
              term(
                'fall',
                2023,
                'completed',
                row('MATH', '1A', '4', 'F'),
                row('ENGL', '1A', '3', 'A'),
              ),
            ),
          ),
        ],
        { requirements: [goldenFour] },
      ),
    );
    expect(outcomes(evaluation)).toEqual([
      ['MATH 1A', 'not_transferable', 0],
      ['ENGL 1A', 'transfers', 3],
    ]);
    expect(evaluation.totals).toMatchObject({
      transfer_gpa: '1.71',
      transfer_units: '3.00',
      credit_units: '3.00',
    });
    expect(evaluation.requirements[0]).toMatchObject({
      status: 'not_met',
      reason: 'Missing GE-B4.',
    });
  });

  it('a withdrawal counts nothing: not in the GPA, not as credit', () => {
    // MATH 1A W: no points, no units; ENGL 1A A: 3 × 4 = 12 over 3 units. GPA 4.00.
    const evaluation = evaluateCredit(
      input(
        [
          foothill(
            answer(
              'semester',
              term(
                'fall',
                2023,
                'completed',
                row('MATH', '1A', '4', 'W'),
                row('ENGL', '1A', '3', 'A'),
              ),
            ),
          ),
        ],
        { requirements: [goldenFour] },
      ),
    );
    expect(outcomes(evaluation)).toEqual([
      ['MATH 1A', 'not_counted', 0],
      ['ENGL 1A', 'transfers', 3],
    ]);
    expect(evaluation.totals).toMatchObject({ transfer_gpa: '4.00', credit_units: '3.00' });
  });

  it('converts a quarter college’s units at 2/3', () => {
    // 5 + 4 + 3 = 12 quarter units = 8 semester units; 5 × 4 + 4 × 3 + 3 × 2 = 38 quarter-unit
    // points, GPA 38 / 12 = 3.1666… → 3.17 (the factor cancels).
    const evaluation = evaluateCredit(
      input([
        {
          key: 'college_coursework',
          ceeb: null,
          name: 'De Anza College',
          answer: answer(
            'quarter',
            term(
              'fall',
              2023,
              'completed',
              row('MATH', '1A', '5', 'A'),
              row('ENGL', '1A', '4', 'B'),
              row('HIST', '17A', '3', 'C'),
            ),
          ),
        },
      ]),
    );
    expect(evaluation.colleges[0]?.has_table).toBe(false);
    expect(evaluation.totals).toMatchObject({ transfer_gpa: '3.17', transfer_units: '8.00' });
    // Without a table, all of it needs review, whatever Foothill's table says of MATH 1A.
    expect(evaluation.courses.map((course) => course.outcome)).toEqual([
      'needs_review',
      'needs_review',
      'needs_review',
    ]);
  });
});

describe('courseRefs', () => {
  const before = answer(
    'semester',
    term('fall', 2023, 'completed', row('MATH', '1A', '4', 'A'), row('ENGL', '1A', '3', 'B')),
  );

  it('names each course by grid, term and code; blank rows are none', () => {
    const withBlank = answer(
      'semester',
      term(
        'fall',
        2023,
        'completed',
        row('MATH', '1A', '4', 'A'),
        BLANK,
        row('engl', ' 1a', '3', 'B'),
      ),
    );
    expect(courseRefs('college_coursework', withBlank)).toEqual([
      ['college_coursework:fall-2023:MATH 1A', null, 'college_coursework:fall-2023:ENGL 1A'],
    ]);
  });

  it('keeps each name when a term or a course is added before it', () => {
    const after = answer(
      'semester',
      term('spring', 2023, 'completed', row('MATH', '1A', '4', 'D')),
      term(
        'fall',
        2023,
        'completed',
        row('COMM', '1', '3', 'A'),
        row('MATH', '1A', '4', 'A'),
        row('ENGL', '1A', '3', 'B'),
      ),
    );
    const [[math, engl] = []] = courseRefs('college_coursework', before);
    expect(math).toBe('college_coursework:fall-2023:MATH 1A');
    expect(courseRefs('college_coursework', after)).toEqual([
      ['college_coursework:spring-2023:MATH 1A'],
      ['college_coursework:fall-2023:COMM 1', math, engl],
    ]);
  });

  it('numbers a second entry of one code in a term #2', () => {
    const twice = answer(
      'semester',
      term('fall', 2023, 'completed', row('MATH', '1A', '4', 'F'), row('math', '1 A', '4', 'B')),
    );
    expect(courseRefs('college_coursework', twice)).toEqual([
      ['college_coursework:fall-2023:MATH 1A', 'college_coursework:fall-2023:MATH 1A#2'],
    ]);
  });

  it('lets a review follow its course when a course is added before it', () => {
    // Reviewed while ENGL 1A was the second row; now COMM 1 is typed above it.
    const grids = [
      foothill(
        answer(
          'semester',
          term(
            'fall',
            2023,
            'completed',
            row('COMM', '1', '3', 'A'),
            row('MATH', '1A', '4', 'A'),
            row('ENGL', '1A', '3', 'B'),
          ),
        ),
      ),
    ];
    const evaluation = evaluateCredit(
      input(grids, {
        reviews: reviews(review('college_coursework:fall-2023:ENGL 1A', 'not_on_transcript')),
      }),
    );
    expect(outcomes(evaluation)).toEqual([
      ['COMM 1', 'transfers', 3],
      ['MATH 1A', 'transfers', 4],
      ['ENGL 1A', 'not_counted', 0],
    ]);
  });
});
