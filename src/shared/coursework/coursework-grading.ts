import { normalizeGrade } from './coursework';
import { type Fraction, fraction, fromDecimal } from './fraction';

/*
 * How a university turns a transcript into a transfer GPA and units (tenant file key
 * `coursework`). Every rule has a default, so a tenant writes only the ones it changes; a rule set
 * that contradicts itself is refused at start-up by name (checkCourseworkRules). The tenant file's
 * schema is in coursework-rules.ts: the form reads these rules without loading zod (decision 060).
 */

export const REPEAT_POLICIES = ['latest', 'highest', 'all'] as const;
export type RepeatPolicy = (typeof REPEAT_POLICIES)[number];

export interface CourseworkRules {
  grade_points: Record<string, number>;
  lowest_transferable_grade: string;
  repeat_policy: RepeatPolicy;
  pass_grades: string[];
  no_credit_grades: string[];
  unfinished_grades: string[];
  quarter_to_semester: number | string;
}

/** The rules with no tenant override: issue 27's words. */
export const DEFAULT_COURSEWORK_RULES: Readonly<CourseworkRules> = {
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
};

export const FRACTION_TEXT = /^(\d+)\/(\d+)$/;

/** The grade lists in the order a grade is looked up in; a grade may be in one of them only. */
const GRADE_LISTS = [
  'grade_points',
  'pass_grades',
  'no_credit_grades',
  'unfinished_grades',
] as const;
type GradeList = (typeof GRADE_LISTS)[number];

export interface CourseworkRuleProblem {
  /** Where in `coursework` the broken rule is: `['grade_points', 'F']`. */
  path: (string | number)[];
  message: string;
}

/** The quarter-to-semester factor as a fraction; null when it is not one (`2/0`). */
function conversionFactorOf(value: number | string): Fraction | null {
  if (typeof value === 'number') return fromDecimal(value);
  const match = FRACTION_TEXT.exec(value);
  if (!match || BigInt(match[2] ?? '0') === 0n) return null;
  return fraction(BigInt(match[1] ?? '0'), BigInt(match[2] ?? '1'));
}

function gradesOf(rules: CourseworkRules, list: GradeList): string[] {
  return list === 'grade_points' ? Object.keys(rules.grade_points) : rules[list];
}

/**
 * What is wrong with a rule set, each problem naming its rule, so a tenant file that would count
 * grades in two ways, or none, is refused rather than giving applicants a wrong GPA.
 */
export function checkCourseworkRules(rules: CourseworkRules): CourseworkRuleProblem[] {
  const problems: CourseworkRuleProblem[] = [];
  const scale = Object.entries(rules.grade_points);
  if (scale.length === 0)
    problems.push({ path: ['grade_points'], message: 'must name at least one grade' });
  if (scale.length > 40)
    problems.push({ path: ['grade_points'], message: 'must name at most 40 grades' });
  for (const [grade, points] of scale) {
    if (points < 0)
      problems.push({
        path: ['grade_points', grade],
        message: `must not be negative (it is ${points})`,
      });
  }
  if (!(rules.lowest_transferable_grade in rules.grade_points)) {
    problems.push({
      path: ['lowest_transferable_grade'],
      message: `${rules.lowest_transferable_grade} is not a grade of grade_points`,
    });
  }
  const listOfGrade = new Map<string, GradeList>();
  for (const list of GRADE_LISTS) {
    for (const [index, grade] of gradesOf(rules, list).entries()) {
      const earlier = listOfGrade.get(grade);
      const path = list === 'grade_points' ? [list, grade] : [list, index];
      if (earlier === list) problems.push({ path, message: `${grade} is listed twice` });
      else if (earlier)
        problems.push({
          path,
          message: `${grade} is also in ${earlier}: a grade must be in one list only`,
        });
      else listOfGrade.set(grade, list);
    }
  }
  const factor = conversionFactorOf(rules.quarter_to_semester);
  if (!factor) {
    problems.push({
      path: ['quarter_to_semester'],
      message: 'must be a number above 0 or a fraction such as 2/3, not one over 0',
    });
  } else if (factor.numerator <= 0n) {
    problems.push({
      path: ['quarter_to_semester'],
      message: `must be above 0 (it is ${rules.quarter_to_semester})`,
    });
  }
  return problems;
}

/** Semester units per unit of a quarter college, exactly (2/3, not 0.6666…). */
export function quarterToSemesterFactor(rules: CourseworkRules): Fraction {
  const factor = conversionFactorOf(rules.quarter_to_semester);
  if (!factor || factor.numerator <= 0n)
    throw new RangeError(
      `quarter_to_semester is not a factor above 0: ${rules.quarter_to_semester}`,
    );
  return factor;
}

/** What a grade earns under the rules. */
export type GradeEffect =
  | { kind: 'points'; points: Fraction; transferable: boolean }
  | { kind: 'pass' }
  | { kind: 'no_credit' }
  | { kind: 'unfinished' }
  | { kind: 'missing' }
  | { kind: 'unknown' };

export function gradeEffect(grade: string | null, rules: CourseworkRules): GradeEffect {
  const name = normalizeGrade(grade);
  if (name === '') return { kind: 'missing' };
  const points = Object.hasOwn(rules.grade_points, name) ? rules.grade_points[name] : undefined;
  if (points !== undefined) {
    const exact = fromDecimal(points) ?? fraction(0n);
    const lowest = rules.grade_points[rules.lowest_transferable_grade] ?? Number.POSITIVE_INFINITY;
    return { kind: 'points', points: exact, transferable: points >= lowest };
  }
  if (rules.pass_grades.includes(name)) return { kind: 'pass' };
  if (rules.no_credit_grades.includes(name)) return { kind: 'no_credit' };
  if (rules.unfinished_grades.includes(name)) return { kind: 'unfinished' };
  return { kind: 'unknown' };
}

/**
 * A finished result the repeat rule chooses among: a grade of the scale, a pass or a no-credit
 * grade. A withdrawal, an incomplete, a course in progress, a missing or unknown grade says
 * nothing of how the course went, so it neither counts nor displaces an earlier result.
 */
export function isGradedAttempt(effect: GradeEffect): boolean {
  return effect.kind === 'points' || effect.kind === 'pass' || effect.kind === 'no_credit';
}
