import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env';
import {
  claimValues,
  type RoleMapping,
  roleFromClaims,
  roleFromValues,
  roleMappingFromEnv,
} from './role-mapping';

const mapping: RoleMapping = {
  claim: 'groups',
  adminValues: ['admissions-admins', 'registrar'],
  evaluatorValues: ['transfer-evaluators'],
  readerValues: ['admissions-staff'],
};

describe('role mapping', () => {
  it('grants admin for an admin value and reader for a reader value', () => {
    expect(roleFromClaims({ groups: ['admissions-admins'] }, mapping)).toBe('admin');
    expect(roleFromClaims({ groups: ['registrar'] }, mapping)).toBe('admin');
    expect(roleFromClaims({ groups: ['admissions-staff'] }, mapping)).toBe('reader');
  });

  it('grants evaluator for an evaluator value; admin wins over it, it wins over reader', () => {
    expect(roleFromClaims({ groups: ['transfer-evaluators'] }, mapping)).toBe('evaluator');
    expect(roleFromClaims({ groups: ['transfer-evaluators', 'registrar'] }, mapping)).toBe('admin');
    expect(roleFromClaims({ groups: ['admissions-staff', 'transfer-evaluators'] }, mapping)).toBe(
      'evaluator',
    );
  });

  it('lets admin win over reader, whatever the order', () => {
    expect(roleFromClaims({ groups: ['admissions-staff', 'registrar'] }, mapping)).toBe('admin');
    expect(roleFromClaims({ groups: ['registrar', 'admissions-staff'] }, mapping)).toBe('admin');
  });

  it('reads a claim that is one string as well as an array', () => {
    expect(roleFromClaims({ groups: 'admissions-staff' }, mapping)).toBe('reader');
    expect(roleFromClaims({ groups: 'admissions-admins' }, mapping)).toBe('admin');
  });

  it('grants nothing without a matching value', () => {
    expect(roleFromClaims({}, mapping)).toBeNull();
    expect(roleFromClaims({ groups: [] }, mapping)).toBeNull();
    expect(roleFromClaims({ groups: ['students', 'library'] }, mapping)).toBeNull();
    expect(roleFromClaims({ roles: ['admissions-admins'] }, mapping)).toBeNull();
  });

  it('compares values exactly: no case folding, no trimming, no substrings', () => {
    expect(roleFromClaims({ groups: ['Admissions-Admins'] }, mapping)).toBeNull();
    expect(roleFromClaims({ groups: [' admissions-staff'] }, mapping)).toBeNull();
    expect(roleFromClaims({ groups: ['admissions-staff-old'] }, mapping)).toBeNull();
    expect(roleFromClaims({ groups: 'admissions-admins admissions-staff' }, mapping)).toBeNull();
  });

  it('ignores values that are not strings', () => {
    expect(claimValues([42, null, { name: 'registrar' }, 'registrar'])).toEqual(['registrar']);
    expect(claimValues(true)).toEqual([]);
    expect(claimValues({ 0: 'registrar' })).toEqual([]);
    expect(roleFromClaims({ groups: [['registrar']] }, mapping)).toBeNull();
  });

  it('grants nothing when no values are configured', () => {
    const empty: RoleMapping = {
      claim: 'groups',
      adminValues: [],
      evaluatorValues: [],
      readerValues: [],
    };
    expect(roleFromValues(['admissions-admins', ''], empty)).toBeNull();
  });

  it('reads the claim and the comma-separated values from the environment', () => {
    const env = loadEnv({
      NODE_ENV: 'test',
      OIDC_ROLE_CLAIM: 'roles',
      OIDC_ADMIN_VALUES: ' Portal.Admin , Registrar ',
      OIDC_EVALUATOR_VALUES: 'Portal.Evaluator',
      OIDC_READER_VALUES: 'Portal.Reader',
    });
    expect(roleMappingFromEnv(env)).toEqual({
      claim: 'roles',
      adminValues: ['Portal.Admin', 'Registrar'],
      evaluatorValues: ['Portal.Evaluator'],
      readerValues: ['Portal.Reader'],
    });
    expect(roleMappingFromEnv(loadEnv({ NODE_ENV: 'test' })).claim).toBe('groups');
  });
});
