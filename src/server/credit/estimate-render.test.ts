import { describe, expect, it } from 'vitest';
import { DEFAULT_COURSEWORK_RULES } from '../../shared/coursework/coursework-rules';
import { ESTIMATE_NOTICE } from '../../shared/credit/credit-api';
import { evaluateCredit } from '../../shared/credit/credit-evaluation';
import type { Requirement } from '../../shared/credit/credit-requirements';
import type { Equivalency, EquivalencyTable } from '../../shared/credit/equivalency';
import { equivalencyKey } from '../../shared/credit/equivalency';
import { extractPdfText } from '../test/pdf-text';
import { estimatePdf, howItTransfers } from './estimate-render';

const CEEB = '4094';
const mapping = (
  subject: string,
  number: string,
  kind: Equivalency['kind'],
  localCourse: string,
  localUnits: number,
): [string, Equivalency] => [
  equivalencyKey(subject, number),
  {
    sendingCeeb: CEEB,
    subject,
    number,
    title: '',
    units: localUnits,
    localCourse,
    localUnits,
    kind,
    satisfies: [],
  },
];
const table: EquivalencyTable = new Map([
  mapping('MATH', '1A', 'course', 'MATH 150', 4),
  mapping('PHIL', '10', 'elective', 'PHIL 1XX', 3),
  mapping('PE', '1', 'no_credit', '', 0),
  mapping('CHEM', '1A', 'course', 'CHEM 111', 5),
]);
const requirements: Requirement[] = [
  {
    id: 'gpa_2',
    label: 'Transfer GPA of 2.00 or higher',
    kind: 'min_gpa',
    gpa: 2,
    show_to_applicant: true,
  },
  {
    id: 'secret',
    label: 'Internal honours screen',
    kind: 'min_gpa',
    gpa: 3.9,
    show_to_applicant: false,
  },
];
const course = (subject: string, number: string, units: string, grade: string) => ({
  subject,
  number,
  title: `${subject} ${number} title`,
  units,
  grade,
});

const evaluation = evaluateCredit({
  grids: [
    {
      key: 'college_coursework',
      ceeb: CEEB,
      name: 'Foothill College',
      answer: {
        system: 'semester',
        terms: [
          {
            season: 'fall',
            year: 2024,
            status: 'completed',
            courses: [
              course('MATH', '1A', '4', 'A'),
              course('PHIL', '10', '3', 'B'),
              course('PE', '1', '1', 'A'),
              course('ART', '5', '2', 'A'),
            ],
          },
          {
            season: 'spring',
            year: 2025,
            status: 'in_progress',
            courses: [course('CHEM', '1A', '5', '')],
          },
        ],
      },
    },
  ],
  tables: new Map([[CEEB, table]]),
  reviews: new Map(),
  rules: DEFAULT_COURSEWORK_RULES,
  requirements,
  answers: {},
});

describe('the credit estimate PDF', () => {
  it('says how each course transfers in the applicant’s words', () => {
    const byCode = Object.fromEntries(
      evaluation.courses.map((entry) => [
        `${entry.subject} ${entry.number}`,
        howItTransfers(entry),
      ]),
    );
    expect(byCode).toEqual({
      'MATH 1A': 'MATH 150: Transfers',
      'PHIL 10': 'Elective PHIL 1XX: Transfers',
      'PE 1': 'No credit',
      'ART 5': 'Needs review',
      'CHEM 1A': 'CHEM 111: Transfers when completed',
    });
  });

  it('holds the notice, the applicant, each course, the totals and the shown requirements', async () => {
    const pdf = await estimatePdf(evaluation, {
      institution: 'Northfield State University',
      applicantName: 'Maria Lopez',
      releasedAt: new Date('2026-03-02T15:00:00Z'),
    });
    const text = await extractPdfText(pdf);
    for (const words of [
      'Northfield State University',
      'Maria Lopez',
      'March 2, 2026',
      ESTIMATE_NOTICE,
      'Foothill College',
      'Fall 2024',
      'MATH 1A title',
      'MATH 150',
      'PHIL 1XX',
      'Needs review',
      'Transfers when completed',
      'Transfer GPA',
      'Local credit units',
      'Transfer GPA of 2.00 or higher',
      'Met',
    ])
      expect(text, words).toContain(words);
    // A requirement the office does not show applicants is not in their estimate.
    expect(text).not.toContain('Internal honours screen');
  });
});
