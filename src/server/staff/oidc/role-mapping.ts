import type { StaffRole } from '../../../shared/staff/permissions';
import type { Env } from '../../config/env';

/**
 * Which values of an identity provider's claim (or, with SAML, attribute) make a member an admin,
 * an evaluator or a reader. Values are compared exactly: `Admissions-Admins` is not
 * `admissions-admins`.
 */
export interface RoleMapping {
  /** The claim that carries the groups or roles, e.g. `groups` or `roles`. */
  claim: string;
  adminValues: readonly string[];
  evaluatorValues: readonly string[];
  readerValues: readonly string[];
}

export function roleMappingFromEnv(
  env: Pick<
    Env,
    'OIDC_ROLE_CLAIM' | 'OIDC_ADMIN_VALUES' | 'OIDC_EVALUATOR_VALUES' | 'OIDC_READER_VALUES'
  >,
): RoleMapping {
  return {
    claim: env.OIDC_ROLE_CLAIM,
    adminValues: env.OIDC_ADMIN_VALUES,
    evaluatorValues: env.OIDC_EVALUATOR_VALUES,
    readerValues: env.OIDC_READER_VALUES,
  };
}

/** A claim's values: one string, or the strings of an array; anything else carries none. */
export function claimValues(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value))
    return value.filter((entry): entry is string => typeof entry === 'string');
  return [];
}

/**
 * The role the values grant, the one with most permissions winning (admin, then evaluator, then
 * reader); null when none is granted.
 */
export function roleFromValues(values: readonly string[], mapping: RoleMapping): StaffRole | null {
  if (values.some((value) => mapping.adminValues.includes(value))) return 'admin';
  if (values.some((value) => mapping.evaluatorValues.includes(value))) return 'evaluator';
  if (values.some((value) => mapping.readerValues.includes(value))) return 'reader';
  return null;
}

/** The role a set of claims grants under the mapping, or null. */
export function roleFromClaims(
  claims: Readonly<Record<string, unknown>>,
  mapping: RoleMapping,
): StaffRole | null {
  return roleFromValues(claimValues(claims[mapping.claim]), mapping);
}
