import {
  attachedDocuments,
  type PrintableApplication,
  printableRows,
  printableText,
} from '../../../shared/form/printable';
import type { Checklist } from '../../../shared/staff/application-api';

/** The answers the summary band names, by their keys in the model. */
export const SUMMARY_KEYS = { program: 'applied_major', entryTerm: 'entry_term' } as const;

export interface CollegeSummary {
  college: string;
  /** The transfer GPA to two decimals; null without graded units. */
  gpa: string | null;
  /** Transferable semester units. */
  units: string;
}

export interface ReadingSummary {
  program: string | null;
  entryTerm: string | null;
  colleges: CollegeSummary[];
  /** `3 of 5 received`, with the waived items said apart. */
  checklist: string;
  /** The labels of the items still awaited, in the checklist's order. */
  missing: string[];
  documents: number;
}

function answerText(application: PrintableApplication, key: string): string | null {
  for (const page of application.pages)
    for (const group of page.groups)
      for (const row of printableRows(group.entries))
        if (row.key === key && row.answered) return printableText(row.value);
  return null;
}

/** What the checklist says in one line: how many items are in, and which are still awaited. */
export function checklistSummary(checklist: Checklist): { text: string; missing: string[] } {
  const items = checklist.items;
  const waived = items.filter((item) => item.state === 'waived').length;
  const received = items.filter((item) => item.state === 'received').length;
  const missing = items.filter((item) => item.state === 'awaiting').map((item) => item.label);
  if (items.length === 0) return { text: 'No items', missing };
  const base = `${received} of ${items.length - waived} received`;
  return { text: waived > 0 ? `${base} (${waived} waived)` : base, missing };
}

/** The band at the top of an application: what a reader wants before the answers. */
export function readingSummary(
  application: PrintableApplication,
  checklist: Checklist,
): ReadingSummary {
  const { text, missing } = checklistSummary(checklist);
  return {
    program: answerText(application, SUMMARY_KEYS.program),
    entryTerm: answerText(application, SUMMARY_KEYS.entryTerm),
    colleges: (application.coursework?.colleges ?? []).map((college) => ({
      college: college.college,
      gpa: college.gpa,
      units: college.transferableUnits,
    })),
    checklist: text,
    missing,
    documents: attachedDocuments(application).length,
  };
}

/** One college as the band says it: `Broward College: GPA 3.45, 30.00 units`. */
export function collegeText(college: CollegeSummary): string {
  const gpa = college.gpa === null ? 'no GPA yet' : `GPA ${college.gpa}`;
  return `${college.college || 'College'}: ${gpa}, ${college.units} units`;
}
