import { DESC_SUFFIX, type FormModel, storesDesc } from '../form/model';
import { resolveModel } from '../form/resolve';
import {
  CHECKLIST_ITEM_KEY_PATTERN,
  EXPORT_COLUMNS_MAX,
  EXPORT_FIXED_COLUMNS,
} from './application-api';

/*
 * The columns a CSV export of the list may hold: the fixed ones, every answer key of the model
 * (a choice as its code and its `_desc` label), and the checklist. Pure, so the console's column
 * picker and the server's check read the same catalogue.
 */

export type ExportColumnGroup =
  | 'fixed'
  | 'decision'
  | 'coursework'
  | 'credit'
  | 'review'
  | 'answer'
  | 'checklist';

export interface ExportColumn {
  /** What `columns=` names and the CSV header says. */
  id: string;
  label: string;
  group: ExportColumnGroup;
}

/** GET /staff/api/exports/columns */
export interface ExportColumnsResponse {
  columns: ExportColumn[];
  /** The columns an export holds when `columns` is not given. */
  default_columns: string[];
  max: number;
  /**
   * One checklist item's state is the column `checklist:<item key>`; the items differ between
   * applications, so they are not listed one by one.
   */
  checklist_item_prefix: string;
}

export const CHECKLIST_COLUMN = 'checklist';
export const CHECKLIST_MISSING_COLUMN = 'checklist_missing';
export const CHECKLIST_ITEM_PREFIX = 'checklist:';

const FIXED_LABELS: Record<(typeof EXPORT_FIXED_COLUMNS)[number], string> = {
  id: 'Application id',
  email: 'Email address',
  status: 'Status',
  submitted_at: 'Submitted at',
  last_activity: 'Last activity',
  missing_items: 'Checklist items missing (count)',
};

/**
 * The receipt and the decision: the confirmation number the applicant quotes, the student
 * information system's id once its integration wrote it back, the decision as a
 * code and as the tenant's label (as the list's `decision` and `decision_label`), its release
 * (scheduled and done) and the applicant's reply. Times are ISO 8601 in UTC, as `submitted_at`.
 */
export const EXPORT_DECISION_COLUMNS = [
  'confirmation_number',
  'sis_id',
  'decision',
  'decision_label',
  'decision_release_at',
  'decision_released_at',
  'reply',
  'replied_at',
] as const;
export type ExportDecisionColumn = (typeof EXPORT_DECISION_COLUMNS)[number];

const DECISION_LABELS: Record<ExportDecisionColumn, string> = {
  confirmation_number: 'Confirmation number',
  sis_id: "SIS ID (the student information system's id)",
  decision: 'Decision (code)',
  // As a choice's `_desc` column is named; a bare "Decision" would share its name with the
  // list's Decision filter on the same page.
  decision_label: 'Decision (label)',
  decision_release_at: 'Decision release scheduled for',
  decision_released_at: 'Decision released at',
  reply: 'Reply to the offer (accepted or declined)',
  replied_at: 'Replied at',
};

/**
 * The coursework's totals as stored at submit (and rewritten by an update after it): semester
 * units and grade points, two decimals each. Empty without totals; the GPA also without grades.
 */
export const EXPORT_COURSEWORK_COLUMNS = [
  'transfer_gpa',
  'transfer_units',
  'in_progress_units',
] as const;
export type ExportCourseworkColumn = (typeof EXPORT_COURSEWORK_COLUMNS)[number];

const COURSEWORK_LABELS: Record<ExportCourseworkColumn, string> = {
  transfer_gpa: 'Transfer GPA',
  transfer_units: 'Transferable units',
  in_progress_units: 'Units in progress',
};

/**
 * Transfer credit as its summary stands (credit_summaries: written at submit, after coursework
 * updates and reviews): the share of courses mapped (two decimals, `0.83`; empty without
 * courses) and how many need an evaluator's review. Then one column per tenant requirement,
 * `req_<id>`, with its status (met, in_progress, not_met); empty where the requirement does not
 * apply or there is no summary.
 */
export const EXPORT_CREDIT_COLUMNS = ['mapped_share', 'needs_review'] as const;
export type ExportCreditColumn = (typeof EXPORT_CREDIT_COLUMNS)[number];

const CREDIT_LABELS: Record<ExportCreditColumn, string> = {
  mapped_share: 'Share of courses mapped',
  needs_review: 'Courses needing review (count)',
};

/**
 * Reading: the submitted reads' mean score and their most given recommendation (a decision
 * code), as the list shows them; empty where the member exporting may not see them (the blind
 * rule: the committee, or after submitting their own read).
 */
export const EXPORT_REVIEW_COLUMNS = ['review_score', 'review_recommendation'] as const;
export type ExportReviewColumn = (typeof EXPORT_REVIEW_COLUMNS)[number];

const REVIEW_LABELS: Record<ExportReviewColumn, string> = {
  review_score: 'Readers’ mean score',
  review_recommendation: 'Readers’ recommendation (code)',
};

export const REQUIREMENT_COLUMN_PREFIX = 'req_';

/** A tenant requirement as the export names it. */
export interface ExportRequirement {
  id: string;
  label: string;
}

export const requirementColumn = (id: string) => `${REQUIREMENT_COLUMN_PREFIX}${id}`;

const CHECKLIST_COLUMNS: ExportColumn[] = [
  {
    id: CHECKLIST_COLUMN,
    label: 'Checklist (every item: its state)',
    group: 'checklist',
  },
  { id: CHECKLIST_MISSING_COLUMN, label: 'Checklist items missing', group: 'checklist' },
];

/** What an export holds unless the request chooses: who, where they stand, what they applied for. */
export const DEFAULT_EXPORT_COLUMNS = [
  'id',
  'last_name',
  'first_name',
  'email',
  'status',
  'submitted_at',
  'last_activity',
  'applied_major',
  'applied_major_desc',
  'entry_term',
  'entry_term_desc',
  'decision_type',
  'decision_type_desc',
  'missing_items',
] as const;

const everything = { addAnother: {}, tabs: {}, isLoggedIn: true, answers: {} };

/**
 * Every column, in the model's order for answers. A key asked in several places takes the label
 * of its first; an instance of an add-another group says which one it is.
 */
export function exportColumns(
  model: FormModel,
  requirements: readonly ExportRequirement[] = [],
): ExportColumn[] {
  const columns: ExportColumn[] = EXPORT_FIXED_COLUMNS.map((id) => ({
    id,
    label: FIXED_LABELS[id],
    group: 'fixed',
  }));
  for (const id of EXPORT_DECISION_COLUMNS) {
    columns.push({ id, label: DECISION_LABELS[id], group: 'decision' });
  }
  for (const id of EXPORT_COURSEWORK_COLUMNS) {
    columns.push({ id, label: COURSEWORK_LABELS[id], group: 'coursework' });
  }
  for (const id of EXPORT_CREDIT_COLUMNS) {
    columns.push({ id, label: CREDIT_LABELS[id], group: 'credit' });
  }
  for (const id of EXPORT_REVIEW_COLUMNS) {
    columns.push({ id, label: REVIEW_LABELS[id], group: 'review' });
  }
  for (const requirement of requirements) {
    columns.push({
      id: requirementColumn(requirement.id),
      label: `${requirement.label} (requirement status)`,
      group: 'credit',
    });
  }
  const seen = new Set<string>(columns.map((column) => column.id));
  for (const place of resolveModel(model, everything)) {
    if (seen.has(place.key)) continue;
    seen.add(place.key);
    const label = place.instance
      ? `${place.field.label} (${place.instance.label})`
      : place.field.label;
    columns.push({ id: place.key, label, group: 'answer' });
    if (storesDesc(place.field)) {
      const descKey = `${place.key}${DESC_SUFFIX}`;
      seen.add(descKey);
      columns.push({ id: descKey, label: `${label} (label)`, group: 'answer' });
    }
  }
  return [...columns, ...CHECKLIST_COLUMNS];
}

export function exportColumnsResponse(
  model: FormModel,
  requirements: readonly ExportRequirement[] = [],
): ExportColumnsResponse {
  return {
    columns: exportColumns(model, requirements),
    default_columns: [...DEFAULT_EXPORT_COLUMNS],
    max: EXPORT_COLUMNS_MAX,
    checklist_item_prefix: CHECKLIST_ITEM_PREFIX,
  };
}

export function isChecklistItemColumn(id: string): boolean {
  return (
    id.startsWith(CHECKLIST_ITEM_PREFIX) &&
    CHECKLIST_ITEM_KEY_PATTERN.test(id.slice(CHECKLIST_ITEM_PREFIX.length))
  );
}

export type ColumnsCheck =
  | { ok: true; columns: string[] }
  | { ok: false; reason: 'unknown'; unknown: string[] }
  | { ok: false; reason: 'too_many' | 'empty' };

/**
 * The columns of `columns=a,b,c` (or the parameter repeated): each one known, none twice (a
 * repeat is dropped), at most EXPORT_COLUMNS_MAX. Absent: the default set.
 */
export function checkExportColumns(
  given: string | readonly string[] | undefined,
  known: ReadonlySet<string>,
): ColumnsCheck {
  if (given === undefined) return { ok: true, columns: [...DEFAULT_EXPORT_COLUMNS] };
  const parts = (typeof given === 'string' ? [given] : given)
    .flatMap((part) => part.split(','))
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0) return { ok: false, reason: 'empty' };
  // Checked before anything else is done with the parts: the list may be very long.
  if (parts.length > EXPORT_COLUMNS_MAX * 2) return { ok: false, reason: 'too_many' };
  const unknown = parts.filter((part) => !known.has(part) && !isChecklistItemColumn(part));
  if (unknown.length > 0)
    return { ok: false, reason: 'unknown', unknown: [...new Set(unknown)].slice(0, 20) };
  const columns = [...new Set(parts)];
  if (columns.length > EXPORT_COLUMNS_MAX) return { ok: false, reason: 'too_many' };
  return { ok: true, columns };
}
