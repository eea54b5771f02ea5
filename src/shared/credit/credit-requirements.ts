import { z } from 'zod';
import { REQUIREMENT_CODE } from './equivalency';

/*
 * Eligibility and guarantees as data (tenant file key `credit`): what the office requires of a
 * transfer applicant, each requirement evaluated for every application by evaluateRequirements.
 * Four kinds cover what offices write down: a minimum of transferable units, a minimum transfer
 * GPA, named requirements satisfied by mapped courses (California's "Golden Four", a major's
 * prerequisites), and agreements (an Associate Degree for Transfer, a 2+2 plan) that hold when
 * the requirements they name hold.
 */

export const REQUIREMENT_ID = /^[a-z0-9_-]{1,40}$/;
export const REQUIREMENT_STATUSES = ['met', 'in_progress', 'not_met'] as const;
export type RequirementStatus = (typeof REQUIREMENT_STATUSES)[number];

export const REQUIREMENT_STATUS_LABELS: Record<RequirementStatus, string> = {
  met: 'Met',
  in_progress: 'In progress',
  not_met: 'Not met',
};

const common = {
  id: z.string().regex(REQUIREMENT_ID, 'must be 1 to 40 of a-z, 0-9, _ and -'),
  label: z.string().trim().min(1, 'is required').max(120),
  /** Whether the applicant's status page shows this requirement and its status. */
  show_to_applicant: z.boolean().default(false),
  /**
   * Only for applications whose answer `key` is one of `in` (a major's prerequisites apply to
   * that major's applicants); other applications do not have the requirement at all.
   */
  applies_when: z
    .strictObject({
      key: z.string().regex(/^[a-z][a-z0-9_]{0,79}$/, 'must be an answer key'),
      in: z.array(z.string().min(1).max(200)).min(1).max(100),
    })
    .optional(),
};

const decimal = (max: number) => z.number().min(0).max(max);

export const requirementSchema = z.discriminatedUnion('kind', [
  z.strictObject({ ...common, kind: z.literal('min_units'), units: decimal(500) }),
  z.strictObject({ ...common, kind: z.literal('min_gpa'), gpa: decimal(10) }),
  z.strictObject({
    ...common,
    kind: z.literal('courses'),
    /** Every code must be satisfied by a course mapped to a local course that satisfies it. */
    codes: z
      .array(z.string().regex(REQUIREMENT_CODE, 'must be a requirement code such as GE-A2'))
      .min(1)
      .max(40),
    /** The lowest grade that satisfies a code (on the tenant's scale); a pass always does. */
    min_grade: z.string().min(1).max(6).optional(),
  }),
  z.strictObject({
    ...common,
    kind: z.literal('agreement'),
    /** Ids of the requirements the agreement rests on, all of which must hold. */
    requires: z.array(z.string().regex(REQUIREMENT_ID)).min(1).max(20),
  }),
]);
export type Requirement = z.infer<typeof requirementSchema>;

export const creditConfigSchema = z
  .strictObject({
    requirements: z.array(requirementSchema).max(50).default([]),
  })
  .superRefine((config, context) => {
    const ids = new Map<string, number>();
    for (const [index, requirement] of config.requirements.entries()) {
      if (ids.has(requirement.id))
        context.addIssue({
          code: 'custom',
          path: ['requirements', index, 'id'],
          message: 'is used twice',
        });
      ids.set(requirement.id, index);
    }
    for (const [index, requirement] of config.requirements.entries()) {
      if (requirement.kind !== 'agreement') continue;
      for (const [at, id] of requirement.requires.entries()) {
        const target = ids.get(id);
        // An agreement rests on requirements listed before it, so there are no cycles to untie.
        if (target === undefined || target >= index)
          context.addIssue({
            code: 'custom',
            path: ['requirements', index, 'requires', at],
            message: `must name a requirement listed before this one (${id} is not)`,
          });
      }
    }
  });
export type CreditConfig = z.infer<typeof creditConfigSchema>;

/** A course as requirements see it, after the evaluator's corrections. */
export interface RequirementCourse {
  /** `MATH 1A`, for reasons. */
  name: string;
  /** Requirement codes its mapping satisfies. */
  satisfies: readonly string[];
  /** Completed with a result that transfers (and meets `min_grade` where asked: see gradeMeets). */
  state: 'completed' | 'in_progress' | 'not_counted';
  /** The grade's points on the tenant's scale; null for a pass or no grade. */
  points: number | null;
}

export interface RequirementFacts {
  /** Transferable semester units of completed courses, and those in progress or planned. */
  transferableUnits: number;
  inProgressUnits: number;
  /** The transfer GPA; null without graded units. */
  gpa: number | null;
  courses: readonly RequirementCourse[];
  /** Points of a grade on the tenant's scale (for `min_grade`). */
  pointsOf(grade: string): number | undefined;
  /** The application's answers, for `applies_when`. */
  answers: Readonly<Record<string, unknown>>;
}

export interface RequirementResult {
  id: string;
  label: string;
  kind: Requirement['kind'];
  status: RequirementStatus;
  /** Why, in a sentence staff and applicants read. */
  reason: string;
  show_to_applicant: boolean;
}

const units = (value: number) => (Math.round(value * 100) / 100).toFixed(2).replace(/\.?0+$/, '');

function minUnits(required: number, facts: RequirementFacts): [RequirementStatus, string] {
  const done = facts.transferableUnits;
  const pending = facts.inProgressUnits;
  const base = `${units(done)} of ${units(required)} transferable units completed`;
  if (done >= required) return ['met', `${base}.`];
  if (done + pending >= required)
    return ['in_progress', `${base}; ${units(pending)} more in progress or planned.`];
  const short = required - done - pending;
  return [
    'not_met',
    pending > 0
      ? `${base} and ${units(pending)} in progress or planned: ${units(short)} short.`
      : `${base}: ${units(short)} short.`,
  ];
}

function minGpa(required: number, facts: RequirementFacts): [RequirementStatus, string] {
  const floor = required.toFixed(2);
  if (facts.gpa === null) {
    return facts.inProgressUnits > 0
      ? ['in_progress', `No graded units yet; at least ${floor} needed.`]
      : ['not_met', `No graded units; at least ${floor} needed.`];
  }
  const gpa = facts.gpa.toFixed(2);
  return facts.gpa >= required
    ? ['met', `Transfer GPA ${gpa}, at least ${floor} needed.`]
    : ['not_met', `Transfer GPA ${gpa}, below the ${floor} needed.`];
}

function courseCodes(
  requirement: Extract<Requirement, { kind: 'courses' }>,
  facts: RequirementFacts,
): [RequirementStatus, string] {
  const floor = requirement.min_grade ? facts.pointsOf(requirement.min_grade) : undefined;
  const satisfiedBy = new Map<string, string>();
  const pendingBy = new Map<string, string>();
  for (const course of facts.courses) {
    for (const code of course.satisfies) {
      if (course.state === 'completed') {
        const gradeOk = floor === undefined || course.points === null || course.points >= floor;
        if (gradeOk && !satisfiedBy.has(code)) satisfiedBy.set(code, course.name);
      } else if (course.state === 'in_progress' && !pendingBy.has(code)) {
        pendingBy.set(code, course.name);
      }
    }
  }
  const missing = requirement.codes.filter((code) => !satisfiedBy.has(code));
  const met = requirement.codes
    .filter((code) => satisfiedBy.has(code))
    .map((code) => `${code} by ${satisfiedBy.get(code)}`);
  if (missing.length === 0) return ['met', `Satisfied: ${met.join(', ')}.`];
  const waiting = missing.filter((code) => pendingBy.has(code));
  const absent = missing.filter((code) => !pendingBy.has(code));
  const pendingText = waiting.map((code) => `${code} (${pendingBy.get(code)} in progress)`);
  if (absent.length === 0) return ['in_progress', `Waiting on ${pendingText.join(', ')}.`];
  const parts = [`Missing ${absent.join(', ')}`];
  if (pendingText.length > 0) parts.push(`waiting on ${pendingText.join(', ')}`);
  return ['not_met', `${parts.join('; ')}.`];
}

/**
 * Each configured requirement's status and reason for one application. A requirement is met by
 * completed work; in progress when the work in progress or planned would meet it; not met
 * otherwise. An agreement is met when all it requires are, not met when any is not met, and in
 * progress otherwise.
 */
export function evaluateRequirements(
  requirements: readonly Requirement[],
  facts: RequirementFacts,
): RequirementResult[] {
  const results: RequirementResult[] = [];
  const byId = new Map<string, RequirementResult>();
  for (const requirement of requirements) {
    const condition = requirement.applies_when;
    if (condition && !condition.in.includes(String(facts.answers[condition.key] ?? ''))) continue;
    let outcome: [RequirementStatus, string];
    switch (requirement.kind) {
      case 'min_units':
        outcome = minUnits(requirement.units, facts);
        break;
      case 'min_gpa':
        outcome = minGpa(requirement.gpa, facts);
        break;
      case 'courses':
        outcome = courseCodes(requirement, facts);
        break;
      case 'agreement': {
        // A requirement that does not apply to this application does not hold the agreement back.
        const parts = requirement.requires
          .map((id) => byId.get(id))
          .filter((part) => part !== undefined);
        const notMet = parts.filter(
          (part) => part?.status !== 'met' && part?.status !== 'in_progress',
        );
        const pending = parts.filter((part) => part?.status === 'in_progress');
        const names = (list: typeof parts) => list.map((part) => part?.label ?? '?').join(', ');
        outcome =
          notMet.length > 0
            ? ['not_met', `Not met: ${names(notMet)}.`]
            : pending.length > 0
              ? ['in_progress', `In progress: ${names(pending)}.`]
              : ['met', `Met: ${names(parts)}.`];
        break;
      }
    }
    const result: RequirementResult = {
      id: requirement.id,
      label: requirement.label,
      kind: requirement.kind,
      status: outcome[0],
      reason: outcome[1],
      show_to_applicant: requirement.show_to_applicant,
    };
    byId.set(requirement.id, result);
    results.push(result);
  }
  return results;
}
