/*
 * A sending college's equivalency table: how each of its courses transfers to this university.
 * The office loads one CSV per college (`npm run equivalencies:import`, or the console); the
 * columns below are the file's contract.
 */

export const EQUIVALENCY_KINDS = ['course', 'elective', 'no_credit'] as const;
export type EquivalencyKind = (typeof EQUIVALENCY_KINDS)[number];

/** The file's header, in this order; `satisfies` may be left out. */
export const EQUIVALENCY_COLUMNS = [
  'sending_ceeb',
  'subject',
  'number',
  'title',
  'units',
  'local_course',
  'local_units',
  'kind',
  'satisfies',
] as const;
export const REQUIRED_EQUIVALENCY_COLUMNS = EQUIVALENCY_COLUMNS.filter(
  (column) => column !== 'satisfies',
);

/** A requirement code a local course satisfies: `GE-A2`, `MAJOR-CS-CALC1`. */
export const REQUIREMENT_CODE = /^[A-Z0-9][A-Z0-9_.-]{0,39}$/;

export interface Equivalency {
  sendingCeeb: string;
  subject: string;
  number: string;
  title: string;
  /** In the sending college's units. */
  units: number;
  /** `MATH 150`; for an elective, the elective's name (`MATH 1XX`); '' for no credit. */
  localCourse: string;
  /** In this university's units; 0 for no credit. */
  localUnits: number;
  kind: EquivalencyKind;
  satisfies: string[];
}

/** One college's table, by `equivalencyKey`. */
export type EquivalencyTable = ReadonlyMap<string, Equivalency>;

/** Subject and number as a table finds them: case and spaces do not matter (`math 1a` = `MATH1A`). */
export function equivalencyKey(subject: string, number: string): string {
  const part = (text: string) => text.replace(/\s+/g, '').toUpperCase();
  return `${part(subject)} ${part(number)}`;
}

export const EQUIVALENCY_KIND_LABELS: Record<EquivalencyKind, string> = {
  course: 'Course',
  elective: 'Elective',
  no_credit: 'No credit',
};
