import type { CourseEntry, CourseworkAnswer } from '../coursework/coursework-answer';

/*
 * One hand-worked transfer credit case, shared by the server's tests and the end-to-end specs:
 * a college's coursework and its equivalency table.
 */

export function creditCourse(
  subject: string,
  number: string,
  units: string,
  grade = '',
): CourseEntry {
  return { subject, number, title: `${subject} ${number}`, units, grade };
}

/**
 * Fall 2024 completed, MATH 1A 4 A, ENGL 1A 3 B, COMM 1 3 C, PHIL 10 3 B+ (the Golden Four all
 * met), ART 5 2 A (no row in the table: needs review); Fall 2026 in progress, CHEM 1A 5.
 * GPA (16 + 9 + 6 + 9.9 + 8) / 15 = 48.9 / 15 = 3.26. ENGL 1A corrected to C-:
 * (16 + 5.1 + 6 + 9.9 + 8) / 15 = 45 / 15 = 3.00, and the Golden Four, which asks for a C, is not met.
 */
export const CREDIT_CASE_COURSEWORK: CourseworkAnswer = {
  system: 'semester',
  terms: [
    {
      season: 'fall',
      year: 2024,
      status: 'completed',
      courses: [
        creditCourse('MATH', '1A', '4', 'A'),
        creditCourse('ENGL', '1A', '3', 'B'),
        creditCourse('COMM', '1', '3', 'C'),
        creditCourse('PHIL', '10', '3', 'B+'),
        creditCourse('ART', '5', '2', 'A'),
      ],
    },
    {
      season: 'fall',
      year: 2026,
      status: 'in_progress',
      courses: [creditCourse('CHEM', '1A', '5')],
    },
  ],
};

/** Subject, number, local course, units (both sides), kind, requirement codes. */
export type CreditTableRow = readonly [
  string,
  string,
  string,
  string,
  'course' | 'elective' | 'no_credit',
  readonly string[],
];

/** The case's college (Broward College in the shipped list) and its table. */
export const CREDIT_CASE_CEEB = '5074';
export const CREDIT_CASE_TABLE: readonly CreditTableRow[] = [
  ['MATH', '1A', 'MATH 150', '4', 'course', ['GE-B4']],
  ['ENGL', '1A', 'ENGL 100', '3', 'course', ['GE-A2']],
  ['COMM', '1', 'COMM 110', '3', 'course', ['GE-A1']],
  ['PHIL', '10', 'PHIL 1XX', '3', 'elective', ['GE-A3']],
  ['CHEM', '1A', 'CHEM 111', '5', 'course', []],
];
