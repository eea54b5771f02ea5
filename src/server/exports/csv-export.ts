import {
  CHECKLIST_STATE_LABELS,
  type Checklist,
  EXPORT_FIXED_COLUMNS,
} from '../../shared/staff/application-api';
import {
  CHECKLIST_COLUMN,
  CHECKLIST_ITEM_PREFIX,
  CHECKLIST_MISSING_COLUMN,
} from '../../shared/staff/export-columns';
import type { ExportApplication } from './exports-store';

/** The checklists of a batch of applications, by application id. */
export type ChecklistsOf = (ids: string[]) => Promise<ReadonlyMap<string, Checklist>>;

/** Whether any chosen column needs the checklist: it is read only then. */
export function needsChecklist(columns: readonly string[]): boolean {
  return columns.some(
    (column) =>
      column === 'missing_items' ||
      column === CHECKLIST_COLUMN ||
      column === CHECKLIST_MISSING_COLUMN ||
      column.startsWith(CHECKLIST_ITEM_PREFIX),
  );
}

const FIXED = new Set<string>(EXPORT_FIXED_COLUMNS);

function fixedValue(column: string, application: ExportApplication, checklist?: Checklist) {
  switch (column) {
    case 'id':
      return application.id;
    case 'email':
      return application.email;
    case 'status':
      return application.status;
    case 'submitted_at':
      return application.submittedAt;
    case 'last_activity':
      return application.lastActivity;
    default:
      return checklist?.missing ?? null;
  }
}

/** One record of the CSV: each chosen column's value; the writer neutralises formulas. */
export function csvRecord(
  columns: readonly string[],
  application: ExportApplication,
  checklist: Checklist | undefined,
): unknown[] {
  return columns.map((column) => {
    if (FIXED.has(column)) return fixedValue(column, application, checklist);
    if (column === CHECKLIST_COLUMN) {
      return checklist?.items
        .map((item) => `${item.label}: ${CHECKLIST_STATE_LABELS[item.state]}`)
        .join('; ');
    }
    if (column === CHECKLIST_MISSING_COLUMN) {
      return checklist?.items
        .filter((item) => item.state === 'awaiting')
        .map((item) => item.label)
        .join('; ');
    }
    if (column.startsWith(CHECKLIST_ITEM_PREFIX)) {
      const key = column.slice(CHECKLIST_ITEM_PREFIX.length);
      const item = checklist?.items.find((one) => one.key === key);
      return item ? CHECKLIST_STATE_LABELS[item.state] : null;
    }
    const value = application.answers[column];
    return value === '' ? null : value;
  });
}
