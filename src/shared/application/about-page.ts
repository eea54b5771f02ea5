import type { ConditionExpr, Field, Page, Repeat, Rule } from '../form/model';
import {
  addressBlock,
  answered,
  EMAIL_PATTERN,
  equals,
  isIn,
  numberedInstances,
  PHONE_PATTERN,
  required,
  schoolSearchBlock,
  text,
  yesNo,
} from './items';
import {
  CITIZENSHIP,
  COLLEGE_EDUCATION_LEVELS,
  citizenshipTypeOptions,
  communicationPreferenceOptions,
  countryOptions,
  countryOptionsWithoutUS,
  educationLevelOptions,
  ethnicityOptions,
  familyRelationshipOptions,
  genderOptions,
  legacyRelationshipOptions,
  militaryBranchOptions,
  militaryStatusOptions,
  namePrefixOptions,
  OTHER,
  suffixOptions,
  visaStatusOptions,
} from './option-lists';

/** Page 1 of spec 001: name and contact, addresses, citizenship, military service and family. */

export const ABOUT_MESSAGES = {
  firstName: 'Please enter your first name.',
  lastName: 'Please enter your last name.',
  gender: 'Please select your gender.',
  birthDate: 'A valid date of birth is required.',
  minimumAge: 'You must be 13 years or older to apply.',
  birthDateTooEarly: 'This date is not supported. Please contact help support for assistance.',
  homePhone: 'Please enter a valid home phone number.',
  cellPhone: 'Please enter a valid cell phone number.',
  anyPhone: 'Please enter a domestic or international home phone or cell phone number.',
  smsNeedsCell:
    'A domestic or international cell phone number is required to receive text message updates.',
  addressLine1: 'Please enter your street address.',
  city: 'Please enter your city.',
  country: 'Please select your country.',
  state: 'Please select your state or province.',
  zip: 'Please enter your ZIP/Postal Code.',
  mailingAddressLine1: 'Please enter your mailing street address.',
  mailingCity: 'Please enter the city of your mailing address.',
  mailingCountry: 'Please select the country of your mailing address.',
  mailingState: 'Please select the state or province of your mailing address.',
  mailingZip: 'Please enter the ZIP/Postal Code of your mailing address.',
  citizenshipType: 'Please select your citizenship status.',
  citizenship: 'Please select your country of citizenship.',
  alienRegistrationNumber: 'Please enter your Alien Registration Number (A-Number).',
  visaStatus: 'Please select your visa status.',
  minimumYear: 'The minimum supported year is {year}',
  maximumYear: 'The maximum supported year is {year}',
  familyEmail: '{instance}: Please enter a valid email address.',
  familyPhone: '{instance}: Please enter a valid phone number.',
} as const;

/** Spec 001 section 9: military start dates from 74 years ago; end dates +3 (first branch), +5. */
export const MILITARY_EARLIEST_YEARS_AGO = 74;
export const MILITARY_FIRST_BRANCH_END_YEARS_AHEAD = 3;
export const MILITARY_OTHER_BRANCH_END_YEARS_AHEAD = 5;

const militaryYears = (maxYearsAhead: number, instances?: readonly number[]): Rule => ({
  type: 'yearRange',
  minYearsAgo: MILITARY_EARLIEST_YEARS_AGO,
  maxYearsAhead,
  minMessage: ABOUT_MESSAGES.minimumYear,
  maxMessage: ABOUT_MESSAGES.maximumYear,
  ...(instances ? { instances } : {}),
});

const nameItems: Field[] = [
  text('first_name', 'First name', {
    autoComplete: 'given-name',
    rules: [required(ABOUT_MESSAGES.firstName)],
  }),
  text('middle_name', 'Middle name', { autoComplete: 'additional-name' }),
  text('last_name', 'Last name', {
    autoComplete: 'family-name',
    help: 'Your family name (surname), as on your official documents.',
    rules: [required(ABOUT_MESSAGES.lastName)],
  }),
  {
    kind: 'field',
    key: 'suffix',
    widget: 'select',
    label: 'Suffix',
    options: suffixOptions,
    autoComplete: 'honorific-suffix',
  },
  text('preferred_name', 'Preferred first name', {
    help: 'The name you go by, if it differs from your first name.',
    autoComplete: 'nickname',
  }),
  text('prev_lname', 'Former last name', {
    help: 'If your school records show a different last name, enter it so we can match your transcripts.',
  }),
];

const personalItems: Field[] = [
  {
    kind: 'field',
    key: 'birth_date',
    widget: 'date',
    label: 'Date of birth',
    autoComplete: 'bday',
    rules: [
      required(ABOUT_MESSAGES.birthDate),
      { type: 'date', message: ABOUT_MESSAGES.birthDate },
      { type: 'minAgeYears', years: 13, message: ABOUT_MESSAGES.minimumAge },
      { type: 'notBeforeYearsAgo', years: 100, message: ABOUT_MESSAGES.birthDateTooEarly },
    ],
  },
  {
    kind: 'field',
    key: 'gender',
    widget: 'select',
    label: 'Gender',
    options: genderOptions,
    help: 'We report this in totals to the government; it does not affect your admission decision.',
    rules: [required(ABOUT_MESSAGES.gender)],
  },
];

const PHONE_KEYS = [
  'phone_home',
  'phone_international',
  'phone_mobile',
  'phone_mobile_international',
];
const CELL_KEYS = ['phone_mobile', 'phone_mobile_international'];
const INTERNATIONAL_PHONE_HELP =
  'For a number outside the United States: include the country code, for example +44 20 7946 0958.';

const phoneItems: Field[] = [
  {
    kind: 'field',
    key: 'phone_home',
    widget: 'phone',
    label: 'Home phone',
    help: 'Give at least one phone number: home or cell, in the United States or abroad.',
    autoComplete: 'home tel-national',
    rules: [
      { type: 'pattern', pattern: PHONE_PATTERN, message: ABOUT_MESSAGES.homePhone },
      { type: 'anyAnswered', keys: PHONE_KEYS, message: ABOUT_MESSAGES.anyPhone },
    ],
  },
  text('phone_international', 'International home phone', {
    maxLength: 25,
    help: INTERNATIONAL_PHONE_HELP,
  }),
  {
    kind: 'field',
    key: 'phone_mobile',
    widget: 'phone',
    label: 'Cell phone',
    autoComplete: 'mobile tel-national',
    rules: [
      { type: 'pattern', pattern: PHONE_PATTERN, message: ABOUT_MESSAGES.cellPhone },
      {
        type: 'anyAnswered',
        keys: CELL_KEYS,
        message: ABOUT_MESSAGES.smsNeedsCell,
        when: { valueKey: 'optin_sms_ind', operator: 'equals', target: true },
      },
    ],
  },
  text('phone_mobile_international', 'International cell phone', {
    maxLength: 25,
    help: INTERNATIONAL_PHONE_HELP,
  }),
  {
    kind: 'field',
    key: 'optin_sms_ind',
    widget: 'checkbox',
    label: 'Send me text message updates about my application',
    help: 'We text your cell phone. Message and data rates may apply; reply STOP to end them.',
  },
];

const permanentAddress = addressBlock({
  id: 'permanent_address',
  title: 'Permanent address',
  description: 'Where you live: your home address.',
  keyPrefix: '',
  autoComplete: '',
  messages: {
    line1: ABOUT_MESSAGES.addressLine1,
    city: ABOUT_MESSAGES.city,
    country: ABOUT_MESSAGES.country,
    state: ABOUT_MESSAGES.state,
    zip: ABOUT_MESSAGES.zip,
  },
});

const mailingAddress = yesNo(
  'mailing_addr_same_as_perm_addr',
  'Is your mailing address the same as your permanent address?',
  {
    optionContent: {
      N: [
        addressBlock({
          id: 'mailing_address',
          title: 'Mailing address',
          description: 'Where we should send letters to you.',
          keyPrefix: 'mailing_',
          autoComplete: 'section-mailing',
          messages: {
            line1: ABOUT_MESSAGES.mailingAddressLine1,
            city: ABOUT_MESSAGES.mailingCity,
            country: ABOUT_MESSAGES.mailingCountry,
            state: ABOUT_MESSAGES.mailingState,
            zip: ABOUT_MESSAGES.mailingZip,
          },
        }),
      ],
    },
  },
);

const citizenshipType = (types: readonly string[]): ConditionExpr =>
  isIn('citizenship_type', types);

const citizenshipItems: Field[] = [
  {
    kind: 'field',
    key: 'citizenship_type',
    widget: 'select',
    label: 'Citizenship status',
    options: citizenshipTypeOptions,
    help:
      'Your status in the United States today. Permanent residents hold a green card; if you hold ' +
      'or will need a visa to study here, choose the visa option.',
    rules: [required(ABOUT_MESSAGES.citizenshipType)],
  },
  {
    kind: 'field',
    key: 'citizenship',
    widget: 'select',
    label: 'Country of citizenship',
    options: countryOptionsWithoutUS,
    showWhen: citizenshipType([
      CITIZENSHIP.permanentResident,
      CITIZENSHIP.nonResident,
      CITIZENSHIP.other,
    ]),
    rules: [required(ABOUT_MESSAGES.citizenship)],
  },
  {
    kind: 'field',
    key: 'birth_country',
    widget: 'select',
    label: 'Country of birth',
    options: countryOptions,
  },
  text('alien_registration_number', 'Alien Registration Number (A-Number)', {
    maxLength: 12,
    help: 'The 8 or 9 digit USCIS number on your green card, for example A123456789.',
    showWhen: equals('citizenship_type', CITIZENSHIP.permanentResident),
    rules: [required(ABOUT_MESSAGES.alienRegistrationNumber)],
  }),
  {
    kind: 'field',
    key: 'citizenship_visa_status',
    widget: 'select',
    label: 'Visa status',
    options: visaStatusOptions,
    help: 'The U.S. visa you hold now, or "I do not have a U.S. visa yet".',
    showWhen: equals('citizenship_type', CITIZENSHIP.nonResident),
    rules: [required(ABOUT_MESSAGES.visaStatus)],
  },
  yesNo('attend_student_visa', 'Will you need an F-1 student visa to study with us?', {
    help: 'We send the form you need for the visa (the I-20) after you are admitted.',
    showWhen: citizenshipType([CITIZENSHIP.nonResident, CITIZENSHIP.other]),
  }),
];

const RACES: ReadonlyArray<readonly [key: string, label: string]> = [
  ['race_american_indian', 'American Indian or Alaska Native'],
  ['race_asian', 'Asian'],
  ['race_black', 'Black or African American'],
  ['race_native_hawaiian', 'Native Hawaiian or Other Pacific Islander'],
  ['race_white', 'White'],
];

const militaryBranches: Repeat = {
  kind: 'repeat',
  id: 'military_branches',
  title: 'Branches of service',
  addLabel: 'branch',
  instances: numberedInstances('military_branch', 'Branch', 3),
  items: [
    {
      kind: 'field',
      key: 'name',
      widget: 'select',
      label: 'Branch',
      options: militaryBranchOptions,
    },
    {
      kind: 'field',
      key: 'start_date',
      widget: 'date',
      label: 'Start date',
      rules: [militaryYears(0)],
    },
    {
      kind: 'field',
      key: 'end_date',
      widget: 'date',
      label: 'End date (expected, if you are still serving)',
      rules: [
        militaryYears(MILITARY_FIRST_BRANCH_END_YEARS_AHEAD, [0]),
        militaryYears(MILITARY_OTHER_BRANCH_END_YEARS_AHEAD, [1, 2]),
      ],
    },
  ],
};

const militaryService = yesNo(
  'military_service',
  'Have you served, or are you serving, in the U.S. armed forces?',
  {
    help: 'Including the Reserve and the National Guard.',
    optionContent: {
      Y: [
        {
          kind: 'field',
          key: 'armed_forces_status',
          widget: 'select',
          label: 'Your military status today',
          options: militaryStatusOptions,
        },
        {
          kind: 'field',
          key: 'anticipated_armed_forces_status',
          widget: 'select',
          label: 'Your military status when you start classes',
          options: militaryStatusOptions,
        },
        militaryBranches,
        yesNo('other_discharge', 'Were you discharged under conditions other than honorable?'),
      ],
    },
  },
);

const familyMembers: Repeat = {
  kind: 'repeat',
  id: 'family_members',
  title: 'Family members',
  addLabel: 'family member',
  instances: [
    ...numberedInstances('parent', 'Family Member', 2),
    { prefix: 'other_', label: 'Other' },
  ],
  items: [
    {
      kind: 'field',
      key: 'relationship',
      widget: 'select',
      label: 'Relationship to you',
      options: familyRelationshipOptions,
    },
    { kind: 'field', key: 'prefix', widget: 'select', label: 'Title', options: namePrefixOptions },
    text('first_name', 'First name'),
    text('middle_name', 'Middle name'),
    text('last_name', 'Last name'),
    { kind: 'field', key: 'suffix', widget: 'select', label: 'Suffix', options: suffixOptions },
    {
      kind: 'field',
      key: 'email',
      widget: 'email',
      label: 'Email address',
      maxLength: 100,
      rules: [{ type: 'pattern', pattern: EMAIL_PATTERN, message: ABOUT_MESSAGES.familyEmail }],
    },
    {
      kind: 'field',
      key: 'phone',
      widget: 'phone',
      label: 'Phone',
      rules: [{ type: 'pattern', pattern: PHONE_PATTERN, message: ABOUT_MESSAGES.familyPhone }],
    },
    {
      kind: 'field',
      key: 'education',
      widget: 'select',
      label: 'Highest level of education',
      options: educationLevelOptions,
    },
    text('education_other', 'Other education', {
      help: 'Describe the highest education completed.',
      maxLength: 100,
      showWhen: equals('$education', OTHER),
    }),
    text('occupation', 'Occupation', { maxLength: 100 }),
    text('employer', 'Employer', { maxLength: 100 }),
    {
      kind: 'field',
      key: 'address_same_as_student',
      widget: 'checkbox',
      label: 'Lives at my permanent address',
    },
    addressBlock({
      id: 'family_address',
      title: 'Address',
      keyPrefix: '',
      conditionPrefix: '$',
      showWhen: { not: answered('$address_same_as_student') },
    }),
    schoolSearchBlock({
      id: 'family_college',
      category: 'college_ceeb',
      title: 'College attended',
      keyPrefix: 'college_',
      ceebKey: 'ceeb',
      nameLabel: 'College name',
      showWhen: isIn('$education', COLLEGE_EDUCATION_LEVELS),
    }),
  ],
};

const legacyRelatives: Repeat = {
  kind: 'repeat',
  id: 'legacy_relatives',
  title: 'Relatives who attended the university',
  addLabel: 'relative',
  instances: numberedInstances('legacy', 'Relative', 4),
  items: [
    {
      kind: 'field',
      key: 'relationship',
      widget: 'select',
      label: 'Relationship to you',
      options: legacyRelationshipOptions,
    },
    text('first_name', 'First name'),
    text('last_name', 'Last name', { help: 'The last name they had while at the university.' }),
  ],
};

export const aboutPage: Page = {
  id: 'about',
  route: '/about',
  title: 'About You',
  items: [
    { kind: 'block', id: 'name', title: 'Your name', items: nameItems },
    { kind: 'block', id: 'personal', title: 'Date of birth and gender', items: personalItems },
    { kind: 'block', id: 'phone', title: 'Phone', items: phoneItems },
    permanentAddress,
    mailingAddress,
    { kind: 'block', id: 'citizenship', title: 'Citizenship', items: citizenshipItems },
    {
      kind: 'block',
      id: 'ethnicity_race',
      title: 'Ethnicity and race',
      description:
        'We report these in totals to the government; they do not affect your admission decision.',
      items: [
        {
          kind: 'field',
          key: 'ethnicity',
          widget: 'radio',
          label: 'Are you Hispanic or Latino?',
          options: ethnicityOptions,
        },
        {
          kind: 'block',
          id: 'race',
          description: 'Which of these describe you? Select all that apply.',
          items: RACES.map(
            ([key, label]): Field => ({ kind: 'field', key, widget: 'checkbox', label }),
          ),
        },
      ],
    },
    { kind: 'block', id: 'military', title: 'Military service', items: [militaryService] },
    {
      kind: 'block',
      id: 'family',
      title: 'Family',
      items: [
        yesNo('submit_parent_info', 'Would you like to tell us about your parents or guardians?', {
          help: 'It helps us with scholarships and support for first-generation students.',
          optionContent: {
            Y: [
              {
                kind: 'field',
                key: 'parent_communication_preference',
                widget: 'radio',
                label: 'How may we contact your family about your application?',
                options: communicationPreferenceOptions,
              },
              familyMembers,
            ],
          },
        }),
        yesNo('first_gen', "Will you be the first in your family to earn a bachelor's degree?", {
          help: "That is: neither of your parents or guardians has a four-year (bachelor's) degree.",
        }),
      ],
    },
    {
      kind: 'block',
      id: 'legacy',
      title: 'Connections to the university',
      items: [
        yesNo(
          'nsu_employee_dependent',
          'Is your parent, guardian or spouse employed by the university?',
        ),
        yesNo('nsu_alumni', 'Has a member of your family attended the university?', {
          optionContent: { Y: [legacyRelatives] },
        }),
      ],
    },
  ],
};
