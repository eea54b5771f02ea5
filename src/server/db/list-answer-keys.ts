/**
 * The answer keys the staff list and its search box read. The database derives its list columns
 * from these keys (see `applications` in schema.ts); a test keeps them in step with the model.
 */

/** The applicant's own names: the typo-tolerant part of the search. */
export const NAME_KEYS = [
  'first_name',
  'middle_name',
  'last_name',
  'preferred_name',
  'prev_lname',
] as const;

/** High schools and colleges attended: their names and CEEB codes. */
export const SCHOOL_KEYS = [
  'hs_name',
  'hs_ceeb',
  'hs_2_name',
  'hs_2_ceeb',
  'hs_3_name',
  'hs_3_ceeb',
  'college_name',
  'college_ceeb',
  'college_2_name',
  'college_2_ceeb',
  'college_3_name',
  'college_3_ceeb',
] as const;

/** Searched as digits only, so any way of writing a number finds it. */
export const PHONE_KEYS = [
  'phone_home',
  'phone_international',
  'phone_mobile',
  'phone_mobile_international',
] as const;

/** The list's own columns. */
export const LIST_KEYS = {
  firstName: 'first_name',
  lastName: 'last_name',
  preferredName: 'preferred_name',
  program: 'applied_major',
  programLabel: 'applied_major_desc',
  entryTerm: 'entry_term',
  entryTermLabel: 'entry_term_desc',
  decisionType: 'decision_type',
  decisionTypeLabel: 'decision_type_desc',
} as const;
