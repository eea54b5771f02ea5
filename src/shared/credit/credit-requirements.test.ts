import { describe, expect, it } from 'vitest';
import sampleTenantFile from '../../../tenant/sample-tenant.json';
import { DEFAULT_COURSEWORK_RULES } from '../coursework/coursework-rules';
import { describeConfigIssues, tenantConfigSchema } from '../tenant/tenant-config';
import {
  creditConfigSchema,
  evaluateRequirements,
  type Requirement,
  type RequirementCourse,
  type RequirementFacts,
} from './credit-requirements';

/** Points on the default scale, as the evaluation gives them to requirements. */
const pointsOf = (grade: string) => DEFAULT_COURSEWORK_RULES.grade_points[grade];

function facts(change: Partial<RequirementFacts> = {}): RequirementFacts {
  return {
    transferableUnits: 0,
    inProgressUnits: 0,
    gpa: null,
    courses: [],
    pointsOf,
    answers: {},
    ...change,
  };
}

function course(
  name: string,
  satisfies: string[],
  state: RequirementCourse['state'] = 'completed',
  grade: string | null = 'B',
): RequirementCourse {
  return { name, satisfies, state, points: grade === null ? null : (pointsOf(grade) ?? null) };
}

const minUnits = (units: number): Requirement => ({
  id: 'units',
  label: `${units} units`,
  kind: 'min_units',
  units,
  show_to_applicant: true,
});

const minGpa = (gpa: number): Requirement => ({
  id: 'gpa',
  label: `GPA ${gpa}`,
  kind: 'min_gpa',
  gpa,
  show_to_applicant: false,
});

const codes = (list: string[], min_grade?: string): Requirement => ({
  id: 'codes',
  label: 'Golden Four',
  kind: 'courses',
  codes: list,
  show_to_applicant: true,
  ...(min_grade ? { min_grade } : {}),
});

/** The one result of one requirement. */
function only(requirement: Requirement, given: RequirementFacts) {
  const results = evaluateRequirements([requirement], given);
  expect(results).toHaveLength(1);
  const [result] = results;
  if (!result) throw new Error('no result');
  return { status: result.status, reason: result.reason };
}

describe('min_units', () => {
  it('is met by completed units beyond the minimum', () => {
    // 64.5 >= 60: met; units shown without trailing zeros.
    expect(only(minUnits(60), facts({ transferableUnits: 64.5 }))).toEqual({
      status: 'met',
      reason: '64.5 of 60 transferable units completed.',
    });
  });

  it('is met by exactly the minimum', () => {
    expect(only(minUnits(60), facts({ transferableUnits: 60, inProgressUnits: 12 }))).toEqual({
      status: 'met',
      reason: '60 of 60 transferable units completed.',
    });
  });

  it('is in progress when completed and in-progress units reach it together', () => {
    // 48 + 12 = 60 >= 60, 48 < 60.
    expect(only(minUnits(60), facts({ transferableUnits: 48, inProgressUnits: 12 }))).toEqual({
      status: 'in_progress',
      reason: '48 of 60 transferable units completed; 12 more in progress or planned.',
    });
  });

  it('is not met when even the units in progress fall short, saying by how much', () => {
    // 45.33 + 10 = 55.33; 60 - 55.33 = 4.67 short.
    expect(only(minUnits(60), facts({ transferableUnits: 45.33, inProgressUnits: 10 }))).toEqual({
      status: 'not_met',
      reason: '45.33 of 60 transferable units completed and 10 in progress or planned: 4.67 short.',
    });
  });

  it('is not met without units in progress, the shortfall being all that is missing', () => {
    // 59.99 < 60: 0.01 short, one hundredth is not rounded away.
    expect(only(minUnits(60), facts({ transferableUnits: 59.99 }))).toEqual({
      status: 'not_met',
      reason: '59.99 of 60 transferable units completed: 0.01 short.',
    });
    expect(only(minUnits(30), facts())).toEqual({
      status: 'not_met',
      reason: '0 of 30 transferable units completed: 30 short.',
    });
  });
});

describe('min_gpa', () => {
  it('is met above the minimum', () => {
    expect(only(minGpa(2), facts({ gpa: 3.25 }))).toEqual({
      status: 'met',
      reason: 'Transfer GPA 3.25, at least 2.00 needed.',
    });
  });

  it('is met by exactly the minimum (2.00 with 2.00 needed)', () => {
    expect(only(minGpa(2), facts({ gpa: 2 }))).toEqual({
      status: 'met',
      reason: 'Transfer GPA 2.00, at least 2.00 needed.',
    });
  });

  it('is not met one hundredth below, even with work in progress', () => {
    expect(only(minGpa(2), facts({ gpa: 1.99, inProgressUnits: 15 }))).toEqual({
      status: 'not_met',
      reason: 'Transfer GPA 1.99, below the 2.00 needed.',
    });
  });

  it('without graded units is not met, or in progress when work is in progress', () => {
    expect(only(minGpa(2.4), facts({ transferableUnits: 6 }))).toEqual({
      status: 'not_met',
      reason: 'No graded units; at least 2.40 needed.',
    });
    expect(only(minGpa(2.4), facts({ inProgressUnits: 4 }))).toEqual({
      status: 'in_progress',
      reason: 'No graded units yet; at least 2.40 needed.',
    });
  });
});

describe('courses', () => {
  const goldenFour = ['GE-A1', 'GE-A2', 'GE-A3', 'GE-B4'];

  it('is met when every code is satisfied by a completed course, naming the courses', () => {
    const courses = [
      course('MATH 1A', ['GE-B4']),
      course('COMM 1', ['GE-A1']),
      course('ENGL 1A', ['GE-A2', 'GE-A3']),
    ];
    // Reason in the requirement's order of codes, not the courses'.
    expect(only(codes(goldenFour), facts({ courses }))).toEqual({
      status: 'met',
      reason: 'Satisfied: GE-A1 by COMM 1, GE-A2 by ENGL 1A, GE-A3 by ENGL 1A, GE-B4 by MATH 1A.',
    });
  });

  it('names the first course when a code is satisfied twice', () => {
    const courses = [course('ENGL 1A', ['GE-A2']), course('ENGL 1AH', ['GE-A2'])];
    expect(only(codes(['GE-A2']), facts({ courses }))).toEqual({
      status: 'met',
      reason: 'Satisfied: GE-A2 by ENGL 1A.',
    });
  });

  it('is in progress when a code is satisfied only by a course in progress', () => {
    const courses = [
      course('COMM 1', ['GE-A1']),
      course('ENGL 1A', ['GE-A2']),
      course('PHIL 3', ['GE-A3']),
      course('MATH 1A', ['GE-B4'], 'in_progress', null),
    ];
    expect(only(codes(goldenFour), facts({ courses }))).toEqual({
      status: 'in_progress',
      reason: 'Waiting on GE-B4 (MATH 1A in progress).',
    });
  });

  it('is not met when a code is missing, naming it and what is still in progress', () => {
    const courses = [
      course('COMM 1', ['GE-A1']),
      course('MATH 1A', ['GE-B4'], 'in_progress', null),
    ];
    expect(only(codes(goldenFour), facts({ courses }))).toEqual({
      status: 'not_met',
      reason: 'Missing GE-A2, GE-A3; waiting on GE-B4 (MATH 1A in progress).',
    });
    expect(only(codes(['GE-A1', 'GE-A2']), facts({ courses }))).toEqual({
      status: 'not_met',
      reason: 'Missing GE-A2.',
    });
  });

  it('leaves out courses that are not counted', () => {
    const courses = [course('ENGL 1A', ['GE-A2'], 'not_counted')];
    expect(only(codes(['GE-A2']), facts({ courses }))).toEqual({
      status: 'not_met',
      reason: 'Missing GE-A2.',
    });
  });

  it('with a min_grade of C: a C satisfies, a C- does not, a pass does', () => {
    // C = 2.0 >= 2.0; C- = 1.7 < 2.0; P has no points, and a pass always satisfies.
    expect(
      only(
        codes(['GE-A2'], 'C'),
        facts({ courses: [course('ENGL 1A', ['GE-A2'], 'completed', 'C')] }),
      ).status,
    ).toBe('met');
    expect(
      only(
        codes(['GE-A2'], 'C'),
        facts({ courses: [course('ENGL 1A', ['GE-A2'], 'completed', 'C-')] }),
      ),
    ).toEqual({ status: 'not_met', reason: 'Missing GE-A2.' });
    expect(
      only(
        codes(['GE-A2'], 'C'),
        facts({ courses: [course('ENGL 1A', ['GE-A2'], 'completed', null)] }),
      ),
    ).toEqual({ status: 'met', reason: 'Satisfied: GE-A2 by ENGL 1A.' });
  });

  it('with a min_grade, a C- does not hide a later attempt that satisfies the code', () => {
    const courses = [
      course('ENGL 1A', ['GE-A2'], 'completed', 'C-'),
      course('ENGL 1AH', ['GE-A2'], 'completed', 'B+'),
    ];
    expect(only(codes(['GE-A2'], 'C'), facts({ courses }))).toEqual({
      status: 'met',
      reason: 'Satisfied: GE-A2 by ENGL 1AH.',
    });
  });
});

describe('agreement', () => {
  const golden: Requirement = codes(['GE-A2', 'GE-B4'], 'C');
  const cs: Requirement = {
    id: 'cs',
    label: 'CS preparation',
    kind: 'courses',
    codes: ['CS-1'],
    show_to_applicant: false,
    applies_when: { key: 'applied_major', in: ['205'] },
  };
  const adt: Requirement = {
    id: 'adt',
    label: 'ADT',
    kind: 'agreement',
    requires: ['units', 'gpa', 'codes', 'cs'],
    show_to_applicant: true,
  };
  const requirements = [minUnits(60), minGpa(2), golden, cs, adt];
  const allDone = {
    transferableUnits: 60,
    gpa: 3,
    courses: [course('ENGL 1A', ['GE-A2']), course('MATH 1A', ['GE-B4']), course('CS 1', ['CS-1'])],
  };
  const statuses = (given: RequirementFacts) =>
    evaluateRequirements(requirements, given).map((result) => [result.id, result.status]);
  const adtOf = (given: RequirementFacts) =>
    evaluateRequirements(requirements, given).find((result) => result.id === 'adt');

  it('is met when everything it requires is met', () => {
    const given = facts({ ...allDone, answers: { applied_major: '205' } });
    expect(statuses(given)).toEqual([
      ['units', 'met'],
      ['gpa', 'met'],
      ['codes', 'met'],
      ['cs', 'met'],
      ['adt', 'met'],
    ]);
    expect(adtOf(given)).toEqual({
      id: 'adt',
      label: 'ADT',
      kind: 'agreement',
      status: 'met',
      reason: 'Met: 60 units, GPA 2, Golden Four, CS preparation.',
      show_to_applicant: true,
    });
  });

  it('is in progress when one part is in progress and none is not met', () => {
    // 54 + 6 = 60: units in progress.
    const given = facts({
      ...allDone,
      transferableUnits: 54,
      inProgressUnits: 6,
      answers: { applied_major: '205' },
    });
    expect(adtOf(given)).toMatchObject({ status: 'in_progress', reason: 'In progress: 60 units.' });
  });

  it('is not met when one part is not met, even while another is in progress', () => {
    const given = facts({
      ...allDone,
      transferableUnits: 54,
      inProgressUnits: 6,
      gpa: 1.9,
      answers: { applied_major: '205' },
    });
    expect(adtOf(given)).toMatchObject({ status: 'not_met', reason: 'Not met: GPA 2.' });
  });

  it('leaves out a requirement of another major, which then does not hold the agreement back', () => {
    // Major 101: cs does not apply, so its missing CS-1 is no reason to refuse the agreement.
    const given = facts({
      ...allDone,
      courses: allDone.courses.slice(0, 2),
      answers: { applied_major: '101' },
    });
    expect(statuses(given)).toEqual([
      ['units', 'met'],
      ['gpa', 'met'],
      ['codes', 'met'],
      ['adt', 'met'],
    ]);
    expect(adtOf(given)?.reason).toBe('Met: 60 units, GPA 2, Golden Four.');
    // Without an answer at all, the same.
    expect(statuses(facts({ ...allDone, courses: allDone.courses.slice(0, 2) }))).toHaveLength(4);
    // For major 205 the missing CS-1 is not met, and so is the agreement.
    const cs205 = facts({
      ...allDone,
      courses: allDone.courses.slice(0, 2),
      answers: { applied_major: '205' },
    });
    expect(statuses(cs205).slice(3)).toEqual([
      ['cs', 'not_met'],
      ['adt', 'not_met'],
    ]);
    expect(adtOf(cs205)?.reason).toBe('Not met: CS preparation.');
  });
});

describe('creditConfigSchema', () => {
  const units60 = { id: 'units_60', label: '60 units', kind: 'min_units', units: 60 };

  it('takes requirements in order, with show_to_applicant false by default', () => {
    const parsed = creditConfigSchema.parse({
      requirements: [
        units60,
        { id: 'adt', label: 'ADT', kind: 'agreement', requires: ['units_60'] },
      ],
    });
    expect(parsed.requirements.map((requirement) => requirement.show_to_applicant)).toEqual([
      false,
      false,
    ]);
    expect(creditConfigSchema.parse({})).toEqual({ requirements: [] });
  });

  it('refuses an id used twice', () => {
    const result = creditConfigSchema.safeParse({
      requirements: [units60, { ...units60, label: 'again' }],
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(describeConfigIssues(result.error)).toEqual(['requirements.1.id: is used twice']);
  });

  it('refuses an agreement naming an unknown id, a later one, or itself', () => {
    const result = creditConfigSchema.safeParse({
      requirements: [
        units60,
        {
          id: 'adt',
          label: 'ADT',
          kind: 'agreement',
          requires: ['units_60', 'gpa_2', 'golden', 'adt'],
        },
        { id: 'golden', label: 'Golden Four', kind: 'courses', codes: ['GE-A2'] },
      ],
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(describeConfigIssues(result.error)).toEqual([
      'requirements.1.requires.1: must name a requirement listed before this one (gpa_2 is not)',
      'requirements.1.requires.2: must name a requirement listed before this one (golden is not)',
      'requirements.1.requires.3: must name a requirement listed before this one (adt is not)',
    ]);
  });
});

describe('the tenant file’s credit key', () => {
  /** The sample tenant, which must be valid as it is. */
  const sampleTenant = sampleTenantFile as Record<string, unknown> & {
    credit: { requirements: Array<Record<string, unknown>> };
  };

  it('takes the sample tenant’s requirements', () => {
    const parsed = tenantConfigSchema.parse(sampleTenant);
    expect(parsed.credit.requirements.map((requirement) => requirement.id)).toEqual([
      'units_60',
      'gpa_2',
      'golden_four',
      'cs_preparation',
      'adt',
    ]);
  });

  it('refuses a min_grade that is not on the grade scale', () => {
    const requirements = sampleTenant.credit.requirements.map((requirement) =>
      requirement.id === 'golden_four' ? { ...requirement, min_grade: 'P' } : requirement,
    );
    const result = tenantConfigSchema.safeParse({ ...sampleTenant, credit: { requirements } });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(describeConfigIssues(result.error)).toEqual([
      'credit.requirements.2.min_grade: P is not a grade of coursework.grade_points',
    ]);
  });

  it('checks min_grade against the tenant’s own scale', () => {
    // A scale without minus grades: C- is not on it.
    const requirements = sampleTenant.credit.requirements.map((requirement) =>
      requirement.id === 'golden_four' ? { ...requirement, min_grade: 'C-' } : requirement,
    );
    const coursework = {
      grade_points: { A: 4, B: 3, C: 2, D: 1, F: 0 },
      lowest_transferable_grade: 'D',
    };
    expect(
      tenantConfigSchema.safeParse({ ...sampleTenant, credit: { requirements } }).success,
    ).toBe(true);
    const result = tenantConfigSchema.safeParse({
      ...sampleTenant,
      coursework,
      credit: { requirements },
    });
    expect(result.success).toBe(false);
  });
});
