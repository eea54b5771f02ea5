import { describe, expect, it } from 'vitest';
import type { CollegeCoursework, Course, Term } from './coursework';
import { courseworkRulesSchema, DEFAULT_COURSEWORK_RULES } from './coursework-rules';
import {
  courseworkProblems,
  gradeValidity,
  isFutureTerm,
  unitsValidity,
} from './coursework-validation';

const rules = DEFAULT_COURSEWORK_RULES;
const course = (grade: string | null, units = 3): Course => ({
  subject: 'MATH',
  number: '1',
  title: 'Calculus',
  units,
  grade,
});
const term = (season: Term['season'], year: number, ...courses: Course[]): Term => ({
  season,
  year,
  status: 'completed',
  courses,
});
const college = (...terms: Term[]): CollegeCoursework => ({
  college: 'Foothill',
  termSystem: 'semester',
  terms,
});

describe('a grade', () => {
  it('is fine on the scale, as a pass, no credit or unfinished, or not yet given', () => {
    for (const grade of ['A', 'b+', ' d- ', 'F', 'P', 'CR', 'NP', 'U', 'W', 'I', 'IP', null, ''])
      expect(gradeValidity(grade, rules), String(grade)).toBeNull();
  });

  it('off the scale asks for one on it', () => {
    for (const grade of ['E', 'A++', '4.0', 'pass'])
      expect(gradeValidity(grade, rules)).toBe('Enter a grade from the scale, such as A, B+ or P.');
  });

  it('off a tenant’s own scale names grades of that scale', () => {
    const wisconsin = courseworkRulesSchema.parse({
      grade_points: { A: 4, AB: 3.5, B: 3, BC: 2.5, C: 2, D: 1, F: 0 },
      lowest_transferable_grade: 'C',
      pass_grades: ['S'],
      no_credit_grades: ['U'],
    });
    expect(gradeValidity('B+', wisconsin)).toBe(
      'Enter a grade from the scale, such as A, AB or B.',
    );
    expect(gradeValidity('AB', wisconsin)).toBeNull();
  });
});

describe('units', () => {
  it('are from 0 to 30', () => {
    for (const units of [0, 0.5, 3, 4.5, 30]) expect(unitsValidity(units)).toBeNull();
    for (const units of [-1, 30.5, 31, Number.NaN, Number.POSITIVE_INFINITY])
      expect(unitsValidity(units)).toBe('Enter units from 0 to 30.');
  });
});

describe('a term in the future', () => {
  it('is one that cannot have begun by the given day', () => {
    expect(isFutureTerm({ season: 'fall', year: 2026 }, '2026-11-28')).toBe(false);
    expect(isFutureTerm({ season: 'winter', year: 2027 }, '2026-11-28')).toBe(true);
    expect(isFutureTerm({ season: 'spring', year: 2027 }, '2027-01-01')).toBe(false);
    expect(isFutureTerm({ season: 'summer', year: 2027 }, '2027-04-30')).toBe(true);
    expect(isFutureTerm({ season: 'summer', year: 2027 }, '2027-05-01')).toBe(false);
    expect(isFutureTerm({ season: 'fall', year: 2027 }, '2027-07-31')).toBe(true);
    expect(isFutureTerm({ season: 'fall', year: 2027 }, '2027-08-01')).toBe(false);
    expect(() => isFutureTerm({ season: 'fall', year: 2027 }, 'today')).toThrow(RangeError);
  });
});

describe('the coursework messages', () => {
  const today = '2026-11-28';

  it('are none for coursework that is fine', () => {
    expect(
      courseworkProblems(
        [college(term('fall', 2025, course('A'), course('W')), term('spring', 2027, course(null)))],
        rules,
        today,
      ),
    ).toEqual([]);
  });

  it('name the course and field of a bad grade, bad units and a grade on a future term', () => {
    const problems = courseworkProblems(
      [
        college(term('fall', 2025, course('Q'), course('B', 31)), {
          ...term('spring', 2027, course('A'), course(null), course('IP')),
          status: 'planned',
        }),
      ],
      rules,
      today,
    );
    expect(problems).toEqual([
      {
        at: { college: 0, term: 0, course: 0 },
        field: 'grade',
        message: 'Enter a grade from the scale, such as A, B+ or P.',
      },
      {
        at: { college: 0, term: 0, course: 1 },
        field: 'units',
        message: 'Enter units from 0 to 30.',
      },
      {
        at: { college: 0, term: 1, course: 0 },
        field: 'grade',
        message: 'Spring 2027 has not started yet, so its courses cannot have a grade.',
      },
      {
        at: { college: 0, term: 1, course: 2 },
        field: 'grade',
        message: 'Spring 2027 has not started yet, so its courses cannot have a grade.',
      },
    ]);
  });

  it('refuse more than 200 courses and more than 30 terms in all colleges together', () => {
    const terms = Array.from({ length: 16 }, (_, index) =>
      term('fall', 2000 + index, ...Array.from({ length: 7 }, () => course('A'))),
    );
    // 2 × 16 = 32 terms of 7 courses: 224 courses.
    const problems = courseworkProblems([college(...terms), college(...terms)], rules, today);
    expect(problems).toEqual([
      { at: null, field: 'courses', message: 'You can enter at most 200 courses in all.' },
      { at: null, field: 'terms', message: 'You can enter at most 30 terms in all.' },
    ]);
    // 14 + 14 + 2 = 30 terms, 28 × 7 + 2 × 2 = 200 courses: at the limits, not over them.
    const atTheLimits = courseworkProblems(
      [
        college(...terms.slice(0, 14)),
        college(...terms.slice(0, 14)),
        college(
          term('fall', 2020, course('A'), course('B')),
          term('fall', 2021, course('A'), course('B')),
        ),
      ],
      rules,
      today,
    );
    expect(atTheLimits).toEqual([]);
  });
});
