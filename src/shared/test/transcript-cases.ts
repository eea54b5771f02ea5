import type {
  CollegeCoursework,
  Course,
  Season,
  Term,
  TermStatus,
  TermSystem,
} from '../coursework/coursework';
import type { CourseworkRules } from '../coursework/coursework-rules';

/*
 * Transcripts whose totals were worked out by hand, for the coursework totals' tests. Each case
 * shows its arithmetic in semester units (S) with default points unless it says otherwise:
 * A+ 4, A 4, A- 3.7, B+ 3.3, B 3, B- 2.7, C+ 2.3, C 2, C- 1.7, D+ 1.3, D 1, D- 0.7, F 0.
 * A course is written `SUBJECT NUMBER UNITS GRADE`, `_` for no grade.
 */

export interface TranscriptCase {
  name: string;
  rules?: Partial<CourseworkRules>;
  colleges: CollegeCoursework[];
  expected: {
    gpa: string | null;
    transferableUnits: string;
    inProgressUnits: string;
    /** How many finished attempts the repeat rule left out. */
    excludedRepeats?: number;
  };
}

function course(written: string): Course {
  const [subject = '', number = '', units = '', grade = '_'] = written.split(' ');
  return {
    subject,
    number,
    title: `${subject} ${number}`,
    units: Number(units),
    grade: grade === '_' ? null : grade,
  };
}

function termOf(status: TermStatus) {
  return (season: Season, year: number, ...courses: (string | Course)[]): Term => ({
    season,
    year,
    status,
    courses: courses.map((entry) => (typeof entry === 'string' ? course(entry) : entry)),
  });
}

const done = termOf('completed');
const inProgress = termOf('in_progress');
const planned = termOf('planned');

function collegeOf(termSystem: TermSystem) {
  return (college: string, ...terms: Term[]): CollegeCoursework => ({
    college,
    termSystem,
    terms,
  });
}

const semester = collegeOf('semester');
const quarter = collegeOf('quarter');

/** One semester college, one term: most cases need no more. */
const oneTerm = (...courses: string[]) => [semester('Foothill', done('fall', 2022, ...courses))];

const WISCONSIN_SCALE = { A: 4, AB: 3.5, B: 3, BC: 2.5, C: 2, D: 1, F: 0 };

export const TRANSCRIPT_CASES: TranscriptCase[] = [
  {
    name: 'no coursework',
    // Nothing graded: no GPA, no units.
    colleges: [],
    expected: { gpa: null, transferableUnits: '0.00', inProgressUnits: '0.00' },
  },
  {
    name: 'a college with no terms yet',
    colleges: [semester('Foothill')],
    expected: { gpa: null, transferableUnits: '0.00', inProgressUnits: '0.00' },
  },
  {
    name: 'one A',
    // 4 × 3 = 12 points / 3 units = 4.00
    colleges: oneTerm('ENGL 1 3 A'),
    expected: { gpa: '4.00', transferableUnits: '3.00', inProgressUnits: '0.00' },
  },
  {
    name: 'an A and a B of equal units',
    // (12 + 9) / 6 = 3.50
    colleges: oneTerm('ENGL 1 3 A', 'HIST 1 3 B'),
    expected: { gpa: '3.50', transferableUnits: '6.00', inProgressUnits: '0.00' },
  },
  {
    name: 'units weight the grades',
    // (4 × 4 + 3 × 3) / 7 = 25/7 = 3.5714… → 3.57
    colleges: oneTerm('MATH 1 4 A', 'HIST 1 3 B'),
    expected: { gpa: '3.57', transferableUnits: '7.00', inProgressUnits: '0.00' },
  },
  {
    name: 'plus and minus grades',
    // A- 3.7 × 3 = 11.1, B+ 3.3 × 3 = 9.9, C- 1.7 × 3 = 5.1: 26.1 / 9 = 2.90
    colleges: oneTerm('ENGL 1 3 A-', 'HIST 1 3 B+', 'ART 1 3 C-'),
    expected: { gpa: '2.90', transferableUnits: '9.00', inProgressUnits: '0.00' },
  },
  {
    name: 'the lower plus and minus grades',
    // B- 2.7 × 4 = 10.8, C+ 2.3 × 3 = 6.9, D+ 1.3 × 2 = 2.6, D- 0.7 × 1 = 0.7: 21 / 10 = 2.10
    colleges: oneTerm('MATH 1 4 B-', 'HIST 1 3 C+', 'ART 1 2 D+', 'PE 1 1 D-'),
    expected: { gpa: '2.10', transferableUnits: '10.00', inProgressUnits: '0.00' },
  },
  {
    name: 'A+ is worth no more than A',
    // (4 × 3 + 4 × 3) / 6 = 4.00
    colleges: oneTerm('ENGL 1 3 A+', 'HIST 1 3 A'),
    expected: { gpa: '4.00', transferableUnits: '6.00', inProgressUnits: '0.00' },
  },
  {
    name: 'an F counts in the GPA and does not transfer',
    // (12 + 0) / 6 = 2.00; transferable: the A's 3
    colleges: oneTerm('ENGL 1 3 A', 'MATH 1 3 F'),
    expected: { gpa: '2.00', transferableUnits: '3.00', inProgressUnits: '0.00' },
  },
  {
    name: 'only an F',
    // 0 / 4 = 0.00: graded units, so a GPA of zero, not none
    colleges: oneTerm('MATH 1 4 F'),
    expected: { gpa: '0.00', transferableUnits: '0.00', inProgressUnits: '0.00' },
  },
  {
    name: 'a W earns nothing',
    // 12 / 3 = 4.00; the W's 3 units count nowhere
    colleges: oneTerm('ENGL 1 3 A', 'MATH 1 3 W'),
    expected: { gpa: '4.00', transferableUnits: '3.00', inProgressUnits: '0.00' },
  },
  {
    name: 'I, IP and a missing grade on a finished term earn nothing',
    // 9 / 3 = 3.00; IP on a completed term is not an in-progress unit (only terms in progress are)
    colleges: oneTerm('HIST 1 3 B', 'MATH 1 4 I', 'CHEM 1 2 IP', 'ART 1 3 _'),
    expected: { gpa: '3.00', transferableUnits: '3.00', inProgressUnits: '0.00' },
  },
  {
    name: 'a P transfers, an NP earns nothing, neither touches the GPA',
    // 12 / 3 = 4.00; transferable 3 + 3 = 6
    colleges: oneTerm('ENGL 1 3 A', 'PE 1 3 P', 'ART 1 3 NP'),
    expected: { gpa: '4.00', transferableUnits: '6.00', inProgressUnits: '0.00' },
  },
  {
    name: 'CR and S transfer, NC and U do not',
    // 12 / 4 = 3.00; transferable 4 + 3 + 2 = 9
    colleges: oneTerm('MATH 1 4 B', 'PE 1 3 CR', 'ART 1 2 S', 'MUS 1 3 NC', 'DANC 1 1 U'),
    expected: { gpa: '3.00', transferableUnits: '9.00', inProgressUnits: '0.00' },
  },
  {
    name: 'only passes: units without a GPA',
    // no graded units: GPA none; transferable 3 + 4 = 7
    colleges: oneTerm('PE 1 3 P', 'ART 1 4 CR'),
    expected: { gpa: null, transferableUnits: '7.00', inProgressUnits: '0.00' },
  },
  {
    name: 'a term in progress counts apart',
    // 12 / 3 = 4.00; in progress 4 + 3 = 7
    colleges: [
      semester(
        'Foothill',
        done('fall', 2025, 'ENGL 1 3 A'),
        inProgress('spring', 2026, 'MATH 1 4 _', 'ENGL 2 3 _'),
      ),
    ],
    expected: { gpa: '4.00', transferableUnits: '3.00', inProgressUnits: '7.00' },
  },
  {
    name: 'a planned term counts as in progress',
    // 9 / 3 = 3.00; in progress 4 + 3 = 7
    colleges: [
      semester(
        'Foothill',
        done('fall', 2025, 'HIST 1 3 B'),
        planned('fall', 2026, 'MATH 2 4 _', 'HIST 2 3 _'),
      ),
    ],
    expected: { gpa: '3.00', transferableUnits: '3.00', inProgressUnits: '7.00' },
  },
  {
    name: 'only terms in progress and planned',
    // nothing finished: GPA none; in progress 5 + 3 = 8
    colleges: [
      semester(
        'Foothill',
        inProgress('fall', 2026, 'MATH 1 5 _'),
        planned('spring', 2027, 'ENGL 1 3 _'),
      ),
    ],
    expected: { gpa: null, transferableUnits: '0.00', inProgressUnits: '8.00' },
  },
  {
    name: 'quarter units are two thirds of a semester unit',
    // A 5 q = 10/3 S, B 5 q = 10/3 S: (4 + 3) × 10/3 = 70/3 points / 20/3 units = 3.50;
    // transferable 20/3 = 6.666… → 6.67
    colleges: [quarter('De Anza', done('fall', 2022, 'ENGL 1A 5 A', 'HIST 4A 5 B'))],
    expected: { gpa: '3.50', transferableUnits: '6.67', inProgressUnits: '0.00' },
  },
  {
    name: 'quarter units of different sizes',
    // A 4 q = 8/3 S, B 3 q = 2 S: (32/3 + 6) / (8/3 + 2) = (50/3) / (14/3) = 50/14 = 3.5714… → 3.57;
    // transferable 14/3 = 4.666… → 4.67
    colleges: [quarter('De Anza', done('fall', 2022, 'MATH 1A 4 A', 'HIST 4A 3 B'))],
    expected: { gpa: '3.57', transferableUnits: '4.67', inProgressUnits: '0.00' },
  },
  {
    name: '3 quarter units are 2 semester units',
    // C 3 q = 2 S: 4 / 2 = 2.00
    colleges: [quarter('De Anza', done('fall', 2022, 'ART 1 3 C'))],
    expected: { gpa: '2.00', transferableUnits: '2.00', inProgressUnits: '0.00' },
  },
  {
    name: 'quarter units in progress are converted too',
    // 5 q = 10/3 S = 3.333… → 3.33
    colleges: [quarter('De Anza', inProgress('winter', 2027, 'CHEM 1A 5 _'))],
    expected: { gpa: null, transferableUnits: '0.00', inProgressUnits: '3.33' },
  },
  {
    name: 'a quarter college and a semester college together',
    // Q: A 3 q = 2 S (8 points); S: B 2 (6 points): 14 / 4 = 3.50; transferable 4
    colleges: [
      quarter('De Anza', done('fall', 2021, 'ENGL 1A 3 A')),
      semester('Foothill', done('fall', 2022, 'HIST 1 2 B')),
    ],
    expected: { gpa: '3.50', transferableUnits: '4.00', inProgressUnits: '0.00' },
  },
  {
    name: 'a semester A and a quarter B that is 3 semester units',
    // S: A 3 (12); Q: B 4.5 q = 3 S (9): 21 / 6 = 3.50
    colleges: [
      semester('Foothill', done('fall', 2021, 'ENGL 1 3 A')),
      quarter('De Anza', done('fall', 2022, 'HIST 4A 4.5 B')),
    ],
    expected: { gpa: '3.50', transferableUnits: '6.00', inProgressUnits: '0.00' },
  },
  {
    name: 'a repeat: the latest graded attempt counts',
    // MATH 1 C (fall 2022) gives way to A (spring 2023): (12 + 9) / 6 = 3.50
    colleges: [
      semester(
        'Foothill',
        done('fall', 2022, 'MATH 1 3 C', 'ENGL 1 3 B'),
        done('spring', 2023, 'MATH 1 3 A'),
      ),
    ],
    expected: {
      gpa: '3.50',
      transferableUnits: '6.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'a repeat counts its latest attempt even when it is lower',
    // MATH 1 A (fall 2022) gives way to C (spring 2023): (6 + 9) / 6 = 2.50
    colleges: [
      semester(
        'Foothill',
        done('fall', 2022, 'MATH 1 3 A', 'ENGL 1 3 B'),
        done('spring', 2023, 'MATH 1 3 C'),
      ),
    ],
    expected: {
      gpa: '2.50',
      transferableUnits: '6.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'a later W does not displace a grade',
    // the W is no graded attempt, so the C counts: 6 / 3 = 2.00
    colleges: [
      semester('Foothill', done('fall', 2022, 'MATH 1 3 C'), done('spring', 2023, 'MATH 1 3 W')),
    ],
    expected: {
      gpa: '2.00',
      transferableUnits: '3.00',
      inProgressUnits: '0.00',
      excludedRepeats: 0,
    },
  },
  {
    name: 'an F retaken for a P',
    // CHEM 1 F gives way to P: GPA of HIST B alone 9 / 3 = 3.00; transferable 3 + 4 = 7
    colleges: [
      semester(
        'Foothill',
        done('fall', 2022, 'CHEM 1 4 F', 'HIST 1 3 B'),
        done('spring', 2023, 'CHEM 1 4 P'),
      ),
    ],
    expected: {
      gpa: '3.00',
      transferableUnits: '7.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'a D retaken for an NP: the NP is the latest graded attempt',
    // CHEM 1 D gives way to NP, which earns nothing: HIST B 9 / 3 = 3.00; transferable 3
    colleges: [
      semester(
        'Foothill',
        done('fall', 2022, 'CHEM 1 4 D', 'HIST 1 3 B'),
        done('spring', 2023, 'CHEM 1 4 NP'),
      ),
    ],
    expected: {
      gpa: '3.00',
      transferableUnits: '3.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'a repeat is found whatever the case and spaces of subject and number',
    // `Math 1a` D gives way to `MATH 1 A` B: 9 / 3 = 3.00
    colleges: [
      semester(
        'Foothill',
        done('fall', 2021, {
          subject: 'Math',
          number: '1a',
          title: 'Calculus',
          units: 3,
          grade: 'D',
        }),
        done('spring', 2022, {
          subject: ' MATH',
          number: '1 A',
          title: 'Calculus',
          units: 3,
          grade: 'B',
        }),
      ),
    ],
    expected: {
      gpa: '3.00',
      transferableUnits: '3.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'two attempts in one term: the one entered later counts',
    // MATH 1 B then MATH 1 A, both fall 2022: the A counts, 12 / 3 = 4.00
    colleges: oneTerm('MATH 1 3 B', 'MATH 1 3 A'),
    expected: {
      gpa: '4.00',
      transferableUnits: '3.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'winter comes before spring in a year, whatever the entry order',
    // spring 2023 A entered before winter 2023 C: spring is later, so the A counts: 4.00
    colleges: [
      semester('Foothill', done('spring', 2023, 'MATH 1 3 A'), done('winter', 2023, 'MATH 1 3 C')),
    ],
    expected: {
      gpa: '4.00',
      transferableUnits: '3.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'winter of the next year comes after fall',
    // fall 2022 A, winter 2023 C (3 q = 2 S each): the C counts, 2 × 2 / 2 = 2.00
    colleges: [
      quarter('De Anza', done('fall', 2022, 'MATH 1A 3 A'), done('winter', 2023, 'MATH 1A 3 C')),
    ],
    expected: {
      gpa: '2.00',
      transferableUnits: '2.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'fall comes after summer',
    // summer 2023 B, fall 2023 D: the D counts, 3 / 3 = 1.00
    colleges: [
      semester('Foothill', done('fall', 2023, 'MATH 1 3 D'), done('summer', 2023, 'MATH 1 3 B')),
    ],
    expected: {
      gpa: '1.00',
      transferableUnits: '3.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'the same course at two colleges is no repeat',
    // (12 + 6) / 6 = 3.00; both transfer
    colleges: [
      semester('Foothill', done('fall', 2021, 'ENGL 1 3 A')),
      semester('Ohlone', done('fall', 2022, 'ENGL 1 3 C')),
    ],
    expected: {
      gpa: '3.00',
      transferableUnits: '6.00',
      inProgressUnits: '0.00',
      excludedRepeats: 0,
    },
  },
  {
    name: 'one college entered twice is one college for repeats',
    // `Foothill College` C gives way to `foothill  college` B: 9 / 3 = 3.00
    colleges: [
      semester('Foothill College', done('fall', 2021, 'MATH 1 3 C')),
      semester('foothill  college', done('spring', 2022, 'MATH 1 3 B')),
    ],
    expected: {
      gpa: '3.00',
      transferableUnits: '3.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'one term at one college entered twice: the later entry counts',
    // both fall 2022 at Foothill: the second entry's A counts, 12 / 3 = 4.00
    colleges: [
      semester('Foothill', done('fall', 2022, 'MATH 1 3 C')),
      semester('Foothill', done('fall', 2022, 'MATH 1 3 A')),
    ],
    expected: {
      gpa: '4.00',
      transferableUnits: '3.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'a grade on a term in progress counts as in progress',
    // the term is not completed, so its A is no graded unit: no GPA; in progress 3
    colleges: [semester('Foothill', inProgress('fall', 2026, 'MATH 1 3 A'))],
    expected: { gpa: null, transferableUnits: '0.00', inProgressUnits: '3.00' },
  },
  {
    name: 'a retake in progress does not displace the finished grade',
    // MATH 1 D still counts: 3 / 3 = 1.00; the retake's 3 units are in progress
    colleges: [
      semester(
        'Foothill',
        done('fall', 2025, 'MATH 1 3 D'),
        inProgress('spring', 2026, 'MATH 1 3 _'),
      ),
    ],
    expected: {
      gpa: '1.00',
      transferableUnits: '3.00',
      inProgressUnits: '3.00',
      excludedRepeats: 0,
    },
  },
  {
    name: 'several attempts: F, W, C, I: the C counts, only the F is left out',
    // C 6 / 3 = 2.00; W and I are no graded attempts, so not repeats left out either
    colleges: [
      semester(
        'Foothill',
        done('fall', 2021, 'MATH 1 3 F'),
        done('spring', 2022, 'MATH 1 3 W'),
        done('fall', 2022, 'MATH 1 3 C'),
        done('spring', 2023, 'MATH 1 3 I'),
      ),
    ],
    expected: {
      gpa: '2.00',
      transferableUnits: '3.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'two colleges, quarter and semester, with a term in progress',
    // S: ENGL A 3 (12), MATH B+ 4 (13.2); Q: HIST A- 4 q = 8/3 S (3.7 × 8/3 = 29.6/3),
    // PHYS C 5 q = 10/3 S (20/3). Points 25.2 + 49.6/3 = 125.2/3; units 7 + 18/3 = 13;
    // GPA 125.2/39 = 3.2102… → 3.21; transferable 13; in progress CHEM 5 q = 10/3 → 3.33
    colleges: [
      semester('Foothill', done('fall', 2021, 'ENGL 1 3 A', 'MATH 1 4 B+')),
      quarter(
        'De Anza',
        done('fall', 2022, 'HIST 4A 4 A-', 'PHYS 4A 5 C'),
        inProgress('spring', 2023, 'CHEM 1A 5 _'),
      ),
    ],
    expected: { gpa: '3.21', transferableUnits: '13.00', inProgressUnits: '3.33' },
  },
  {
    name: 'three colleges with passes, a W and plans',
    // S1: B 3 (9), P 2; S2: A 4 (16), W 3; Q: C 6 q = 4 S (8), planned 3 q = 2 S.
    // (9 + 16 + 8) / (3 + 4 + 4) = 33 / 11 = 3.00; transferable 3 + 2 + 4 + 4 = 13; in progress 2
    colleges: [
      semester('Foothill', done('fall', 2020, 'HIST 1 3 B', 'PE 1 2 P')),
      semester('Ohlone', done('fall', 2021, 'MATH 1 4 A', 'ART 1 3 W')),
      quarter('De Anza', done('fall', 2022, 'ENGL 1A 6 C'), planned('fall', 2026, 'ENGL 1B 3 _')),
    ],
    expected: { gpa: '3.00', transferableUnits: '13.00', inProgressUnits: '2.00' },
  },
  {
    name: 'highest: the best attempt counts',
    rules: { repeat_policy: 'highest' },
    // MATH 1 A (fall 2022) beats C (spring 2023): (12 + 9) / 6 = 3.50
    colleges: [
      semester(
        'Foothill',
        done('fall', 2022, 'MATH 1 3 A', 'ENGL 1 3 B'),
        done('spring', 2023, 'MATH 1 3 C'),
      ),
    ],
    expected: {
      gpa: '3.50',
      transferableUnits: '6.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'highest: of D, B and C the B counts',
    rules: { repeat_policy: 'highest' },
    // 9 / 3 = 3.00
    colleges: [
      semester(
        'Foothill',
        done('fall', 2021, 'MATH 1 3 D'),
        done('fall', 2022, 'MATH 1 3 B'),
        done('fall', 2023, 'MATH 1 3 C'),
      ),
    ],
    expected: {
      gpa: '3.00',
      transferableUnits: '3.00',
      inProgressUnits: '0.00',
      excludedRepeats: 2,
    },
  },
  {
    name: 'highest: a grade that transfers beats a pass',
    rules: { repeat_policy: 'highest' },
    // BIO D (transfers) beats the later P: 4 / 4 = 1.00; transferable 4
    colleges: [
      semester('Foothill', done('fall', 2022, 'BIO 1 4 D'), done('spring', 2023, 'BIO 1 4 P')),
    ],
    expected: {
      gpa: '1.00',
      transferableUnits: '4.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'highest: a pass beats an F',
    rules: { repeat_policy: 'highest' },
    // the P counts, the F does not: no graded units; transferable 4
    colleges: [
      semester('Foothill', done('fall', 2022, 'BIO 1 4 F'), done('spring', 2023, 'BIO 1 4 P')),
    ],
    expected: { gpa: null, transferableUnits: '4.00', inProgressUnits: '0.00', excludedRepeats: 1 },
  },
  {
    name: 'highest: equal grades, the later attempt counts',
    rules: { repeat_policy: 'highest' },
    // B 3 units then B 4 units: the later 4 count, 12 / 4 = 3.00
    colleges: [
      semester('Foothill', done('fall', 2022, 'MATH 1 3 B'), done('spring', 2023, 'MATH 1 4 B')),
    ],
    expected: {
      gpa: '3.00',
      transferableUnits: '4.00',
      inProgressUnits: '0.00',
      excludedRepeats: 1,
    },
  },
  {
    name: 'all: every attempt counts',
    rules: { repeat_policy: 'all' },
    // (6 + 12) / 6 = 3.00; both transfer
    colleges: [
      semester('Foothill', done('fall', 2022, 'MATH 1 3 C'), done('spring', 2023, 'MATH 1 3 A')),
    ],
    expected: {
      gpa: '3.00',
      transferableUnits: '6.00',
      inProgressUnits: '0.00',
      excludedRepeats: 0,
    },
  },
  {
    name: 'all: an F retaken still weighs on the GPA',
    rules: { repeat_policy: 'all' },
    // (0 + 9) / 6 = 1.50; only the B transfers
    colleges: [
      semester('Foothill', done('fall', 2022, 'MATH 1 3 F'), done('spring', 2023, 'MATH 1 3 B')),
    ],
    expected: {
      gpa: '1.50',
      transferableUnits: '3.00',
      inProgressUnits: '0.00',
      excludedRepeats: 0,
    },
  },
  {
    name: 'a tenant scale with AB and BC, transferring C and better',
    rules: { grade_points: WISCONSIN_SCALE, lowest_transferable_grade: 'C' },
    // AB 3.5 × 3 = 10.5, BC 2.5 × 4 = 10, D 1 × 3 = 3: 23.5 / 10 = 2.35; transferable 3 + 4 = 7
    colleges: oneTerm('ENGL 1 3 AB', 'HIST 1 4 BC', 'ART 1 3 D'),
    expected: { gpa: '2.35', transferableUnits: '7.00', inProgressUnits: '0.00' },
  },
  {
    name: 'a tenant scale in thousandths',
    rules: {
      grade_points: { A: 4, 'A-': 3.667, 'B+': 3.333, B: 3, F: 0 },
      lowest_transferable_grade: 'B',
    },
    // 3.667 × 3 = 11.001, 3.333 × 3 = 9.999: 21 / 6 = 3.50 exactly
    colleges: oneTerm('ENGL 1 3 A-', 'HIST 1 3 B+'),
    expected: { gpa: '3.50', transferableUnits: '6.00', inProgressUnits: '0.00' },
  },
  {
    name: 'a tenant transferring only C and better',
    rules: { lowest_transferable_grade: 'C' },
    // C- 1.7 × 3 = 5.1, C 6, D 3: 14.1 / 9 = 1.5666… → 1.57; only the C transfers
    colleges: oneTerm('ART 1 3 C-', 'HIST 1 3 C', 'MUS 1 3 D'),
    expected: { gpa: '1.57', transferableUnits: '3.00', inProgressUnits: '0.00' },
  },
  {
    name: 'a tenant for whom CR earns nothing',
    rules: { pass_grades: ['P', 'S'], no_credit_grades: ['NP', 'NC', 'U', 'CR'] },
    // 12 / 3 = 4.00; transferable A 3 + P 2 = 5
    colleges: oneTerm('ENGL 1 3 A', 'PE 1 3 CR', 'ART 1 2 P'),
    expected: { gpa: '4.00', transferableUnits: '5.00', inProgressUnits: '0.00' },
  },
  {
    name: 'a tenant converting quarter units at 0.667',
    rules: { quarter_to_semester: 0.667 },
    // A 3 q = 2.001 S (8.004), B 10 q = 6.67 S (20.01): 28.014 / 8.671 = 3.2307… → 3.23;
    // transferable 8.671 → 8.67
    colleges: [quarter('De Anza', done('fall', 2022, 'ENGL 1A 3 A', 'HIST 4A 10 B'))],
    expected: { gpa: '3.23', transferableUnits: '8.67', inProgressUnits: '0.00' },
  },
  {
    name: 'a GPA of exactly x.xx5 rounds up',
    // B 1 (3) + C 7 (14) = 17 / 8 = 2.125 → 2.13
    colleges: oneTerm('HIST 1 1 B', 'MATH 1 7 C'),
    expected: { gpa: '2.13', transferableUnits: '8.00', inProgressUnits: '0.00' },
  },
  {
    name: 'a GPA of 2.675, which a float would round down',
    // A 13 (52) + B 1 (3) + C 26 (52) = 107 / 40 = 2.675 → 2.68 ((2.675).toFixed(2) is 2.67)
    colleges: oneTerm('ENGL 1 13 A', 'HIST 1 1 B', 'MATH 1 26 C'),
    expected: { gpa: '2.68', transferableUnits: '40.00', inProgressUnits: '0.00' },
  },
  {
    name: 'units with decimals',
    // A 1.5 (6) + B 2.5 (7.5) = 13.5 / 4 = 3.375 → 3.38
    colleges: oneTerm('LAB 1 1.5 A', 'HIST 1 2.5 B'),
    expected: { gpa: '3.38', transferableUnits: '4.00', inProgressUnits: '0.00' },
  },
  {
    name: 'a course of no units weighs nothing',
    // A 0 (0) + B 3 (9): 9 / 3 = 3.00
    colleges: oneTerm('LAB 1 0 A', 'HIST 1 3 B'),
    expected: { gpa: '3.00', transferableUnits: '3.00', inProgressUnits: '0.00' },
  },
  {
    name: 'only courses of no units: no GPA',
    // 0 graded units: no GPA
    colleges: oneTerm('LAB 1 0 A'),
    expected: { gpa: null, transferableUnits: '0.00', inProgressUnits: '0.00' },
  },
  {
    name: 'units over 30 count as none until corrected',
    // the A's 40 units are refused: B 9 / 3 = 3.00
    colleges: oneTerm('ENGL 1 40 A', 'HIST 1 3 B'),
    expected: { gpa: '3.00', transferableUnits: '3.00', inProgressUnits: '0.00' },
  },
  {
    name: 'a grade off the scale counts as none until corrected',
    // Z is unknown: A 12 / 3 = 4.00
    colleges: oneTerm('ENGL 1 3 A', 'HIST 1 3 Z'),
    expected: { gpa: '4.00', transferableUnits: '3.00', inProgressUnits: '0.00' },
  },
  {
    name: 'grades in lower case',
    // a- is A-: 3.7 × 3 / 3 = 3.70
    colleges: oneTerm('ENGL 1 3 a-'),
    expected: { gpa: '3.70', transferableUnits: '3.00', inProgressUnits: '0.00' },
  },
];
