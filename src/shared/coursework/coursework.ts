/*
 * What an applicant enters about the courses taken at each college they attended: the college's
 * term system and its terms, each with its courses. The shapes only; the rules that turn them
 * into a GPA and units are in coursework-rules.ts and coursework-totals.ts.
 */

export const TERM_SYSTEMS = ['quarter', 'semester'] as const;
export type TermSystem = (typeof TERM_SYSTEMS)[number];

export const SEASONS = ['winter', 'spring', 'summer', 'fall'] as const;
export type Season = (typeof SEASONS)[number];

export const TERM_STATUSES = ['completed', 'in_progress', 'planned'] as const;
export type TermStatus = (typeof TERM_STATUSES)[number];

/** The most units one course may carry (a full-time term of a single course at most). */
export const MAX_COURSE_UNITS = 30;
/** All colleges together: more is a data-entry mistake, and the grid must stay usable. */
export const MAX_COURSES = 200;
export const MAX_TERMS = 30;

export interface Course {
  /** `MATH`: compared without regard to case or spaces when looking for repeats. */
  subject: string;
  /** `1A`, `101`: compared as the subject is. */
  number: string;
  title: string;
  /** In the college's own units: quarter units at a quarter college. */
  units: number;
  /** As the transcript prints it (`B+`, `CR`, `W`); null until there is one. */
  grade: string | null;
}

export interface Term {
  season: Season;
  year: number;
  status: TermStatus;
  courses: Course[];
}

export interface CollegeCoursework {
  /**
   * Which college this is (its code or name as the application's college list gives it): a
   * course repeated at the same college is one course, whichever list entry holds its terms.
   */
  college: string;
  termSystem: TermSystem;
  terms: Term[];
}

/**
 * Seasons in their order within a calendar year. Terms are named by the calendar year they fall
 * in (Fall 2024 comes before Winter 2025), so winter opens the year and fall closes it.
 */
const SEASON_ORDER: Record<Season, number> = { winter: 0, spring: 1, summer: 2, fall: 3 };

/** Negative, zero or positive as term a comes before, with or after term b. */
export function compareTerms(a: Pick<Term, 'season' | 'year'>, b: Pick<Term, 'season' | 'year'>) {
  return a.year - b.year || SEASON_ORDER[a.season] - SEASON_ORDER[b.season];
}

const SEASON_NAMES: Record<Season, string> = {
  winter: 'Winter',
  spring: 'Spring',
  summer: 'Summer',
  fall: 'Fall',
};

/** `Fall 2027`. */
export function termName(term: Pick<Term, 'season' | 'year'>): string {
  return `${SEASON_NAMES[term.season]} ${term.year}`;
}

/** Case and spaces do not make a course different: `math 1a` is `MATH 1A`. */
function normalizedPart(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

/** The key that makes two entries attempts of one course: college, subject and number. */
export function courseKey(college: string, course: Pick<Course, 'subject' | 'number'>): string {
  return [college, course.subject, course.number].map(normalizedPart).join('\u0000');
}

/** A grade as the rules name it: `b +` is `B+`. */
export function normalizeGrade(grade: string | null): string {
  return (grade ?? '').replace(/\s+/g, '').toUpperCase();
}
