import { describe, expect, it } from 'vitest';
import { MAX_COURSES, MAX_TERMS } from './coursework';
import {
  COURSEWORK_ANSWER_MESSAGES,
  type CourseEntry,
  type CourseworkAnswer,
  collegeCourseworkOf,
  courseworkCounts,
  courseworkEntryProblems,
  EMPTY_COURSE,
  parseCourseworkAnswer,
  serializeCourseworkAnswer,
  unitsOf,
} from './coursework-answer';
import { DEFAULT_COURSEWORK_RULES } from './coursework-rules';
import {
  TOO_MANY_COURSES_MESSAGE,
  TOO_MANY_TERMS_MESSAGE,
  UNITS_MESSAGE,
} from './coursework-validation';

const course = (subject: string, number: string, units: string, grade: string): CourseEntry => ({
  subject,
  number,
  title: '',
  units,
  grade,
});

const grid = (...courses: CourseEntry[]): CourseworkAnswer => ({
  system: 'semester',
  terms: [{ season: 'fall', year: 2024, status: 'completed', courses }],
});

const check = (answer: CourseworkAnswer, stage: 'save' | 'submit' = 'save') =>
  courseworkEntryProblems(answer, { rules: DEFAULT_COURSEWORK_RULES, today: '2026-11-28', stage });

describe('a coursework answer', () => {
  it('reads back what it wrote, and nothing that is not a grid', () => {
    const answer = grid(course('MATH', '1A', '4', 'A'));
    expect(parseCourseworkAnswer(serializeCourseworkAnswer(answer))).toEqual({ ok: true, answer });
    expect(parseCourseworkAnswer('')).toEqual({ ok: true, answer: null });
    for (const text of ['{', 'null', '[]', '{"system":"semester"}', '{"system":"x","terms":[]}']) {
      const parsed = parseCourseworkAnswer(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/^Send the coursework as the grid writes it/);
    }
    const tooLong = grid({ ...course('MATH', '1A', '4', 'A'), title: 'x'.repeat(101) });
    expect(parseCourseworkAnswer(JSON.stringify(tooLong)).ok).toBe(false);
    const lone = grid(course('MATH\uD800', '1A', '4', 'A'));
    expect(parseCourseworkAnswer(JSON.stringify(lone)).ok).toBe(false);
  });

  it('reads units as typed numbers only', () => {
    expect([unitsOf('4'), unitsOf(' 4.5 '), unitsOf('.5'), unitsOf('10.')]).toEqual([
      4, 4.5, 0.5, 10,
    ]);
    for (const text of ['', 'four', '4,5', '-1', '1e2', '4.5.1']) expect(unitsOf(text)).toBeNaN();
  });

  it('names the row of each problem, and leaves blank rows alone', () => {
    const problems = check(
      grid(course('MATH', '1A', '31', 'Q'), EMPTY_COURSE, course('ENGL', '1', 'abc', 'b+')),
    );
    expect(problems.map((problem) => problem.named)).toEqual([
      `Fall 2024, course 1 (MATH 1A): ${UNITS_MESSAGE}`,
      'Fall 2024, course 1 (MATH 1A): Enter a grade from the scale, such as A, B+ or P.',
      `Fall 2024, course 3 (ENGL 1): ${UNITS_MESSAGE}`,
    ]);
    expect(problems[0]).toMatchObject({
      term: 0,
      course: 0,
      cell: 'units',
      message: UNITS_MESSAGE,
    });
  });

  it('asks at submit for what a finished course needs', () => {
    const answer: CourseworkAnswer = {
      system: 'quarter',
      terms: [
        { season: 'fall', year: 2024, status: 'completed', courses: [course('', '', '', '')] },
        { season: 'winter', year: 2025, status: 'completed', courses: [course('BIO', '', '', '')] },
        {
          season: 'spring',
          year: 2025,
          status: 'in_progress',
          courses: [course('BIO', '2', '4', '')],
        },
      ],
    };
    expect(check(answer, 'save')).toEqual([]);
    expect(check(answer, 'submit').map((problem) => problem.named)).toEqual([
      `Winter 2025, course 1 (BIO): ${COURSEWORK_ANSWER_MESSAGES.number}`,
      `Winter 2025, course 1 (BIO): ${COURSEWORK_ANSWER_MESSAGES.units}`,
      `Winter 2025, course 1 (BIO): ${COURSEWORK_ANSWER_MESSAGES.grade}`,
    ]);
  });

  it('refuses a grade for a term not started, a year too far ahead and a term entered twice', () => {
    const answer: CourseworkAnswer = {
      system: 'semester',
      terms: [
        {
          season: 'spring',
          year: 2027,
          status: 'planned',
          courses: [course('ART', '1', '3', 'A')],
        },
        { season: 'fall', year: 2032, status: 'planned', courses: [] },
        { season: 'spring', year: 2027, status: 'planned', courses: [course('ART', '2', '3', '')] },
      ],
    };
    expect(check(answer).map((problem) => problem.named)).toEqual([
      'Spring 2027, course 1 (ART 1): Spring 2027 has not started yet, so its courses cannot have a grade.',
      'Fall 2032: Enter a year from 1950 to 2031.',
      'Spring 2027: Spring 2027 is entered twice for this college.',
    ]);
  });

  it('counts the limits across colleges, naming the first row or term beyond them', () => {
    const many = grid(...Array.from({ length: 3 }, (_, i) => course('ART', String(i), '1', 'P')));
    const problems = courseworkEntryProblems(many, {
      rules: DEFAULT_COURSEWORK_RULES,
      today: '2026-11-28',
      stage: 'save',
      elsewhere: { courses: MAX_COURSES - 1, terms: MAX_TERMS },
    });
    expect(problems.map((problem) => problem.named)).toEqual([
      `Fall 2024: ${TOO_MANY_TERMS_MESSAGE}`,
      `Fall 2024, course 2 (ART 1): ${TOO_MANY_COURSES_MESSAGE}`,
    ]);
    expect(courseworkCounts(grid(course('A', '1', '1', 'A'), EMPTY_COURSE))).toEqual({
      courses: 1,
      terms: 1,
    });
  });

  it('gives the totals a course for every row, so positions in the totals are the grid rows', () => {
    const college = collegeCourseworkOf(
      'Broward',
      grid(EMPTY_COURSE, course(' math ', '1A', '4', 'a')),
    );
    expect(college.terms[0]?.courses).toEqual([
      { subject: '', number: '', title: '', units: Number.NaN, grade: null },
      { subject: 'math', number: '1A', title: '', units: 4, grade: 'a' },
    ]);
  });
});
