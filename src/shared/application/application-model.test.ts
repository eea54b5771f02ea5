import { describe, expect, it } from 'vitest';
import { answerKeySpecs } from '../form/answer-keys';
import { checkModel } from '../form/model-check';
import { resolveModel } from '../form/resolve';
import { FORM_STEPS } from '../routes';
import { applicationModel } from './application-model';

const specs = answerKeySpecs(applicationModel);

const withPrefixes = (prefixes: readonly string[], keys: readonly string[]) =>
  prefixes.flatMap((prefix) => keys.map((key) => `${prefix}${key}`));

const ADDRESS = ['address_line_1', 'address_line_2', 'city', 'state', 'zip', 'country'];
const SCHOOL_SEARCH = ['name', 'address_line_1', 'city', 'state', 'zip', 'ceeb', 'country'];
const ATTENDED = [
  'attended_from_month',
  'attended_from_year',
  'attended_to_month',
  'attended_to_year',
];

/** Every answer key spec 001 section 3 names, in every repeat instance. */
const SPEC_KEYS: Record<string, readonly string[]> = {
  about: [
    'first_name',
    'middle_name',
    'last_name',
    'suffix',
    'preferred_name',
    'prev_lname',
    'birth_date',
    'gender',
    'phone_home',
    'phone_mobile',
    'phone_international',
    'phone_mobile_international',
    'optin_sms_ind',
    ...ADDRESS,
    'mailing_addr_same_as_perm_addr',
    ...ADDRESS.map((key) => `mailing_${key}`),
    'citizenship_type',
    'citizenship',
    'birth_country',
    'alien_registration_number',
    'citizenship_visa_status',
    'attend_student_visa',
    'ethnicity',
    'race_american_indian',
    'race_asian',
    'race_black',
    'race_native_hawaiian',
    'race_white',
    'military_service',
    'armed_forces_status',
    'anticipated_armed_forces_status',
    ...withPrefixes(
      ['military_branch_', 'military_branch_2_', 'military_branch_3_'],
      ['name', 'start_date', 'end_date'],
    ),
    'other_discharge',
    ...withPrefixes(
      ['parent_', 'parent_2_', 'other_'],
      [
        'relationship',
        'prefix',
        'first_name',
        'middle_name',
        'last_name',
        'suffix',
        'email',
        'phone',
        'education',
        'education_other',
        'occupation',
        'employer',
        ...ADDRESS,
        'address_same_as_student',
        'college_name',
        'ceeb',
        'college_address_line_1',
        'college_city',
        'college_state',
        'college_zip',
        'college_country',
      ],
    ),
    'submit_parent_info',
    'parent_communication_preference',
    'first_gen',
    'nsu_employee_dependent',
    'nsu_alumni',
    ...withPrefixes(
      ['legacy_', 'legacy_2_', 'legacy_3_', 'legacy_4_'],
      ['relationship', 'first_name', 'last_name'],
    ),
  ],
  education: [
    'applied_major',
    'conc_hum_serv',
    'early_decision_cb',
    'early_decision_signature',
    'phi_member',
    'transfer_student_credits',
    'credits_transfer',
    'study_location',
    'bacc_degree',
    'online_master_health',
    'degree_rt',
    'nbrc_registration',
    'work_rrt',
    'credits_english',
    'credits_math',
    'credits_biological',
    ...withPrefixes(
      ['course_', ...Array.from({ length: 9 }, (_, i) => `course_${i + 2}_`)],
      ['department_number', 'title', 'college', 'term'],
    ),
    'health_care_experience',
    'health_certifications',
    'distance_edu',
    'distance_edu_explain',
    'prior_matriculation',
    'extracurricular_activities',
    'special_circumstances',
    'entry_term',
    'decision_type',
    'campus_housing',
    'premier_program',
    ...withPrefixes(['hs_', 'hs_2_', 'hs_3_'], [...SCHOOL_SEARCH, ...ATTENDED, 'primary']),
    'high_school_diploma',
    'hs_gpa',
    'gpa_scale',
    'hs_rank',
    'hs_class_position',
    'hs_total_class',
    ...withPrefixes(
      ['college_', 'college_2_', 'college_3_'],
      [
        ...SCHOOL_SEARCH,
        ...ATTENDED,
        'type',
        'type_other',
        'degree',
        'degree_other',
        'credits',
        'gpa',
      ],
    ),
    'personal_statement_essay',
    'personal_statement_doc',
    'hs_transcript',
  ],
  'final-steps': [
    'fee_waiver',
    'fee_waiver_testing',
    'fee_waiver_income',
    'fee_waiver_lunch',
    'fee_waiver_trio',
    'fee_waiver_pa',
    'fee_waiver_housing',
    'fee_waiver_statement',
    'fee_waiver_ward',
    'fee_waiver_disaster',
    'fee_waiver_signature',
    'covid_question',
    'covid_explain',
    'conviction',
    'conviction_comment',
    'protective',
    'protective_comment',
    'currently_incarcerated',
    'currently_incarcerated_comment',
    'professional_licensure',
    'professional_licensure_comment',
    'continuing_duty_disclosure',
    'counselor_waiver_request',
    'legal_agree',
  ],
};

describe('the application model', () => {
  it('passes the model check', () => {
    expect(checkModel(applicationModel)).toEqual([]);
  });

  it('has the three pages in order, with the routes and titles of the steps', () => {
    expect(applicationModel.pages.map(({ id, route, title }) => ({ id, route, title }))).toEqual([
      { id: 'about', route: '/about', title: 'About You' },
      { id: 'education', route: '/education', title: 'Your Academics' },
      { id: 'final-steps', route: '/final-steps', title: 'Final Steps' },
    ]);
    expect(applicationModel.pages.map(({ route, title }) => ({ route, title }))).toEqual(
      FORM_STEPS,
    );
  });

  it.each(Object.entries(SPEC_KEYS))('holds every answer key of the %s page', (_page, keys) => {
    const missing = keys.filter((key) => !specs.has(key));
    expect(missing).toEqual([]);
  });

  it('stores the label of every select and radio answer', () => {
    for (const key of ['gender', 'applied_major', 'mailing_addr_same_as_perm_addr', 'hs_2_state'])
      expect(specs.has(`${key}_desc`), key).toBe(true);
    expect(specs.has('optin_sms_ind_desc')).toBe(false);
  });

  it('keeps booleans for checkboxes and the limits of the spec', () => {
    for (const key of [
      'optin_sms_ind',
      'race_white',
      'fee_waiver_ward',
      'legal_agree',
      'hs_primary',
    ])
      expect(specs.get(key)?.type, key).toBe('boolean');
    expect(specs.get('personal_statement_essay')?.maxLength).toBe(7000);
    expect(specs.get('distance_edu_explain')?.maxLength).toBe(1500);
    expect(specs.get('first_name')?.maxLength).toBe(45);
  });

  it('offers the personal statement as a choice between writing and uploading', () => {
    const education = applicationModel.pages[1];
    const documents = education?.items.find(
      (item) => item.kind === 'block' && item.id === 'documents',
    );
    const tabs =
      documents?.kind === 'block'
        ? documents.items.find((item) => item.kind === 'tabs')
        : undefined;
    expect(tabs).toMatchObject({
      kind: 'tabs',
      defaultTab: 'write',
      tabs: [
        { id: 'write', items: [{ key: 'personal_statement_essay', characterLimit: 7000 }] },
        {
          id: 'upload',
          label: 'Upload from your device',
          items: [{ key: 'personal_statement_doc', widget: 'file' }],
        },
      ],
    });
  });

  it('offers next year for studies that end later, and past years for their start', () => {
    const places = resolveModel(applicationModel, {
      answers: {},
      addAnother: {},
      tabs: {},
      isLoggedIn: true,
    });
    const years = (key: string) => places.find((place) => place.key === key)?.field.years;
    const nextYear = new Date().getFullYear() + 1;
    expect(years('college_attended_to_year')).toEqual({
      start: nextYear,
      count: 62,
      direction: 'past',
    });
    expect(years('hs_3_attended_to_year')).toEqual({
      start: nextYear,
      count: 62,
      direction: 'past',
    });
    expect(years('college_2_attended_from_year')).toEqual({ count: 61, direction: 'past' });
  });
});
