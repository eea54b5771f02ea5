import { describe, expect, it } from 'vitest';
import { answerKeySpecs, parseAnswerPatch } from '../form/answer-keys';
import type { Answers, FormState } from '../form/model';
import { hiddenAnswersPatch } from '../form/resolve';
import { validateAnswers } from '../form/validate';
import { validApplicationAnswers, validApplicationState } from '../test/application-fixtures';
import { ABOUT_MESSAGES as A } from './about-page';
import { applicationModel } from './application-model';
import { EDUCATION_MESSAGES as E, PROGRAM_QUESTIONS } from './education-page';
import { FINAL_STEPS_MESSAGES as F, FEE_WAIVER_REASONS } from './final-steps-page';
import { MAJOR, majorOptions, PSYCHOLOGY } from './option-lists';

/** Every date rule is judged against this day. */
const TODAY = '2026-03-15';
const ZIP = 'ZIP/Postal Code must be at least 5 characters.';

function errorsOf(
  patch: Answers,
  options: { major?: string; state?: Partial<Omit<FormState, 'answers'>> } = {},
) {
  const answers = { ...validApplicationAnswers(options.major ?? PSYCHOLOGY), ...patch };
  return validateAnswers(
    applicationModel,
    { answers, addAnother: {}, tabs: {}, isLoggedIn: true, ...options.state },
    { today: TODAY },
  );
}

type Case = [name: string, patch: Answers, key: string, expected: string[] | undefined];

const runCases = (cases: Case[], options?: Parameters<typeof errorsOf>[1]) =>
  it.each(cases)('%s', (_name, patch, key, expected) => {
    expect(errorsOf(patch, options)[key]).toEqual(expected);
  });

const SPECIAL_MAJORS = Object.values(MAJOR);

describe('a complete application', () => {
  it.each([PSYCHOLOGY, ...SPECIAL_MAJORS])('has no errors for program %s', (major) => {
    expect(
      validateAnswers(applicationModel, validApplicationState(major), { today: TODAY }),
    ).toEqual({});
  });

  it('has no errors for any program offered', () => {
    for (const { value } of majorOptions.slice(1)) {
      const state = validApplicationState(value);
      expect(validateAnswers(applicationModel, state, { today: TODAY }), value).toEqual({});
    }
  });

  it.each([PSYCHOLOGY, ...SPECIAL_MAJORS])(
    'holds only shown answers that the server accepts, for program %s',
    (major) => {
      const state = validApplicationState(major);
      expect(hiddenAnswersPatch(applicationModel, state)).toEqual({});
      expect(parseAnswerPatch(answerKeySpecs(applicationModel), state.answers).ok).toBe(true);
    },
  );

  it('stores the labels of its choices', () => {
    const answers = validApplicationAnswers(MAJOR.respiratoryTherapy);
    expect(answers.applied_major_desc).toBe('Respiratory Therapy: R.R.T. to B.S. (online)');
    expect(answers.country_desc).toBe('United States of America');
    expect(answers.conviction_desc).toBe('No');
  });
});

describe('an empty application', () => {
  it('asks for exactly the required answers of the spec', () => {
    const errors = validateAnswers(
      applicationModel,
      { answers: {}, addAnother: {}, tabs: {}, isLoggedIn: true },
      { today: TODAY },
    );
    expect(Object.keys(errors).sort()).toEqual(
      [
        'first_name',
        'last_name',
        'birth_date',
        'gender',
        'phone_home',
        'address_line_1',
        'city',
        'country',
        'citizenship_type',
        'applied_major',
        'transfer_student_credits',
        'credits_transfer',
        'entry_term',
        'decision_type',
        'college_name',
        'college_attended_from_month',
        'college_attended_to_month',
        'conviction',
        'protective',
        'professional_licensure',
        'continuing_duty_disclosure',
        'counselor_waiver_request',
        'legal_agree',
      ].sort(),
    );
    expect(errors.phone_home).toEqual([A.anyPhone]);
  });
});

describe('About You: names and gender', () => {
  runCases([
    ['first name missing', { first_name: '' }, 'first_name', [A.firstName]],
    ['first name blank', { first_name: '   ' }, 'first_name', [A.firstName]],
    ['first name given', { first_name: 'Ana' }, 'first_name', undefined],
    ['last name missing', { last_name: '' }, 'last_name', [A.lastName]],
    ['gender missing', { gender: '' }, 'gender', [A.gender]],
    ['gender given', { gender: 'X' }, 'gender', undefined],
  ]);
});

describe('About You: date of birth, judged on 2026-03-15', () => {
  runCases([
    ['missing', { birth_date: '' }, 'birth_date', [A.birthDate]],
    ['not a date', { birth_date: 'yesterday' }, 'birth_date', [A.birthDate]],
    ['not a calendar day', { birth_date: '2001-02-30' }, 'birth_date', [A.birthDate]],
    ['exactly 13 years old today', { birth_date: '2013-03-15' }, 'birth_date', undefined],
    ['13 years old tomorrow', { birth_date: '2013-03-16' }, 'birth_date', [A.minimumAge]],
    ['born in the future', { birth_date: '2027-01-01' }, 'birth_date', [A.minimumAge]],
    ['born exactly 100 years ago', { birth_date: '1926-03-15' }, 'birth_date', undefined],
    [
      'born 100 years and a day ago',
      { birth_date: '1926-03-14' },
      'birth_date',
      [A.birthDateTooEarly],
    ],
  ]);
});

describe('About You: phones', () => {
  const noPhones = {
    phone_home: '',
    phone_mobile: '',
    phone_international: '',
    phone_mobile_international: '',
    optin_sms_ind: false,
  };
  runCases([
    ['home: area code starting 2', { phone_home: '(200) 555-0123' }, 'phone_home', undefined],
    ['home: area code starting 1', { phone_home: '(123) 555-0123' }, 'phone_home', [A.homePhone]],
    ['home: area code starting 0', { phone_home: '(012) 555-0123' }, 'phone_home', [A.homePhone]],
    ['home: exchange starting 2', { phone_home: '(954) 200-0123' }, 'phone_home', undefined],
    ['home: exchange starting 1', { phone_home: '(954) 155-0123' }, 'phone_home', [A.homePhone]],
    ['home: not formatted', { phone_home: '954-555-0123' }, 'phone_home', [A.homePhone]],
    ['home: too short', { phone_home: '(954) 555-012' }, 'phone_home', [A.homePhone]],
    ['cell: area code starting 2', { phone_mobile: '(212) 555-0123' }, 'phone_mobile', undefined],
    [
      'cell: area code starting 1',
      { phone_mobile: '(112) 555-0123' },
      'phone_mobile',
      [A.cellPhone],
    ],
    [
      'cell: exchange starting 1',
      { phone_mobile: '(212) 123-0123' },
      'phone_mobile',
      [A.cellPhone],
    ],
    ['no phone at all', noPhones, 'phone_home', [A.anyPhone]],
    ['home phone only', { ...noPhones, phone_home: '(954) 262-8000' }, 'phone_home', undefined],
    ['cell phone only', { ...noPhones, phone_mobile: '(954) 262-8000' }, 'phone_home', undefined],
    [
      'international home phone only',
      { ...noPhones, phone_international: '+44 20 7946 0958' },
      'phone_home',
      undefined,
    ],
    [
      'international cell phone only',
      { ...noPhones, phone_mobile_international: '+52 55 1234 5678' },
      'phone_home',
      undefined,
    ],
    [
      'text updates without a cell phone',
      { ...noPhones, phone_home: '(954) 262-8000', optin_sms_ind: true },
      'phone_mobile',
      [A.smsNeedsCell],
    ],
    [
      'text updates with an international cell phone',
      { ...noPhones, phone_mobile_international: '+52 55 1234 5678', optin_sms_ind: true },
      'phone_mobile',
      undefined,
    ],
    [
      'text updates with a cell phone',
      { ...noPhones, phone_mobile: '(954) 555-0123', optin_sms_ind: true },
      'phone_mobile',
      undefined,
    ],
    [
      'no text updates and no cell phone',
      { ...noPhones, phone_home: '(954) 262-8000' },
      'phone_mobile',
      undefined,
    ],
  ]);
});

describe('About You: permanent address', () => {
  runCases([
    ['street missing', { address_line_1: '' }, 'address_line_1', [A.addressLine1]],
    ['city missing', { city: '' }, 'city', [A.city]],
    ['country missing', { country: '' }, 'country', [A.country]],
    ['country missing: no state needed yet', { country: '', state: '' }, 'state', undefined],
    ['USA without a state', { country: 'USA', state: '' }, 'state', [A.state]],
    ['CAN without a province', { country: 'CAN', state: '' }, 'state', [A.state]],
    ['another country without a state', { country: 'MEX', state: '' }, 'state', undefined],
    ['USA without a ZIP', { country: 'USA', zip: '' }, 'zip', [A.zip]],
    ['USA with a ZIP of 4 characters', { country: 'USA', zip: '3331' }, 'zip', [ZIP]],
    ['USA with a ZIP of 5 characters', { country: 'USA', zip: '33314' }, 'zip', undefined],
    ['USA with a ZIP+4', { country: 'USA', zip: '33314-7796' }, 'zip', undefined],
    ['CAN without a postal code', { country: 'CAN', state: 'ON', zip: '' }, 'zip', [A.zip]],
    ['CAN with 4 characters', { country: 'CAN', state: 'ON', zip: 'K1A ' }, 'zip', [ZIP]],
    ['CAN with 5 characters', { country: 'CAN', state: 'ON', zip: 'K1A0B' }, 'zip', undefined],
    ['another country without a postal code', { country: 'MEX', zip: '' }, 'zip', undefined],
    ['another country with 4 characters', { country: 'CHE', zip: '8001' }, 'zip', undefined],
  ]);
});

describe('About You: mailing address', () => {
  const separate = { mailing_addr_same_as_perm_addr: 'N' };
  const mailing = {
    ...separate,
    mailing_address_line_1: 'PO Box 12',
    mailing_city: 'Toronto',
    mailing_state: 'ON',
    mailing_zip: 'M5V 3L9',
    mailing_country: 'CAN',
  };
  runCases([
    ['same address: nothing asked', {}, 'mailing_address_line_1', undefined],
    ['separate: street missing', separate, 'mailing_address_line_1', [A.mailingAddressLine1]],
    ['separate: city missing', separate, 'mailing_city', [A.mailingCity]],
    ['separate: country missing', separate, 'mailing_country', [A.mailingCountry]],
    ['separate in Canada: complete', mailing, 'mailing_zip', undefined],
    [
      'separate in Canada: no province',
      { ...mailing, mailing_state: '' },
      'mailing_state',
      [A.mailingState],
    ],
    [
      'separate in Canada: no postal code',
      { ...mailing, mailing_zip: '' },
      'mailing_zip',
      [A.mailingZip],
    ],
    [
      'separate in Canada: short postal code',
      { ...mailing, mailing_zip: 'M5V' },
      'mailing_zip',
      [ZIP],
    ],
    [
      'separate in the USA: no state',
      { ...mailing, mailing_country: 'USA', mailing_state: '' },
      'mailing_state',
      [A.mailingState],
    ],
    [
      'separate elsewhere: no state or postal code needed',
      { ...mailing, mailing_country: 'FRA', mailing_state: '', mailing_zip: '' },
      'mailing_zip',
      undefined,
    ],
  ]);
});

describe('About You: citizenship', () => {
  const cases: Array<[type: string, expected: Record<string, string[] | undefined>]> = [
    ['', { citizenship_type: [A.citizenshipType] }],
    [
      '1',
      {
        citizenship: undefined,
        alien_registration_number: undefined,
        citizenship_visa_status: undefined,
      },
    ],
    [
      '2',
      {
        citizenship: [A.citizenship],
        alien_registration_number: [A.alienRegistrationNumber],
        citizenship_visa_status: undefined,
      },
    ],
    [
      '3',
      {
        citizenship: [A.citizenship],
        alien_registration_number: undefined,
        citizenship_visa_status: [A.visaStatus],
      },
    ],
    [
      '4',
      {
        citizenship: [A.citizenship],
        alien_registration_number: undefined,
        citizenship_visa_status: undefined,
      },
    ],
  ];
  it.each(cases)('type "%s" asks for what it needs', (type, expected) => {
    const errors = errorsOf({ citizenship_type: type });
    for (const [key, messages] of Object.entries(expected))
      expect(errors[key], key).toEqual(messages);
  });

  it.each(['2', '3', '4'])('type %s is complete with its answers', (type) => {
    const errors = errorsOf({
      citizenship_type: type,
      citizenship: 'MEX',
      alien_registration_number: 'A123456789',
      citizenship_visa_status: 'F1',
    });
    expect(errors).toEqual({});
  });
});

describe('About You: military dates, judged in 2026', () => {
  const served = { military_service: 'Y' };
  const three = { state: { addAnother: { military_branches: 3 } } };
  const min = (year: number) => [`The minimum supported year is ${year}`];
  const max = (year: number) => [`The maximum supported year is ${year}`];
  const cases: Case[] = [];
  for (const prefix of ['military_branch_', 'military_branch_2_', 'military_branch_3_']) {
    const start = `${prefix}start_date`;
    const end = `${prefix}end_date`;
    const endMax = prefix === 'military_branch_' ? 2029 : 2031;
    cases.push(
      [`${start}: 74 years ago`, { ...served, [start]: '1952-01-01' }, start, undefined],
      [`${start}: 75 years ago`, { ...served, [start]: '1951-12-31' }, start, min(1952)],
      [`${start}: this year`, { ...served, [start]: '2026-12-31' }, start, undefined],
      [`${start}: next year`, { ...served, [start]: '2027-01-01' }, start, max(2026)],
      [`${start}: empty`, { ...served, [start]: '' }, start, undefined],
      [`${end}: 74 years ago`, { ...served, [end]: '1952-06-30' }, end, undefined],
      [`${end}: 75 years ago`, { ...served, [end]: '1951-06-30' }, end, min(1952)],
      [`${end}: last year allowed`, { ...served, [end]: `${endMax}-12-31` }, end, undefined],
      [`${end}: a year too far`, { ...served, [end]: `${endMax + 1}-01-01` }, end, max(endMax)],
      [`${end}: empty`, { ...served, [end]: '' }, end, undefined],
    );
  }
  runCases(cases, three);

  it('ignores the dates of someone who has not served', () => {
    const errors = errorsOf(
      { military_service: 'N', military_branch_start_date: '1900-01-01' },
      three,
    );
    expect(errors.military_branch_start_date).toBeUndefined();
  });

  it('ignores branches not added', () => {
    const errors = errorsOf({ ...served, military_branch_2_start_date: '1900-01-01' });
    expect(errors.military_branch_2_start_date).toBeUndefined();
  });
});

describe('About You: family members', () => {
  const family = { state: { addAnother: { family_members: 3 } } };
  const shared = { submit_parent_info: 'Y' };
  const cases: Case[] = [];
  for (const [prefix, label] of [
    ['parent_', 'Family Member 1'],
    ['parent_2_', 'Family Member 2'],
    ['other_', 'Other'],
  ] as const) {
    const email = `${prefix}email`;
    const phone = `${prefix}phone`;
    cases.push(
      [`${email}: valid`, { ...shared, [email]: 'ana.lopez@example.org' }, email, undefined],
      [
        `${email}: no domain`,
        { ...shared, [email]: 'ana.lopez@' },
        email,
        [`${label}: Please enter a valid email address.`],
      ],
      [
        `${email}: a space`,
        { ...shared, [email]: 'ana lopez@example.org' },
        email,
        [`${label}: Please enter a valid email address.`],
      ],
      [`${email}: empty`, { ...shared, [email]: '' }, email, undefined],
      [`${phone}: valid`, { ...shared, [phone]: '(305) 555-0199' }, phone, undefined],
      [
        `${phone}: area code starting 1`,
        { ...shared, [phone]: '(105) 555-0199' },
        phone,
        [`${label}: Please enter a valid phone number.`],
      ],
    );
  }
  cases.push([
    'no family information given',
    { submit_parent_info: 'N', parent_email: 'nope' },
    'parent_email',
    undefined,
  ]);
  runCases(cases, family);
});

describe('Your Academics: program, credits and start', () => {
  runCases([
    ['no program', { applied_major: '' }, 'applied_major', [E.major]],
    [
      'Human Services without a concentration',
      { applied_major: 'J100' },
      'conc_hum_serv',
      [E.humanServicesConcentration],
    ],
    [
      'Human Services with a concentration',
      { applied_major: 'J100', conc_hum_serv: 'GERONTOLOGY' },
      'conc_hum_serv',
      undefined,
    ],
    ['another program needs no concentration', { applied_major: '202' }, 'conc_bio', undefined],
    [
      'credits question unanswered',
      { transfer_student_credits: '' },
      'transfer_student_credits',
      [E.transferCredits],
    ],
    ['credits missing', { credits_transfer: '' }, 'credits_transfer', [E.creditsTransfer]],
    [
      'credits not digits',
      { credits_transfer: '12a' },
      'credits_transfer',
      [E.creditsTransferDigits],
    ],
    [
      'credits with a decimal',
      { credits_transfer: '2.5' },
      'credits_transfer',
      [E.creditsTransferDigits],
    ],
    ['credits in digits', { credits_transfer: '0' }, 'credits_transfer', undefined],
    ['no entry term', { entry_term: '' }, 'entry_term', [E.entryTerm]],
    ['no decision type', { decision_type: '' }, 'decision_type', [E.decisionType]],
  ]);
});

describe('Your Academics: colleges', () => {
  const three = { state: { addAnother: { colleges: 3 } } };
  const cases: Case[] = [
    [
      'college 1: no name',
      { college_name: '' },
      'college_name',
      ['College 1: Please enter the name of the college.'],
    ],
    [
      'college 1: no start month',
      { college_attended_from_month: '' },
      'college_attended_from_month',
      ['College 1: Please select the month you started attending.'],
    ],
    [
      'college 1: no end month',
      { college_attended_to_month: '' },
      'college_attended_to_month',
      ['College 1: Please select the month you stopped attending, or expect to.'],
    ],
    [
      'college 1: no start month, nor year',
      { college_attended_from_month: '', college_attended_from_year: '' },
      'college_attended_from_month',
      ['College 1: Please select the month you started attending.'],
    ],
    [
      'college 1: months without years (the year placeholder)',
      { college_attended_from_year: '', college_attended_to_year: '' },
      'college_attended_from_year',
      undefined,
    ],
  ];
  for (const [prefix, label] of [
    ['college_2_', 'College 2'],
    ['college_3_', 'College 3'],
  ] as const) {
    cases.push(
      [`${label}: empty`, {}, `${prefix}name`, undefined],
      [`${label}: empty, no months asked`, {}, `${prefix}attended_from_month`, undefined],
      [
        `${label}: named, no start month`,
        { [`${prefix}name`]: 'Miami Dade College' },
        `${prefix}attended_from_month`,
        [`${label}: Please select the month you started attending.`],
      ],
      [
        `${label}: named, no end month`,
        { [`${prefix}name`]: 'Miami Dade College' },
        `${prefix}attended_to_month`,
        [`${label}: Please select the month you stopped attending, or expect to.`],
      ],
      [
        `${label}: named with months`,
        {
          [`${prefix}name`]: 'Miami Dade College',
          [`${prefix}attended_from_month`]: '1',
          [`${prefix}attended_to_month`]: '12',
        },
        `${prefix}attended_to_month`,
        undefined,
      ],
    );
  }
  runCases(cases, three);
});

describe('Your Academics: high schools', () => {
  const three = { state: { addAnother: { high_schools: 3 } } };
  const noSchool = {
    high_school_diploma: '',
    hs_name: '',
    hs_attended_from_month: '',
    hs_attended_from_year: '',
    hs_attended_to_month: '',
    hs_attended_to_year: '',
  };
  const second = { hs_2_name: 'Dillard High School' };
  runCases(
    [
      [
        'no credits since high school: diploma asked',
        { ...noSchool, transfer_student_credits: 'F' },
        'high_school_diploma',
        [E.highSchoolDiploma],
      ],
      [
        'credits since high school: diploma optional',
        { ...noSchool, transfer_student_credits: 'T' },
        'high_school_diploma',
        undefined,
      ],
      [
        'graduate without a school name',
        { ...noSchool, high_school_diploma: 'GRAD' },
        'hs_name',
        ['High School 1: Please enter the name of your high school.'],
      ],
      [
        'GED without a school name',
        { ...noSchool, high_school_diploma: 'GED' },
        'hs_name',
        undefined,
      ],
      [
        'named school without a start month',
        { ...noSchool, high_school_diploma: 'GED', hs_name: 'Plantation High School' },
        'hs_attended_from_month',
        ['High School 1: Please select the month you started.'],
      ],
      [
        'named school without a start year',
        { ...noSchool, high_school_diploma: 'GED', hs_name: 'Plantation High School' },
        'hs_attended_from_year',
        ['High School 1: Please select the year you started.'],
      ],
      [
        'GED: no graduation date asked',
        { ...noSchool, high_school_diploma: 'GED', hs_name: 'Plantation High School' },
        'hs_attended_to_year',
        undefined,
      ],
      [
        'graduate without a graduation month',
        { ...noSchool, high_school_diploma: 'GRAD', hs_name: 'Plantation High School' },
        'hs_attended_to_month',
        ['High School 1: Please select the month you graduated.'],
      ],
      [
        'graduate without a graduation year',
        { ...noSchool, high_school_diploma: 'GRAD', hs_name: 'Plantation High School' },
        'hs_attended_to_year',
        ['High School 1: Please select the year you graduated.'],
      ],
      ['school 2 empty: nothing asked', {}, 'hs_2_name', undefined],
      ['school 2 empty: no dates asked', {}, 'hs_2_attended_from_month', undefined],
      [
        'school 2 named: start asked',
        second,
        'hs_2_attended_from_month',
        ['High School 2: Please select the month you started.'],
      ],
      [
        'school 2 named, graduate: graduation date asked',
        second,
        'hs_2_attended_to_year',
        ['High School 2: Please select the year you graduated.'],
      ],
      [
        'school 3 named, GED: no graduation date asked',
        { high_school_diploma: 'GED', hs_3_name: 'Online Academy' },
        'hs_3_attended_to_year',
        undefined,
      ],
      [
        'school 3 named: start asked',
        { hs_3_name: 'Online Academy' },
        'hs_3_attended_from_year',
        ['High School 3: Please select the year you started.'],
      ],
      ['GPA without a scale', { hs_gpa: '3.4', gpa_scale: '' }, 'gpa_scale', [E.gpaScale]],
      ['no GPA, no scale', { hs_gpa: '', gpa_scale: '' }, 'gpa_scale', undefined],
    ],
    three,
  );
});

describe('Your Academics: personal statement', () => {
  const film = MAJOR.film;
  const upload = { state: { tabs: { personal_statement: 'upload' } } };
  const noEssay = { personal_statement_essay: '' };
  const withEssay = { personal_statement_essay: 'My story.' };
  it.each([
    [
      'Film, writing, no essay',
      film,
      noEssay,
      {},
      'personal_statement_essay',
      [E.personalStatementEssay],
    ],
    ['Film, writing, an essay', film, withEssay, {}, 'personal_statement_essay', undefined],
    [
      'Film, uploading, no file',
      film,
      noEssay,
      upload,
      'personal_statement_doc',
      [E.personalStatementDoc],
    ],
    [
      'another program, writing, no essay',
      PSYCHOLOGY,
      noEssay,
      {},
      'personal_statement_essay',
      undefined,
    ],
    [
      'another program, uploading, no file',
      PSYCHOLOGY,
      noEssay,
      upload,
      'personal_statement_doc',
      undefined,
    ],
  ])('%s', (_name, major, patch, options, key, expected) => {
    expect(errorsOf(patch, { major, ...options })[key]).toEqual(expected);
  });

  it('accepts an uploaded file for Film', () => {
    const errors = errorsOf(
      { personal_statement_essay: '', personal_statement_doc: 'ANSWERED' },
      { major: film, state: { tabs: { personal_statement: 'upload' } } },
    );
    expect(errors).toEqual({});
  });

  it('shows anonymous visitors the writing tab only', () => {
    const errors = errorsOf(
      { personal_statement_essay: '' },
      { major: film, state: { isLoggedIn: false, tabs: { personal_statement: 'upload' } } },
    );
    expect(errors.personal_statement_essay).toEqual([E.personalStatementEssay]);
    expect(errors.personal_statement_doc).toBeUndefined();
  });
});

describe('Your Academics: questions by program code', () => {
  const QUESTIONS: Record<string, readonly string[]> = {
    study_location: PROGRAM_QUESTIONS.study_location,
    bacc_degree: PROGRAM_QUESTIONS.bacc_degree,
    online_master_health: PROGRAM_QUESTIONS.online_master_health,
    degree_rt: PROGRAM_QUESTIONS.respiratory_therapy,
    nbrc_registration: PROGRAM_QUESTIONS.respiratory_therapy,
    work_rrt: PROGRAM_QUESTIONS.respiratory_therapy,
    credits_english: PROGRAM_QUESTIONS.credits_english,
    credits_math: PROGRAM_QUESTIONS.credits_math,
    credits_humanities: PROGRAM_QUESTIONS.credits_humanities,
    credits_social: PROGRAM_QUESTIONS.credits_social,
    credits_biological: PROGRAM_QUESTIONS.credits_biological,
    health_care_experience: PROGRAM_QUESTIONS.health,
    health_certifications: PROGRAM_QUESTIONS.health,
    prior_matriculation: PROGRAM_QUESTIONS.health,
    distance_edu: PROGRAM_QUESTIONS.distance_edu,
    extracurricular_activities: PROGRAM_QUESTIONS.activities,
    special_circumstances: PROGRAM_QUESTIONS.activities,
  };

  it('follows the spec matrix', () => {
    expect(QUESTIONS).toMatchObject({
      study_location: ['6', '7', '313', '748'],
      bacc_degree: ['6', '7'],
      online_master_health: ['6', '7'],
      degree_rt: ['748', '313'],
      credits_english: ['748', '313'],
      credits_math: ['748', '313', '6'],
      credits_biological: ['313'],
      health_care_experience: ['748', '313', '6', '7'],
      prior_matriculation: ['748', '313', '6', '7'],
      distance_edu: ['748', '313', '7'],
      extracurricular_activities: ['748', '313'],
      special_circumstances: ['748', '313'],
    });
  });

  const cases = Object.entries(QUESTIONS).flatMap(([key, codes]) =>
    [...SPECIAL_MAJORS, PSYCHOLOGY].map((major) => [key, major, codes.includes(major)] as const),
  );
  it.each(cases)('%s for program %s is required: %s', (key, major, asked) => {
    const errors = errorsOf({ [key]: '' }, { major });
    if (asked) expect(errors[key]).toHaveLength(1);
    else expect(errors[key]).toBeUndefined();
  });

  it.each([
    [MAJOR.respiratoryTherapy, 'Y', '', [E.distanceEduExplain]],
    [MAJOR.cardiopulmonary, 'Y', '', [E.distanceEduExplain]],
    [MAJOR.rnToBsn, 'Y', '', [E.distanceEduExplain]],
    [MAJOR.rnToBsn, 'Y', 'Two courses.', undefined],
    [MAJOR.rnToBsn, 'N', '', undefined],
    [MAJOR.nursing, 'Y', '', undefined],
  ])('program %s, online courses %s, explanation "%s"', (major, distance, explain, expected) => {
    const errors = errorsOf({ distance_edu: distance, distance_edu_explain: explain }, { major });
    expect(errors.distance_edu_explain).toEqual(expected);
  });
});

describe('Final Steps: fee waiver', () => {
  const noReasons = Object.fromEntries(FEE_WAIVER_REASONS.map(([key]) => [key, false]));
  const signed = { fee_waiver: 'Y', fee_waiver_signature: 'Maria Lopez' };

  it('asks nothing without a fee waiver request', () => {
    expect(errorsOf({ fee_waiver: 'N' })).toEqual({});
    expect(errorsOf({ fee_waiver: '' })).toEqual({});
  });

  it('asks for a reason and a signature with a request', () => {
    const errors = errorsOf({ ...noReasons, fee_waiver: 'Y' });
    expect(errors).toEqual({
      fee_waiver_testing: [F.feeWaiverReason],
      fee_waiver_signature: [F.feeWaiverSignature],
    });
    expect(F.feeWaiverReason).toBe(
      'You must meet one or more of the following conditions to qualify for a fee waiver. Please select all that apply.',
    );
  });

  it.each(FEE_WAIVER_REASONS.map(([key]) => key))('accepts the reason %s alone', (key) => {
    expect(errorsOf({ ...noReasons, ...signed, [key]: true })).toEqual({});
  });

  it('asks for the signature even with reasons', () => {
    const errors = errorsOf({ fee_waiver: 'Y', fee_waiver_income: true });
    expect(errors).toEqual({ fee_waiver_signature: [F.feeWaiverSignature] });
  });
});

describe('Final Steps: disclosures and agreements', () => {
  runCases([
    ['conviction unanswered', { conviction: '' }, 'conviction', [F.conviction]],
    [
      'conviction yes without comment',
      { conviction: 'Y' },
      'conviction_comment',
      [F.convictionComment],
    ],
    [
      'conviction yes with comment',
      { conviction: 'Y', conviction_comment: 'A 2019 misdemeanor.' },
      'conviction_comment',
      undefined,
    ],
    ['conviction no', { conviction: 'N' }, 'conviction_comment', undefined],
    ['pending charges unanswered', { protective: '' }, 'protective', [F.protective]],
    [
      'pending charges yes without comment',
      { protective: 'Y' },
      'protective_comment',
      [F.protectiveComment],
    ],
    [
      'incarceration unanswered',
      { currently_incarcerated: '' },
      'currently_incarcerated',
      undefined,
    ],
    [
      'incarceration yes without comment',
      { currently_incarcerated: 'Y' },
      'currently_incarcerated_comment',
      [F.currentlyIncarceratedComment],
    ],
    [
      'licensure unanswered',
      { professional_licensure: '' },
      'professional_licensure',
      [F.professionalLicensure],
    ],
    [
      'licensure yes without comment',
      { professional_licensure: 'Y' },
      'professional_licensure_comment',
      [F.professionalLicensureComment],
    ],
    [
      'continuing duty not ticked',
      { continuing_duty_disclosure: false },
      'continuing_duty_disclosure',
      [F.continuingDutyDisclosure],
    ],
    [
      'continuing duty empty',
      { continuing_duty_disclosure: '' },
      'continuing_duty_disclosure',
      [F.continuingDutyDisclosure],
    ],
    ['legal agreement not ticked', { legal_agree: false }, 'legal_agree', [F.legalAgree]],
    [
      'counselor waiver unanswered',
      { counselor_waiver_request: '' },
      'counselor_waiver_request',
      [F.counselorWaiverRequest],
    ],
    [
      'counselor waiver declined',
      { counselor_waiver_request: 'N' },
      'counselor_waiver_request',
      undefined,
    ],
  ]);
});
