import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_CASES } from '../test/transcript-cases';
import type { CollegeCoursework, Course, Term } from './coursework';
import { type CourseworkRules, DEFAULT_COURSEWORK_RULES } from './coursework-rules';
import { computeCourseworkTotals } from './coursework-totals';

const rules = DEFAULT_COURSEWORK_RULES;

function graded(grade: string | null, units = 1, subject = 'ENGL'): Course {
  return { subject, number: '1', title: 'Composition', units, grade };
}

function completedTerm(...courses: Course[]): Term {
  return { season: 'fall', year: 2022, status: 'completed', courses };
}

function semesterCollege(...terms: Term[]): CollegeCoursework {
  return { college: 'Foothill', termSystem: 'semester', terms };
}

describe('the default rules, one by one', () => {
  it.each(
    Object.entries({
      'A+': '4.00',
      A: '4.00',
      'A-': '3.70',
      'B+': '3.30',
      B: '3.00',
      'B-': '2.70',
      'C+': '2.30',
      C: '2.00',
      'C-': '1.70',
      'D+': '1.30',
      D: '1.00',
      'D-': '0.70',
      F: '0.00',
    }),
  )('a unit of %s earns %s grade points', (grade, points) => {
    const totals = computeCourseworkTotals([semesterCollege(completedTerm(graded(grade)))], rules);
    expect(totals).toMatchObject({ gpa: points, gradePoints: points, gradedUnits: '1.00' });
    expect(totals.transferableUnits).toBe(grade === 'F' ? '0.00' : '1.00');
  });

  it.each(['P', 'CR', 'S'])('%s earns units but no grade points', (grade) => {
    const totals = computeCourseworkTotals(
      [semesterCollege(completedTerm(graded(grade, 3)))],
      rules,
    );
    expect(totals).toMatchObject({
      gpa: null,
      gradePoints: '0.00',
      gradedUnits: '0.00',
      transferableUnits: '3.00',
    });
  });

  it.each(['NP', 'NC', 'U', 'W', 'I', 'IP', null])(
    '%s earns neither units nor grade points',
    (grade) => {
      const totals = computeCourseworkTotals(
        [semesterCollege(completedTerm(graded(grade, 3)))],
        rules,
      );
      expect(totals).toMatchObject({
        gpa: null,
        gradePoints: '0.00',
        gradedUnits: '0.00',
        transferableUnits: '0.00',
        inProgressUnits: '0.00',
      });
    },
  );

  it('counts the courses of terms in progress and planned apart, as in progress', () => {
    const totals = computeCourseworkTotals(
      [
        semesterCollege(
          completedTerm(graded('B', 3)),
          { season: 'spring', year: 2026, status: 'in_progress', courses: [graded(null, 4)] },
          { season: 'fall', year: 2026, status: 'planned', courses: [graded(null, 2, 'MATH')] },
        ),
      ],
      rules,
    );
    expect(totals).toMatchObject({
      gpa: '3.00',
      transferableUnits: '3.00',
      inProgressUnits: '6.00',
      unitsAttempted: '3.00',
    });
  });

  it('counts a quarter unit as two thirds of a semester unit', () => {
    const quarterCollege: CollegeCoursework = {
      college: 'De Anza',
      termSystem: 'quarter',
      terms: [completedTerm(graded('A', 4))],
    };
    expect(computeCourseworkTotals([quarterCollege], rules)).toMatchObject({
      gpa: '4.00',
      gradePoints: '10.67',
      gradedUnits: '2.67',
      transferableUnits: '2.67',
    });
  });

  it('counts only the latest graded attempt of a repeated course, and says which it left out', () => {
    const colleges = [
      semesterCollege(completedTerm(graded('C', 3), graded('B', 3, 'HIST')), {
        season: 'spring',
        year: 2023,
        status: 'completed',
        courses: [graded('A', 3)],
      }),
    ];
    const totals = computeCourseworkTotals(colleges, rules);
    expect(totals).toMatchObject({ gpa: '3.50', gradedUnits: '6.00', unitsAttempted: '6.00' });
    expect(totals.excludedRepeats).toEqual([
      { college: 0, term: 0, course: 0, countedAttempt: { college: 0, term: 1, course: 0 } },
    ]);
  });

  it('transfers D- and better and passes, not F and no credit', () => {
    const totals = computeCourseworkTotals(
      [
        semesterCollege(
          completedTerm(
            graded('D-', 1, 'A'),
            graded('F', 2, 'B'),
            graded('P', 4, 'C'),
            graded('NP', 8, 'D'),
          ),
        ),
      ],
      rules,
    );
    expect(totals).toMatchObject({
      transferableUnits: '5.00',
      gradedUnits: '3.00',
      unitsAttempted: '15.00',
    });
  });

  it('gives the GPA to two decimals, rounded half up from the exact ratio', () => {
    // (3.3 + 1.7 × 2 + 2 × 3) / 6 = 12.7 / 6 = 2.11666…; (4 × 5 + 3 × 3) / 8 = 3.625 → 3.63
    const gpa = (...courses: Course[]) =>
      computeCourseworkTotals([semesterCollege(completedTerm(...courses))], rules).gpa;
    expect(gpa(graded('B+', 1, 'A'), graded('C-', 2, 'B'), graded('C', 3, 'C'))).toBe('2.12');
    expect(gpa(graded('A', 5, 'A'), graded('B', 3, 'B'))).toBe('3.63');
  });

  it('gives each college its subtotals, which add up to the totals', () => {
    const totals = computeCourseworkTotals(
      [
        semesterCollege(completedTerm(graded('A', 3))),
        { college: 'De Anza', termSystem: 'quarter', terms: [completedTerm(graded('C', 6))] },
      ],
      rules,
    );
    expect(totals.colleges).toEqual([
      {
        college: 'Foothill',
        gpa: '4.00',
        gradePoints: '12.00',
        gradedUnits: '3.00',
        transferableUnits: '3.00',
        inProgressUnits: '0.00',
        unitsAttempted: '3.00',
      },
      {
        college: 'De Anza',
        gpa: '2.00',
        gradePoints: '8.00',
        gradedUnits: '4.00',
        transferableUnits: '4.00',
        inProgressUnits: '0.00',
        unitsAttempted: '4.00',
      },
    ]);
    expect(totals).toMatchObject({ gpa: '2.86', gradePoints: '20.00', gradedUnits: '7.00' });
  });
});

describe('hand-computed transcripts', () => {
  it('are at least 40', () => {
    expect(TRANSCRIPT_CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(TRANSCRIPT_CASES.map((transcript) => transcript.name)).size).toBe(
      TRANSCRIPT_CASES.length,
    );
  });

  it.each(TRANSCRIPT_CASES.map((transcript) => [transcript.name, transcript] as const))(
    '%s',
    (_name, { rules: change, colleges, expected }) => {
      const totals = computeCourseworkTotals(colleges, { ...rules, ...change });
      const { excludedRepeats, ...amounts } = expected;
      expect(totals).toMatchObject(amounts);
      if (excludedRepeats !== undefined)
        expect(totals.excludedRepeats).toHaveLength(excludedRepeats);
    },
  );
});

const KNOWN_GRADES = [
  ...Object.keys(rules.grade_points),
  ...rules.pass_grades,
  ...rules.no_credit_grades,
  ...rules.unfinished_grades,
];

/** Few subjects and numbers, so that repeats are common. */
const courseArbitrary = (units: fc.Arbitrary<number>) =>
  fc.record({
    subject: fc.constantFrom('MATH', 'ENGL', 'math'),
    number: fc.constantFrom('1', '2', ' 1'),
    title: fc.constant('A course'),
    units,
    grade: fc.option(fc.constantFrom(...KNOWN_GRADES), { nil: null }),
  });

const termArbitrary = (units: fc.Arbitrary<number>) =>
  fc.record({
    season: fc.constantFrom('winter', 'spring', 'summer', 'fall' as const),
    year: fc.integer({ min: 2018, max: 2026 }),
    status: fc.constantFrom(
      'completed',
      'completed',
      'completed',
      'in_progress',
      'planned' as const,
    ),
    courses: fc.array(courseArbitrary(units), { maxLength: 6 }),
  });

/** Semester units in halves from 0 to 20, so that 1.5 times as many quarter units stay within 30. */
const semesterUnits = fc.integer({ min: 0, max: 40 }).map((halves) => halves / 2);

const collegesArbitrary = (termSystem: fc.Arbitrary<'quarter' | 'semester'>) =>
  fc.array(
    fc.record({
      college: fc.constantFrom('Foothill', 'De Anza'),
      termSystem,
      terms: fc.array(termArbitrary(semesterUnits), { maxLength: 5 }),
    }),
    { minLength: 1, maxLength: 3 },
  );

const anyColleges = collegesArbitrary(fc.constantFrom('quarter', 'semester' as const));
const policies = fc.constantFrom('latest', 'highest', 'all' as const);

function withCourse(
  colleges: CollegeCoursework[],
  collegeIndex: number,
  termIndex: number,
  position: number,
  added: Course,
): CollegeCoursework[] {
  return colleges.map((college, c) =>
    c !== collegeIndex
      ? college
      : {
          ...college,
          terms: college.terms.map((term, t) =>
            t !== termIndex
              ? term
              : {
                  ...term,
                  courses: [
                    ...term.courses.slice(0, position),
                    added,
                    ...term.courses.slice(position),
                  ],
                },
          ),
        },
  );
}

describe('the totals, for any transcript', () => {
  it('never change when a W is added, under any repeat policy', () => {
    fc.assert(
      fc.property(
        anyColleges,
        policies,
        fc.nat(),
        fc.nat(),
        fc.nat(),
        courseArbitrary(semesterUnits),
        (colleges, repeatPolicy, collegePick, termPick, positionPick, course) => {
          const policyRules: CourseworkRules = { ...rules, repeat_policy: repeatPolicy };
          const collegeIndex = collegePick % colleges.length;
          const terms = colleges[collegeIndex]?.terms ?? [];
          fc.pre(terms.length > 0);
          const termIndex = termPick % terms.length;
          const position = positionPick % ((terms[termIndex]?.courses.length ?? 0) + 1);
          const withdrawn = { ...course, grade: 'W' };
          const before = computeCourseworkTotals(colleges, policyRules);
          const after = computeCourseworkTotals(
            withCourse(colleges, collegeIndex, termIndex, position, withdrawn),
            policyRules,
          );
          expect(after.gpa).toBe(before.gpa);
          expect(after.gradePoints).toBe(before.gradePoints);
          expect(after.transferableUnits).toBe(before.transferableUnits);
          expect(after.excludedRepeats).toHaveLength(before.excludedRepeats.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never lower the GPA under "latest" when the counted attempt is retaken for a better grade', () => {
    const points = rules.grade_points;
    fc.assert(
      fc.property(anyColleges, fc.nat(), fc.nat(), (colleges, pick, gradePick) => {
        const before = computeCourseworkTotals(colleges, rules);
        const excluded = new Set(
          before.excludedRepeats.map(({ college, term, course }) => `${college}/${term}/${course}`),
        );
        const counted = colleges.flatMap((college, c) =>
          college.terms.flatMap((term, t) =>
            term.status !== 'completed'
              ? []
              : term.courses.flatMap((course, k) => {
                  const coursePoints = points[(course.grade ?? '').toUpperCase()];
                  return coursePoints === undefined || excluded.has(`${c}/${t}/${k}`)
                    ? []
                    : [{ collegeIndex: c, course, coursePoints }];
                }),
          ),
        );
        fc.pre(counted.length > 0);
        const retaken = counted[pick % counted.length];
        if (!retaken) return;
        const better = Object.keys(points).filter(
          (grade) => (points[grade] ?? 0) >= retaken.coursePoints,
        );
        const retake: Course = {
          ...retaken.course,
          subject: retaken.course.subject.toLowerCase(),
          grade: better[gradePick % better.length] ?? null,
        };
        const laterTerm: Term = {
          season: 'winter',
          year: 2100,
          status: 'completed',
          courses: [retake],
        };
        const after = computeCourseworkTotals(
          colleges.map((college, c) =>
            c === retaken.collegeIndex
              ? { ...college, terms: [...college.terms, laterTerm] }
              : college,
          ),
          rules,
        );
        expect(Number(after.gpa)).toBeGreaterThanOrEqual(Number(before.gpa));
      }),
      { numRuns: 300 },
    );
  });

  it('are the same for the same work entered in quarter or in semester units', () => {
    fc.assert(
      fc.property(
        collegesArbitrary(fc.constant('semester' as const)),
        policies,
        (colleges, policy) => {
          const policyRules: CourseworkRules = { ...rules, repeat_policy: policy };
          const asQuarters = colleges.map((college) => ({
            ...college,
            termSystem: 'quarter' as const,
            terms: college.terms.map((term) => ({
              ...term,
              courses: term.courses.map((course) => ({ ...course, units: course.units * 1.5 })),
            })),
          }));
          expect(computeCourseworkTotals(asQuarters, policyRules)).toEqual(
            computeCourseworkTotals(colleges, policyRules),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
