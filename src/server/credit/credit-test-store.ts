import { equivalencyKey } from '../../shared/credit/equivalency';
import type { AppDatabase } from '../db/database';
import { equivalencies } from '../db/schema';

/** One row of a sending college's table, as the end-to-end set-up gives it. */
export interface TestEquivalency {
  subject: string;
  number: string;
  local_course: string;
  local_units: string;
  kind: 'course' | 'elective' | 'no_credit';
  satisfies: string[];
}

/**
 * For the end-to-end tests only: adds rows to a sending college's equivalency table, where the
 * office would import a CSV (the e2e server keeps its embedded database locked).
 */
export function createCreditTestStore(db: AppDatabase) {
  return {
    async addEquivalencies(ceeb: string, rows: readonly TestEquivalency[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insert(equivalencies)
        .values(
          rows.map((row, index) => ({
            sendingCeeb: ceeb,
            courseKey: equivalencyKey(row.subject, row.number),
            subject: row.subject,
            number: row.number,
            title: `${row.subject} ${row.number}`,
            units: row.local_units,
            localCourse: row.local_course,
            localUnits: row.local_units,
            kind: row.kind,
            satisfies: row.satisfies,
            line: index + 2,
          })),
        )
        .onConflictDoNothing();
    },
  };
}
