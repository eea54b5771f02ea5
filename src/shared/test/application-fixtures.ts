import { applicationModel } from '../application/application-model';
import { PROGRAM_QUESTIONS } from '../application/education-page';
import { MAJOR, PSYCHOLOGY } from '../application/option-lists';
import type { Answers, Field, FormState } from '../form/model';
import { DESC_SUFFIX, storesDesc } from '../form/model';
import { resolveModel } from '../form/resolve';

/**
 * A complete, valid application for unit and end-to-end tests: every required answer for the
 * chosen program, nothing that the answers hide, and the `_desc` label of every choice.
 */

const everyPlace = resolveModel(applicationModel, {
  answers: {},
  addAnother: {},
  tabs: {},
  isLoggedIn: true,
});

function fieldOf(key: string): Field {
  const place = everyPlace.find((candidate) => candidate.key === key);
  if (!place) throw new Error(`"${key}" is not an answer key of the application`);
  return place.field;
}

/** The first real choice the model offers for a key (entry terms follow the current year). */
function firstChoice(key: string): string {
  return fieldOf(key).options?.find((option) => option.value !== '')?.value ?? '';
}

/** Adds `{key}_desc` with the chosen label for every select and radio answer, as the widgets do. */
export function withDescriptions(answers: Answers): Answers {
  const described: Answers = { ...answers };
  for (const place of everyPlace) {
    const value = answers[place.key];
    if (!storesDesc(place.field) || typeof value !== 'string' || value === '') continue;
    const label = place.field.options?.find((option) => option.value === value)?.label;
    if (label !== undefined) described[`${place.key}${DESC_SUFFIX}`] = label;
  }
  return described;
}

const asks = (question: keyof typeof PROGRAM_QUESTIONS, major: string) =>
  (PROGRAM_QUESTIONS[question] as readonly string[]).includes(major);

const about: Answers = {
  first_name: 'Maria',
  middle_name: 'Elena',
  last_name: 'Lopez',
  preferred_name: 'Mari',
  birth_date: '2000-05-15',
  gender: 'F',
  phone_home: '(954) 262-8000',
  phone_mobile: '(954) 555-0123',
  optin_sms_ind: true,
  address_line_1: '3301 College Avenue',
  city: 'Fort Lauderdale',
  state: 'FL',
  zip: '33314',
  country: 'USA',
  mailing_addr_same_as_perm_addr: 'Y',
  citizenship_type: '1',
  birth_country: 'USA',
  ethnicity: 'Y',
  race_white: true,
  military_service: 'N',
  submit_parent_info: 'N',
  first_gen: 'Y',
  nsu_employee_dependent: 'N',
  nsu_alumni: 'N',
};

const academics: Answers = {
  phi_member: 'N',
  transfer_student_credits: 'T',
  credits_transfer: '60',
  entry_term: firstChoice('entry_term'),
  decision_type: 'REG',
  campus_housing: 'Y',
  premier_program: 'N',
  high_school_diploma: 'GRAD',
  hs_name: 'Plantation High School',
  hs_city: 'Plantation',
  hs_state: 'FL',
  hs_country: 'USA',
  hs_attended_from_month: '8',
  hs_attended_from_year: '2014',
  hs_attended_to_month: '6',
  hs_attended_to_year: '2018',
  hs_primary: true,
  hs_gpa: '3.4',
  gpa_scale: '4',
  hs_rank: 'N',
  college_name: 'Broward College',
  college_city: 'Fort Lauderdale',
  college_state: 'FL',
  college_country: 'USA',
  college_attended_from_month: '8',
  college_attended_from_year: '2022',
  college_attended_to_month: '5',
  college_attended_to_year: '2024',
  college_type: 'TWO_YEAR',
  college_degree: 'AA',
  college_credits: '60',
  college_gpa: '3.5',
};

function programAnswers(major: string): Answers {
  const answers: Answers = {};
  if (major === MAJOR.humanServices) answers.conc_hum_serv = 'CHILD';
  if (major === MAJOR.film)
    answers.personal_statement_essay = 'I have wanted to make films since I was eight years old.';
  if (asks('study_location', major)) answers.study_location = 'MAIN';
  if (asks('bacc_degree', major)) answers.bacc_degree = 'N';
  if (asks('online_master_health', major)) answers.online_master_health = 'N';
  if (asks('respiratory_therapy', major)) {
    Object.assign(answers, {
      degree_rt: 'Y',
      nbrc_registration: 'Y',
      work_rrt: 'Y',
      course_department_number: 'BSC 2085',
      course_title: 'Anatomy and Physiology I',
      course_college: 'Broward College',
      course_term: 'Fall 2023',
    });
  }
  for (const group of [
    'credits_english',
    'credits_math',
    'credits_humanities',
    'credits_social',
    'credits_biological',
  ] as const) {
    if (asks(group, major)) answers[group] = 'Y';
  }
  if (asks('health', major)) {
    Object.assign(answers, {
      health_care_experience: 'Two years as a patient care technician at a community hospital.',
      health_certifications: 'CPR (BLS)',
      prior_matriculation: 'N',
    });
  }
  if (asks('distance_edu', major)) {
    answers.distance_edu = 'Y';
    answers.distance_edu_explain = 'Four online general-education courses at Broward College.';
  }
  if (asks('activities', major)) {
    answers.extracurricular_activities = 'Volunteer at the county blood drive; student government.';
    answers.special_circumstances = 'None';
  }
  return answers;
}

const finalSteps: Answers = {
  fee_waiver: 'N',
  covid_question: 'N',
  conviction: 'N',
  protective: 'N',
  currently_incarcerated: 'N',
  professional_licensure: 'N',
  continuing_duty_disclosure: true,
  counselor_waiver_request: 'Y',
  legal_agree: true,
};

/** A complete valid application for a program (by default one without rules of its own). */
export function validApplicationAnswers(major: string = PSYCHOLOGY): Answers {
  return withDescriptions({
    ...about,
    applied_major: major,
    ...academics,
    ...programAnswers(major),
    ...finalSteps,
  });
}

/** The state of a logged-in applicant with that application, every repeat and tab at its default. */
export function validApplicationState(major: string = PSYCHOLOGY): FormState {
  return { answers: validApplicationAnswers(major), addAnother: {}, tabs: {}, isLoggedIn: true };
}
