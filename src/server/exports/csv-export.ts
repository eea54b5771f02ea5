import {
  CHECKLIST_STATE_LABELS,
  type Checklist,
  EXPORT_FIXED_COLUMNS,
} from '../../shared/staff/application-api';
import {
  CHECKLIST_COLUMN,
  CHECKLIST_ITEM_PREFIX,
  CHECKLIST_MISSING_COLUMN,
  EXPORT_COURSEWORK_COLUMNS,
  EXPORT_CREDIT_COLUMNS,
  EXPORT_DECISION_COLUMNS,
  EXPORT_REVIEW_COLUMNS,
  type ExportCourseworkColumn,
  type ExportDecisionColumn,
  REQUIREMENT_COLUMN_PREFIX,
} from '../../shared/staff/export-columns';
import type { ExportApplication } from './exports-store';

/** The checklists of a batch of applications, by application id. */
export type ChecklistsOf = (ids: string[]) => Promise<ReadonlyMap<string, Checklist>>;

/** Whether any chosen column is reading's: the reads are read only then. */
export function needsReview(columns: readonly string[]): boolean {
  return columns.some((column) => (EXPORT_REVIEW_COLUMNS as readonly string[]).includes(column));
}

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

const DECISION = new Set<string>(EXPORT_DECISION_COLUMNS);

function decisionValue(
  column: ExportDecisionColumn,
  application: ExportApplication,
  labelOf: (code: string) => string,
) {
  const { decision } = application;
  switch (column) {
    case 'confirmation_number':
      return application.confirmationNumber;
    case 'sis_id':
      return application.sisId;
    case 'decision':
      return decision?.code ?? null;
    case 'decision_label':
      return decision ? labelOf(decision.code) : null;
    case 'decision_release_at':
      // Once released, the scheduled time is history: released_at says when it happened.
      return decision && !decision.releasedAt ? decision.releaseAt : null;
    case 'decision_released_at':
      return decision?.releasedAt ?? null;
    case 'reply':
      return decision?.reply ?? null;
    case 'replied_at':
      return decision?.repliedAt ?? null;
  }
}

const COURSEWORK = new Set<string>(EXPORT_COURSEWORK_COLUMNS);

/** A coursework total, empty when the application has none (not submitted, or no GPA). */
export function courseworkValue(
  column: ExportCourseworkColumn,
  application: Pick<ExportApplication, 'coursework'>,
): string | null {
  const { coursework } = application;
  switch (column) {
    case 'transfer_gpa':
      return coursework?.gpa ?? null;
    case 'transfer_units':
      return coursework?.transferUnits ?? null;
    case 'in_progress_units':
      return coursework?.inProgressUnits ?? null;
  }
}

const CREDIT = new Set<string>(EXPORT_CREDIT_COLUMNS);

/**
 * A transfer credit value: the share of courses mapped (two decimals, empty without courses),
 * the count needing review, or a requirement's status (`req_<id>`, empty where it does not
 * apply); everything empty without a credit summary.
 */
export function creditValue(
  column: string,
  application: Pick<ExportApplication, 'credit'>,
): string | number | null {
  const { credit } = application;
  if (!credit) return null;
  if (column === 'mapped_share') {
    return credit.courses > 0
      ? (Math.round((credit.mapped / credit.courses) * 100) / 100).toFixed(2)
      : null;
  }
  if (column === 'needs_review') return credit.needsReview;
  if (column.startsWith(REQUIREMENT_COLUMN_PREFIX)) {
    return credit.requirements[column.slice(REQUIREMENT_COLUMN_PREFIX.length)] ?? null;
  }
  return null;
}

/**
 * One record of the CSV: each chosen column's value, in the order chosen; the writer neutralises
 * formulas. `decisionLabel` names a decision code as the tenant does.
 */
export function csvRecord(
  columns: readonly string[],
  application: ExportApplication,
  checklist: Checklist | undefined,
  decisionLabel: (code: string) => string = (code) => code,
  /** The tenant's requirement columns (`req_<id>`), which an answer key never shadows. */
  requirementColumns?: ReadonlySet<string>,
): unknown[] {
  return columns.map((column) => {
    if (FIXED.has(column)) return fixedValue(column, application, checklist);
    if (DECISION.has(column)) {
      return decisionValue(column as ExportDecisionColumn, application, decisionLabel);
    }
    if (COURSEWORK.has(column)) {
      return courseworkValue(column as ExportCourseworkColumn, application);
    }
    if (CREDIT.has(column) || (requirementColumns?.has(column) ?? false)) {
      return creditValue(column, application);
    }
    if (column === 'review_score') return application.review?.score ?? null;
    if (column === 'review_recommendation') return application.review?.recommendation ?? null;
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
