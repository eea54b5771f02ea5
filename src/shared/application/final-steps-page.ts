import type { Field, Page } from '../form/model';
import { required, text, textarea, yesNo, yesNoWithComment } from './items';
import { counselorWaiverOptions } from './option-lists';

/** Page 3 of spec 001: fee waiver, COVID-19, disclosures and the applicant's agreements. */

export const FINAL_STEPS_MESSAGES = {
  feeWaiverReason:
    'You must meet one or more of the following conditions to qualify for a fee waiver. Please select all that apply.',
  feeWaiverSignature: 'Please sign your fee waiver request by typing your full name.',
  conviction: 'Please answer the question about criminal convictions.',
  convictionComment: 'Please explain your answer about criminal convictions.',
  protective: 'Please answer the question about pending charges and protective orders.',
  protectiveComment: 'Please explain your answer about pending charges or protective orders.',
  currentlyIncarceratedComment: 'Please explain your answer about incarceration.',
  professionalLicensure: 'Please answer the question about professional licenses.',
  professionalLicensureComment: 'Please explain your answer about professional licenses.',
  continuingDutyDisclosure: 'Please confirm that you will tell us if any of these answers change.',
  counselorWaiverRequest:
    'Please tell us whether you waive your right to see your recommendations.',
  legalAgree: 'Please certify that your application is complete and true.',
} as const;

/** The reasons that qualify for a fee waiver, as reason flag keys and their labels. */
export const FEE_WAIVER_REASONS: ReadonlyArray<readonly [key: string, label: string]> = [
  ['fee_waiver_testing', 'I received or am eligible for an ACT or SAT testing fee waiver.'],
  [
    'fee_waiver_income',
    "My family's annual income is within the U.S. Department of Agriculture's income eligibility guidelines for free or reduced-price meals.",
  ],
  [
    'fee_waiver_lunch',
    'I am enrolled in, or eligible for, the federal free or reduced-price lunch program.',
  ],
  [
    'fee_waiver_trio',
    'I take part in a program for students from low-income families, such as TRIO (for example Upward Bound).',
  ],
  ['fee_waiver_pa', 'My family receives public assistance.'],
  [
    'fee_waiver_housing',
    'I live in federally subsidized public housing or a foster home, or I am homeless.',
  ],
  [
    'fee_waiver_statement',
    'A school official, counselor, financial aid officer or community leader can confirm my need in a statement.',
  ],
  ['fee_waiver_ward', 'I am a ward of the state or an orphan.'],
  ['fee_waiver_disaster', 'My family or I have been affected by a natural disaster.'],
];

/** The reason error sits on the first checkbox, where the list of reasons starts. */
const reasonFields = FEE_WAIVER_REASONS.map(
  ([key, label], index): Field => ({
    kind: 'field',
    key,
    widget: 'checkbox',
    label,
    ...(index === 0
      ? {
          rules: [
            {
              type: 'anyAnswered',
              keys: FEE_WAIVER_REASONS.map(([reason]) => reason),
              message: FINAL_STEPS_MESSAGES.feeWaiverReason,
            },
          ],
        }
      : {}),
  }),
);

const feeWaiver = yesNo('fee_waiver', 'Are you requesting a waiver of the application fee?', {
  help: 'If one of the conditions shown after you answer yes applies to you, we waive the fee.',
  optionContent: {
    Y: [
      {
        kind: 'block',
        id: 'fee_waiver_reasons',
        description:
          'Which of these conditions apply to you? Select at least one, and all that apply.',
        items: reasonFields,
      },
      text('fee_waiver_signature', 'Type your full name to sign your fee waiver request', {
        help: 'By signing you confirm that the conditions you selected apply to you.',
        maxLength: 100,
        autoComplete: 'name',
        rules: [required(FINAL_STEPS_MESSAGES.feeWaiverSignature)],
      }),
    ],
  },
});

const disclosures: Field[] = [
  yesNoWithComment(
    'conviction',
    'Have you ever been convicted of a misdemeanor or a felony?',
    {
      label: 'Please explain: the offense, when it happened and what followed.',
      message: FINAL_STEPS_MESSAGES.convictionComment,
    },
    {
      help: 'Answer yes even if the record was sealed or expunged. A yes does not by itself keep you from being admitted.',
      rules: [required(FINAL_STEPS_MESSAGES.conviction)],
    },
  ),
  yesNoWithComment(
    'protective',
    'Are criminal charges pending against you, or is a protective (restraining) order in force against you?',
    {
      label: 'Please explain the charges or the order.',
      message: FINAL_STEPS_MESSAGES.protectiveComment,
    },
    { rules: [required(FINAL_STEPS_MESSAGES.protective)] },
  ),
  yesNoWithComment('currently_incarcerated', 'Are you currently incarcerated?', {
    label: 'Please explain, including when you expect to be released.',
    message: FINAL_STEPS_MESSAGES.currentlyIncarceratedComment,
  }),
  yesNoWithComment(
    'professional_licensure',
    'Has a professional license or certification of yours ever been denied, suspended, revoked or restricted?',
    {
      label: 'Please explain: which license, when and why.',
      message: FINAL_STEPS_MESSAGES.professionalLicensureComment,
    },
    {
      help: 'For example a nursing, teaching or respiratory therapy license.',
      rules: [required(FINAL_STEPS_MESSAGES.professionalLicensure)],
    },
  ),
  {
    kind: 'field',
    key: 'continuing_duty_disclosure',
    widget: 'checkbox',
    label:
      'If any of these answers changes before I enroll, I will tell the admissions office within 10 days.',
    rules: [{ type: 'mustBeChecked', message: FINAL_STEPS_MESSAGES.continuingDutyDisclosure }],
  },
];

export const finalStepsPage: Page = {
  id: 'final-steps',
  route: '/final-steps',
  title: 'Final Steps',
  items: [
    { kind: 'block', id: 'fee', title: 'Application fee', items: [feeWaiver] },
    {
      kind: 'block',
      id: 'covid',
      title: 'COVID-19',
      items: [
        yesNo('covid_question', 'Did the COVID-19 pandemic disrupt your studies?', {
          help: 'For example a move online, a lost job or illness in your family.',
          optionContent: {
            Y: [textarea('covid_explain', 'Tell us how, if you wish.')],
          },
        }),
      ],
    },
    { kind: 'block', id: 'disclosures', title: 'Disclosures', items: disclosures },
    {
      kind: 'block',
      id: 'agreements',
      title: 'Agreements',
      items: [
        {
          kind: 'field',
          key: 'counselor_waiver_request',
          widget: 'radio',
          label:
            'Do you waive your right to see the recommendations your counselors and teachers send us?',
          options: counselorWaiverOptions,
          help:
            'The U.S. Family Educational Rights and Privacy Act (FERPA) gives you the right to see ' +
            'them once you enroll. Waiving it tells readers the letters were written in confidence; ' +
            'either answer is fine.',
          rules: [required(FINAL_STEPS_MESSAGES.counselorWaiverRequest)],
        },
        {
          kind: 'field',
          key: 'legal_agree',
          widget: 'checkbox',
          label:
            'I certify that the information in my application is complete and true. I understand ' +
            'that false or missing information may cancel my admission or enrollment.',
          rules: [{ type: 'mustBeChecked', message: FINAL_STEPS_MESSAGES.legalAgree }],
        },
      ],
    },
  ],
};
