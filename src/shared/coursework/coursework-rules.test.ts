import { describe, expect, it } from 'vitest';
import {
  type CourseworkRules,
  checkCourseworkRules,
  courseworkRulesSchema,
  DEFAULT_COURSEWORK_RULES,
  gradeEffect,
  isGradedAttempt,
  quarterToSemesterFactor,
} from './coursework-rules';
import { fraction } from './fraction';

const rulesWith = (change: Partial<CourseworkRules>): CourseworkRules => ({
  ...DEFAULT_COURSEWORK_RULES,
  ...change,
});

describe('the default coursework rules', () => {
  it('are issue 27’s, word for word', () => {
    expect(DEFAULT_COURSEWORK_RULES).toEqual({
      grade_points: {
        'A+': 4.0,
        A: 4.0,
        'A-': 3.7,
        'B+': 3.3,
        B: 3.0,
        'B-': 2.7,
        'C+': 2.3,
        C: 2.0,
        'C-': 1.7,
        'D+': 1.3,
        D: 1.0,
        'D-': 0.7,
        F: 0.0,
      },
      lowest_transferable_grade: 'D-',
      repeat_policy: 'latest',
      pass_grades: ['P', 'CR', 'S'],
      no_credit_grades: ['NP', 'NC', 'U'],
      unfinished_grades: ['W', 'I', 'IP'],
      quarter_to_semester: '2/3',
    });
    expect(checkCourseworkRules(DEFAULT_COURSEWORK_RULES)).toEqual([]);
  });

  it('are what an absent or empty tenant section parses to', () => {
    const parsed: CourseworkRules = courseworkRulesSchema.parse({});
    expect(parsed).toEqual(DEFAULT_COURSEWORK_RULES);
    // Defaults are copies: a parsed rule set changed in place leaves the next parse alone.
    parsed.pass_grades.push('X');
    expect(courseworkRulesSchema.parse({}).pass_grades).toEqual(['P', 'CR', 'S']);
  });

  it('give P, CR and S units without points, and NP, NC, U, W, I, IP or no grade neither', () => {
    for (const grade of ['P', 'CR', 'S'])
      expect(gradeEffect(grade, DEFAULT_COURSEWORK_RULES)).toEqual({ kind: 'pass' });
    for (const grade of ['NP', 'NC', 'U'])
      expect(gradeEffect(grade, DEFAULT_COURSEWORK_RULES)).toEqual({ kind: 'no_credit' });
    for (const grade of ['W', 'I', 'IP'])
      expect(gradeEffect(grade, DEFAULT_COURSEWORK_RULES)).toEqual({ kind: 'unfinished' });
    expect(gradeEffect(null, DEFAULT_COURSEWORK_RULES)).toEqual({ kind: 'missing' });
    expect(gradeEffect('  ', DEFAULT_COURSEWORK_RULES)).toEqual({ kind: 'missing' });
    expect(gradeEffect('Z', DEFAULT_COURSEWORK_RULES)).toEqual({ kind: 'unknown' });
  });

  it('transfer D- and better, not F, and read grades without regard to case or spaces', () => {
    expect(gradeEffect('D-', DEFAULT_COURSEWORK_RULES)).toEqual({
      kind: 'points',
      points: fraction(7n, 10n),
      transferable: true,
    });
    expect(gradeEffect(' b + ', DEFAULT_COURSEWORK_RULES)).toEqual({
      kind: 'points',
      points: fraction(33n, 10n),
      transferable: true,
    });
    expect(gradeEffect('F', DEFAULT_COURSEWORK_RULES)).toEqual({
      kind: 'points',
      points: fraction(0n),
      transferable: false,
    });
    // Not a key the scale inherits from Object.prototype.
    expect(gradeEffect('constructor', DEFAULT_COURSEWORK_RULES).kind).toBe('unknown');
  });

  it('count a quarter unit as two thirds of a semester unit, exactly', () => {
    expect(quarterToSemesterFactor(DEFAULT_COURSEWORK_RULES)).toEqual(fraction(2n, 3n));
    expect(quarterToSemesterFactor(rulesWith({ quarter_to_semester: 0.667 }))).toEqual(
      fraction(667n, 1000n),
    );
  });

  it('make a finished result a graded attempt, and a withdrawal, incomplete or blank not', () => {
    const graded = (grade: string | null) =>
      isGradedAttempt(gradeEffect(grade, DEFAULT_COURSEWORK_RULES));
    expect(['A', 'F', 'P', 'NP', 'U'].map(graded)).toEqual([true, true, true, true, true]);
    expect(['W', 'I', 'IP', null, 'Z'].map(graded)).toEqual([false, false, false, false, false]);
  });
});

describe('a tenant’s coursework rules', () => {
  it('keep the defaults for the rules the tenant leaves out', () => {
    const parsed = courseworkRulesSchema.parse({
      repeat_policy: 'highest',
      pass_grades: ['P', 'CR', 'S', 'SP'],
    });
    expect(parsed).toEqual({
      ...DEFAULT_COURSEWORK_RULES,
      repeat_policy: 'highest',
      pass_grades: ['P', 'CR', 'S', 'SP'],
    });
  });

  it('take another scale, lowest transferable grade and conversion factor', () => {
    const parsed = courseworkRulesSchema.parse({
      grade_points: { A: 4, AB: 3.5, B: 3, BC: 2.5, C: 2, D: 1, F: 0 },
      lowest_transferable_grade: 'C',
      quarter_to_semester: 0.67,
    });
    expect(gradeEffect('D', parsed)).toMatchObject({ kind: 'points', transferable: false });
    expect(gradeEffect('BC', parsed)).toMatchObject({ kind: 'points', transferable: true });
    expect(gradeEffect('B+', parsed)).toEqual({ kind: 'unknown' });
  });

  it.each<[string, Partial<CourseworkRules>, { path: (string | number)[]; message: string }[]]>([
    [
      'a lowest transferable grade not on the scale',
      { lowest_transferable_grade: 'E' },
      [{ path: ['lowest_transferable_grade'], message: 'E is not a grade of grade_points' }],
    ],
    [
      'a grade both on the scale and a pass',
      { pass_grades: ['P', 'C'] },
      [
        {
          path: ['pass_grades', 1],
          message: 'C is also in grade_points: a grade must be in one list only',
        },
      ],
    ],
    [
      'a grade both a pass and no credit',
      { no_credit_grades: ['NP', 'CR'] },
      [
        {
          path: ['no_credit_grades', 1],
          message: 'CR is also in pass_grades: a grade must be in one list only',
        },
      ],
    ],
    [
      'a grade both on the scale and unfinished',
      { unfinished_grades: ['W', 'F'] },
      [
        {
          path: ['unfinished_grades', 1],
          message: 'F is also in grade_points: a grade must be in one list only',
        },
      ],
    ],
    [
      'a grade listed twice',
      { pass_grades: ['P', 'P'] },
      [{ path: ['pass_grades', 1], message: 'P is listed twice' }],
    ],
    [
      'negative points',
      { grade_points: { ...DEFAULT_COURSEWORK_RULES.grade_points, F: -1 } },
      [{ path: ['grade_points', 'F'], message: 'must not be negative (it is -1)' }],
    ],
    [
      'an empty scale',
      { grade_points: {}, lowest_transferable_grade: 'D-' },
      [
        { path: ['grade_points'], message: 'must name at least one grade' },
        { path: ['lowest_transferable_grade'], message: 'D- is not a grade of grade_points' },
      ],
    ],
    [
      'a conversion factor of 0',
      { quarter_to_semester: 0 },
      [{ path: ['quarter_to_semester'], message: 'must be above 0 (it is 0)' }],
    ],
    [
      'a negative conversion factor',
      { quarter_to_semester: -0.5 },
      [{ path: ['quarter_to_semester'], message: 'must be above 0 (it is -0.5)' }],
    ],
    [
      'a conversion fraction over 0',
      { quarter_to_semester: '2/0' },
      [
        {
          path: ['quarter_to_semester'],
          message: 'must be a number above 0 or a fraction such as 2/3, not one over 0',
        },
      ],
    ],
    [
      'a conversion fraction of 0',
      { quarter_to_semester: '0/3' },
      [{ path: ['quarter_to_semester'], message: 'must be above 0 (it is 0/3)' }],
    ],
  ])('are refused for %s, naming the rule', (_case, change, problems) => {
    const rules = rulesWith(change);
    expect(checkCourseworkRules(rules)).toEqual(problems);
    const result = courseworkRulesSchema.safeParse(rules);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map(({ path, message }) => ({ path, message }))).toEqual(problems);
  });

  it('are refused when a grade or the factor is not written as one', () => {
    const paths = (input: unknown) =>
      courseworkRulesSchema.safeParse(input).error?.issues.map((issue) => issue.path.join('.'));
    expect(paths({ grade_points: { 'b+': 3.3 } })).toContain('grade_points.b+');
    expect(paths({ pass_grades: ['pass grade'] })).toEqual(['pass_grades.0']);
    expect(paths({ quarter_to_semester: 'two thirds' })).toEqual(['quarter_to_semester']);
    expect(paths({ repeat_policy: 'first' })).toEqual(['repeat_policy']);
    expect(paths({ repeat_policy: 'latest', extra: true })).toEqual(['']);
  });
});
