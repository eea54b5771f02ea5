import type { ConditionExpr, CourseworkGrid, Field, Item, Page, Repeat, Rule } from '../form/model';
import {
  answered,
  equals,
  isIn,
  monthYearFields,
  numberedInstances,
  required,
  schoolSearchBlock,
  studyEndYears,
  text,
  textarea,
  yesNo,
} from './items';
import {
  BIOLOGY,
  BUSINESS,
  biologyConcentrationOptions,
  businessConcentrationOptions,
  COMMUNICATION,
  collegeTypeOptions,
  communicationConcentrationOptions,
  creditStatusOptions,
  decisionTypeOptions,
  degreeOptions,
  diplomaOptions,
  EARLY_DECISION,
  entryTermOptions,
  gpaScaleOptions,
  HIGH_SCHOOL_GRADUATE,
  humanServicesConcentrationOptions,
  MAJOR,
  majorOptions,
  OTHER,
  studyLocationOptions,
  transferCreditOptions,
} from './option-lists';

/** Page 2 of spec 001: program, credits, program questions, schools, colleges and documents. */

export const EDUCATION_MESSAGES = {
  major: 'Please select your program of study.',
  humanServicesConcentration: 'Please select your Human Services concentration.',
  transferCredits:
    'Please tell us whether you have earned college credits since graduating from high school.',
  creditsTransfer: 'Please enter the number of college credits you have earned.',
  creditsTransferDigits: 'Please enter the number of credits in digits only, for example 24.',
  studyLocation: 'Please select where you plan to study.',
  baccDegree: "Please tell us whether you already hold a bachelor's degree.",
  onlineMasterHealth: "Please tell us whether you are interested in an online master's degree.",
  degreeRt: 'Please tell us whether you hold a degree in respiratory therapy.',
  nbrcRegistration: 'Please tell us whether you are registered with the NBRC.',
  workRrt: 'Please tell us whether you work as a respiratory therapist.',
  healthCareExperience: 'Please describe your health care experience.',
  healthCertifications: 'Please list your health care licenses and certifications.',
  priorMatriculation: 'Please tell us whether you have enrolled in this program before.',
  distanceEdu: 'Please tell us whether you have taken online courses.',
  distanceEduExplain: 'Please tell us about the online courses you have taken.',
  extracurricularActivities: 'Please describe your activities.',
  specialCircumstances: 'Please tell us about any special circumstances.',
  entryTerm: 'Please select the term you plan to start.',
  decisionType: 'Please select a decision type.',
  highSchoolDiploma: 'Please select the high school credential you have or expect.',
  highSchoolName: '{instance}: Please enter the name of your high school.',
  highSchoolFromMonth: '{instance}: Please select the month you started.',
  highSchoolFromYear: '{instance}: Please select the year you started.',
  highSchoolToMonth: '{instance}: Please select the month you graduated.',
  highSchoolToYear: '{instance}: Please select the year you graduated.',
  gpaScale: 'Please select the scale of your high school GPA.',
  collegeName: '{instance}: Please enter the name of the college.',
  collegeFromMonth: '{instance}: Please select the month you started attending.',
  collegeToMonth: '{instance}: Please select the month you stopped attending, or expect to.',
  personalStatementDoc: 'Upload from your device',
  personalStatementEssay:
    'Please write your personal statement here, or upload it under "Upload from your device".',
} as const;

/** Spec 001 section 9: the characters allowed in the personal statement. */
export const PERSONAL_STATEMENT_LIMIT = 7000;

const { nursing, rnToBsn, cardiopulmonary, respiratoryTherapy, film, humanServices } = MAJOR;
const major = (codes: readonly string[]): ConditionExpr => isIn('applied_major', codes);

/**
 * Entry terms and the years that studies may end in follow the year the server or browser
 * starts in; a new year takes a restart or a reload.
 */
const THIS_YEAR = new Date().getFullYear();
const entryTerms = entryTermOptions(THIS_YEAR);
const END_YEARS = studyEndYears(THIS_YEAR);

/** Which program asks which questions (spec 001 section 5, "By major code"). */
export const PROGRAM_QUESTIONS = {
  study_location: [nursing, rnToBsn, cardiopulmonary, respiratoryTherapy],
  bacc_degree: [nursing, rnToBsn],
  online_master_health: [nursing, rnToBsn],
  respiratory_therapy: [respiratoryTherapy, cardiopulmonary],
  credits_english: [respiratoryTherapy, cardiopulmonary],
  credits_math: [respiratoryTherapy, cardiopulmonary, nursing],
  credits_humanities: [respiratoryTherapy, cardiopulmonary],
  credits_social: [respiratoryTherapy, cardiopulmonary],
  credits_biological: [cardiopulmonary],
  health: [respiratoryTherapy, cardiopulmonary, nursing, rnToBsn],
  distance_edu: [respiratoryTherapy, cardiopulmonary, rnToBsn],
  activities: [respiratoryTherapy, cardiopulmonary],
} as const satisfies Record<string, readonly string[]>;

const concentration = (
  key: string,
  label: string,
  code: string,
  options: Field['options'],
  rules?: readonly Rule[],
): Field => ({
  kind: 'field',
  key,
  widget: 'select',
  label,
  options,
  showWhen: equals('applied_major', code),
  ...(rules ? { rules } : {}),
});

const programItems: Item[] = [
  {
    kind: 'field',
    key: 'applied_major',
    widget: 'select',
    label: 'Program of study',
    options: majorOptions,
    help: 'The program you want to study. Some programs ask a few more questions below.',
    rules: [required(EDUCATION_MESSAGES.major)],
  },
  concentration(
    'conc_hum_serv',
    'Human Services concentration',
    humanServices,
    humanServicesConcentrationOptions,
    [required(EDUCATION_MESSAGES.humanServicesConcentration)],
  ),
  concentration('conc_bio', 'Biology concentration', BIOLOGY, biologyConcentrationOptions),
  concentration('conc_bus', 'Business concentration', BUSINESS, businessConcentrationOptions),
  concentration(
    'conc_comm',
    'Communication concentration',
    COMMUNICATION,
    communicationConcentrationOptions,
  ),
  yesNo('phi_member', 'Are you a member of Phi Theta Kappa?', {
    help: 'Phi Theta Kappa is the honor society of two-year colleges.',
  }),
];

const creditItems: Field[] = [
  {
    kind: 'field',
    key: 'transfer_student_credits',
    widget: 'radio',
    label: 'Have you earned college credits since graduating from high school?',
    options: transferCreditOptions,
    help:
      'Credits earned while you were still in high school (dual enrollment) do not count here. If ' +
      'you answer no, tell us about your high school diploma below.',
    rules: [required(EDUCATION_MESSAGES.transferCredits)],
  },
  text('credits_transfer', 'How many college credits will you have earned before you start?', {
    maxLength: 3,
    help: 'Semester credits, in digits, for example 24. Include courses you are taking now.',
    rules: [
      required(EDUCATION_MESSAGES.creditsTransfer),
      { type: 'digits', message: EDUCATION_MESSAGES.creditsTransferDigits },
    ],
  }),
];

const creditGroup = (key: keyof typeof PROGRAM_QUESTIONS, subject: string): Field => ({
  kind: 'field',
  key,
  widget: 'radio',
  label: `${subject}: at least 6 credits`,
  options: creditStatusOptions,
  showWhen: major(PROGRAM_QUESTIONS[key]),
  rules: [required(`Please tell us whether you have 6 credits of ${subject.toLowerCase()}.`)],
});

const courses: Repeat = {
  kind: 'repeat',
  id: 'prerequisite_courses',
  title: 'Prerequisite courses',
  addLabel: 'course',
  showWhen: major(PROGRAM_QUESTIONS.respiratory_therapy),
  instances: numberedInstances('course', 'Course', 10),
  items: [
    text('department_number', 'Department and course number', {
      maxLength: 20,
      help: 'As on your transcript, for example BSC 1010.',
    }),
    text('title', 'Course title', { maxLength: 100 }),
    text('college', 'College where you took it', { maxLength: 100 }),
    text('term', 'Term taken or planned', { maxLength: 20, help: 'For example Fall 2025.' }),
  ],
};

const programQuestions: Item[] = [
  {
    kind: 'field',
    key: 'study_location',
    widget: 'select',
    label: 'Where do you plan to study?',
    options: studyLocationOptions,
    showWhen: major(PROGRAM_QUESTIONS.study_location),
    rules: [required(EDUCATION_MESSAGES.studyLocation)],
  },
  yesNo('bacc_degree', "Do you already hold a bachelor's degree?", {
    showWhen: major(PROGRAM_QUESTIONS.bacc_degree),
    rules: [required(EDUCATION_MESSAGES.baccDegree)],
  }),
  yesNo(
    'online_master_health',
    "Are you interested in going on to an online master's degree in a health profession?",
    {
      showWhen: major(PROGRAM_QUESTIONS.online_master_health),
      rules: [required(EDUCATION_MESSAGES.onlineMasterHealth)],
    },
  ),
  {
    kind: 'block',
    id: 'respiratory_therapy',
    title: 'Respiratory therapy',
    showWhen: major(PROGRAM_QUESTIONS.respiratory_therapy),
    items: [
      yesNo('degree_rt', 'Do you hold an associate degree in respiratory therapy?', {
        rules: [required(EDUCATION_MESSAGES.degreeRt)],
      }),
      yesNo('nbrc_registration', 'Are you registered with the NBRC?', {
        help:
          'The NBRC (National Board for Respiratory Care) awards the CRT and RRT credentials. ' +
          'Answer yes if you hold either.',
        rules: [required(EDUCATION_MESSAGES.nbrcRegistration)],
      }),
      yesNo('work_rrt', 'Are you working as a respiratory therapist?', {
        rules: [required(EDUCATION_MESSAGES.workRrt)],
      }),
    ],
  },
  {
    kind: 'block',
    id: 'prerequisite_credits',
    title: 'Prerequisite credits',
    description: 'Have you completed at least 6 college credits in each of these subjects?',
    showWhen: major([...PROGRAM_QUESTIONS.credits_math]),
    items: [
      creditGroup('credits_english', 'English composition'),
      creditGroup('credits_math', 'College mathematics'),
      creditGroup('credits_humanities', 'Humanities'),
      creditGroup('credits_social', 'Social and behavioral sciences'),
      creditGroup('credits_biological', 'Biological sciences'),
    ],
  },
  courses,
  textarea('health_care_experience', 'Describe your health care experience, paid or volunteer.', {
    help: 'Where, in what role and for how long. Write "None" if you have none yet.',
    showWhen: major(PROGRAM_QUESTIONS.health),
    rules: [required(EDUCATION_MESSAGES.healthCareExperience)],
  }),
  textarea('health_certifications', 'List your health care licenses and certifications.', {
    help: 'For example CNA, EMT, CRT or RRT, with the state. Write "None" if you have none.',
    showWhen: major(PROGRAM_QUESTIONS.health),
    rules: [required(EDUCATION_MESSAGES.healthCertifications)],
  }),
  yesNo('prior_matriculation', 'Have you been enrolled in this program at the university before?', {
    showWhen: major(PROGRAM_QUESTIONS.health),
    rules: [required(EDUCATION_MESSAGES.priorMatriculation)],
  }),
  yesNo('distance_edu', 'Have you taken online (distance education) courses?', {
    showWhen: major(PROGRAM_QUESTIONS.distance_edu),
    rules: [required(EDUCATION_MESSAGES.distanceEdu)],
    optionContent: {
      Y: [
        textarea('distance_edu_explain', 'Which online courses have you taken, and where?', {
          rules: [required(EDUCATION_MESSAGES.distanceEduExplain)],
        }),
      ],
    },
  }),
  textarea(
    'extracurricular_activities',
    'List your extracurricular, volunteer and leadership activities.',
    {
      showWhen: major(PROGRAM_QUESTIONS.activities),
      rules: [required(EDUCATION_MESSAGES.extracurricularActivities)],
    },
  ),
  textarea(
    'special_circumstances',
    'Is there anything about your circumstances you would like us to consider?',
    {
      help: 'For example a gap in your studies or a change of career. Write "None" if nothing applies.',
      showWhen: major(PROGRAM_QUESTIONS.activities),
      rules: [required(EDUCATION_MESSAGES.specialCircumstances)],
    },
  ),
];

const enrollmentItems: Item[] = [
  {
    kind: 'field',
    key: 'entry_term',
    widget: 'select',
    label: 'When do you plan to start?',
    options: entryTerms,
    rules: [required(EDUCATION_MESSAGES.entryTerm)],
  },
  {
    kind: 'field',
    key: 'decision_type',
    widget: 'select',
    label: 'Decision type',
    options: decisionTypeOptions,
    help:
      'Regular decision: we decide on a rolling basis and you may weigh other offers. Early ' +
      'decision is binding: if we admit you, you agree to enroll and withdraw your other applications.',
    rules: [required(EDUCATION_MESSAGES.decisionType)],
  },
  {
    kind: 'field',
    key: 'early_decision_cb',
    widget: 'confirmCheckbox',
    label:
      'I understand that early decision is binding: if I am admitted, I will enroll and withdraw my other applications.',
    showWhen: equals('decision_type', EARLY_DECISION),
    reveals: [
      text('early_decision_signature', 'Type your full name as your signature', {
        maxLength: 100,
        autoComplete: 'name',
      }),
    ],
  },
  yesNo('campus_housing', 'Are you interested in living on campus?'),
  yesNo('premier_program', 'Would you like to be considered for our premier programs?', {
    help: 'Honors and dual-admission programs with their own selection. We contact you if you qualify.',
  }),
];

const schoolName = answered('$name');
const graduated = equals('high_school_diploma', HIGH_SCHOOL_GRADUATE);

const highSchools: Repeat = {
  kind: 'repeat',
  id: 'high_schools',
  title: 'High schools attended',
  addLabel: 'high school',
  instances: numberedInstances('hs', 'High School', 3),
  items: [
    schoolSearchBlock({
      id: 'high_school_search',
      category: 'hs_ceeb',
      keyPrefix: '',
      nameLabel: 'High school name',
      nameRules: [
        {
          type: 'required',
          message: EDUCATION_MESSAGES.highSchoolName,
          when: graduated,
          instances: [0],
        },
      ],
    }),
    ...monthYearFields(
      'attended_from',
      { month: 'Month you started', year: 'Year you started' },
      {
        month: [required(EDUCATION_MESSAGES.highSchoolFromMonth, schoolName)],
        year: [required(EDUCATION_MESSAGES.highSchoolFromYear, schoolName)],
      },
    ),
    ...monthYearFields(
      'attended_to',
      { month: 'Month you graduated or left', year: 'Year you graduated or left' },
      {
        month: [required(EDUCATION_MESSAGES.highSchoolToMonth, { all: [schoolName, graduated] })],
        year: [required(EDUCATION_MESSAGES.highSchoolToYear, { all: [schoolName, graduated] })],
      },
      END_YEARS,
    ),
    {
      kind: 'field',
      key: 'primary',
      widget: 'checkbox',
      label: 'This is the school I graduated from, or will graduate from',
    },
  ],
};

const highSchoolItems: Item[] = [
  {
    kind: 'field',
    key: 'high_school_diploma',
    widget: 'radio',
    label: 'Which high school credential do you have, or expect before you start?',
    options: diplomaOptions,
    rules: [
      required(EDUCATION_MESSAGES.highSchoolDiploma, equals('transfer_student_credits', 'F')),
    ],
  },
  highSchools,
  text('hs_gpa', 'High school GPA', {
    maxLength: 10,
    help: 'As on your transcript, for example 3.4. Leave it empty if your school does not give one.',
  }),
  {
    kind: 'field',
    key: 'gpa_scale',
    widget: 'select',
    label: 'GPA scale',
    options: gpaScaleOptions,
    help: 'The highest GPA possible at your school, for example 4.0.',
    rules: [required(EDUCATION_MESSAGES.gpaScale, answered('hs_gpa'))],
  },
  yesNo('hs_rank', 'Does your high school rank students?', {
    optionContent: {
      Y: [
        text('hs_class_position', 'Your rank in your class', {
          maxLength: 5,
          help: 'For example 25.',
        }),
        text('hs_total_class', 'Number of students in your class', {
          maxLength: 5,
          help: 'For example 310.',
        }),
      ],
    },
  }),
];

/** The first college is required; the others once they are named. */
const FIRST = [0];
const OTHERS = [1, 2];

const collegeMonth = (message: string): Rule[] => [
  { type: 'required', message, instances: FIRST },
  { type: 'required', message, when: schoolName, instances: OTHERS },
];

/**
 * Each college's courses, term by term: what the transfer GPA and units are computed from. Shown
 * once the college is named, so a course always stands under a college, and cleared with it.
 */
const collegeCoursework: CourseworkGrid = {
  kind: 'coursework',
  id: 'college_coursework',
  key: 'coursework',
  label: 'Courses taken',
  help:
    'Enter every course on your transcript, term by term, including terms in progress and ' +
    'planned. You can paste a term from a spreadsheet: one course per line, with subject, ' +
    'number, title, units and grade separated by tabs.',
  showWhen: answered('$name'),
  collegeKeys: ['$ceeb', '$name'],
  columns: [
    { cell: 'subject', label: 'Subject' },
    { cell: 'number', label: 'Number' },
    { cell: 'title', label: 'Course title' },
    { cell: 'units', label: 'Units' },
    { cell: 'grade', label: 'Grade' },
  ],
};

const colleges: Repeat = {
  kind: 'repeat',
  id: 'colleges',
  title: 'Colleges attended',
  addLabel: 'college',
  instances: numberedInstances('college', 'College', 3),
  items: [
    schoolSearchBlock({
      id: 'college_search',
      category: 'college_ceeb',
      keyPrefix: '',
      nameLabel: 'College name',
      nameRules: [{ type: 'required', message: EDUCATION_MESSAGES.collegeName, instances: FIRST }],
    }),
    ...monthYearFields(
      'attended_from',
      { month: 'Month you started attending', year: 'Year you started attending' },
      { month: collegeMonth(EDUCATION_MESSAGES.collegeFromMonth) },
    ),
    ...monthYearFields(
      'attended_to',
      {
        month: 'Month you stopped attending (or expect to)',
        year: 'Year you stopped attending (or expect to)',
      },
      { month: collegeMonth(EDUCATION_MESSAGES.collegeToMonth) },
      END_YEARS,
    ),
    {
      kind: 'field',
      key: 'type',
      widget: 'select',
      label: 'Type of school',
      options: collegeTypeOptions,
    },
    text('type_other', 'Other type of school', {
      maxLength: 100,
      showWhen: equals('$type', OTHER),
    }),
    {
      kind: 'field',
      key: 'degree',
      widget: 'select',
      label: 'Degree earned or expected',
      options: degreeOptions,
    },
    text('degree_other', 'Other degree', { maxLength: 100, showWhen: equals('$degree', OTHER) }),
    text('credits', 'Credits earned', { maxLength: 5, help: 'Semester credits, for example 30.' }),
    text('gpa', 'GPA', { maxLength: 10, help: 'As on your transcript, for example 3.2.' }),
    collegeCoursework,
  ],
};

const documentItems: Item[] = [
  {
    kind: 'tabs',
    id: 'personal_statement',
    label: 'Personal statement',
    defaultTab: 'write',
    tabs: [
      {
        id: 'write',
        label: 'Write it here',
        items: [
          textarea('personal_statement_essay', 'Personal statement', {
            characterLimit: PERSONAL_STATEMENT_LIMIT,
            help:
              'Tell us about yourself and why you want to transfer. The Film program asks every ' +
              'applicant for one, written here or uploaded.',
            rules: [
              required(EDUCATION_MESSAGES.personalStatementEssay, equals('applied_major', film)),
            ],
          }),
        ],
      },
      {
        id: 'upload',
        label: 'Upload from your device',
        items: [
          {
            kind: 'field',
            key: 'personal_statement_doc',
            widget: 'file',
            label: 'Personal statement document',
            rules: [
              required(EDUCATION_MESSAGES.personalStatementDoc, {
                all: [
                  equals('applied_major', film),
                  { valueKey: 'personal_statement_essay', operator: 'notAnswered' },
                ],
              }),
            ],
          },
        ],
      },
    ],
  },
  {
    kind: 'field',
    key: 'hs_transcript',
    widget: 'file',
    label: 'Unofficial high school transcript',
  },
];

export const educationPage: Page = {
  id: 'education',
  route: '/education',
  title: 'Your Academics',
  items: [
    { kind: 'block', id: 'program', title: 'Program of study', items: programItems },
    { kind: 'block', id: 'credits', title: 'College credits', items: creditItems },
    {
      kind: 'block',
      id: 'program_questions',
      title: 'Questions for your program',
      showWhen: major(PROGRAM_QUESTIONS.health),
      items: programQuestions,
    },
    { kind: 'block', id: 'enrollment', title: 'Your start', items: enrollmentItems },
    { kind: 'block', id: 'high_school', title: 'High school', items: highSchoolItems },
    { kind: 'block', id: 'college_history', title: 'Colleges', items: [colleges] },
    { kind: 'block', id: 'documents', title: 'Documents', items: documentItems },
  ],
};
