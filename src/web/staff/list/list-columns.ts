import type { ApplicationListSort } from '../../../shared/staff/application-list-api';
import { isListSort, type ListQuery } from './application-filters';
import list from './list.module.css';

export interface Column {
  key: string;
  /** Null where the server does not sort on the column. */
  sort: ApplicationListSort | null;
  label: string;
  className: string;
}

function sortIfListed(key: string): ApplicationListSort | null {
  return isListSort(key) ? key : null;
}

export const COLUMNS: Column[] = [
  { key: 'name', sort: 'name', label: 'Name', className: list.colName ?? '' },
  { key: 'email', sort: 'email', label: 'Email', className: list.colEmail ?? '' },
  { key: 'status', sort: 'status', label: 'Status', className: list.colStatus ?? '' },
  { key: 'submitted_at', sort: 'submitted_at', label: 'Submitted', className: list.colDate ?? '' },
  {
    key: 'last_activity',
    sort: 'last_activity',
    label: 'Last activity',
    className: list.colDate ?? '',
  },
  { key: 'program', sort: 'program', label: 'Program', className: list.colProgram ?? '' },
  { key: 'entry_term', sort: 'entry_term', label: 'Entry term', className: list.colTerm ?? '' },
  {
    key: 'decision_type',
    sort: 'decision_type',
    label: 'Decision type',
    className: list.colDecisionType ?? '',
  },
  {
    key: 'decision',
    // Sortable as soon as the server lists it among its sorts.
    sort: sortIfListed('decision'),
    label: 'Decision',
    className: list.colDecision ?? '',
  },
  {
    key: 'missing_items',
    sort: 'missing_items',
    label: 'Missing items',
    className: list.colMissing ?? '',
  },
  {
    key: 'transfer_gpa',
    sort: 'transfer_gpa',
    label: 'Transfer GPA',
    className: list.colNumber ?? '',
  },
  {
    key: 'transfer_units',
    sort: 'transfer_units',
    label: 'Transfer units',
    className: list.colNumber ?? '',
  },
  {
    // Courses mapped of those entered ("5/6"). Not sorted: the credit filter finds those to review.
    key: 'credit_mapped',
    sort: null,
    label: 'Mapped',
    className: list.colNumber ?? '',
  },
  {
    // The reads the member may see (blind until their own is submitted): filtered, not sorted.
    key: 'review_score',
    sort: null,
    label: 'Score',
    className: list.colNumber ?? '',
  },
  {
    key: 'review_recommendation',
    sort: null,
    label: 'Recommendation',
    className: list.colDecision ?? '',
  },
  { key: 'reads', sort: null, label: 'Reads', className: list.colStatus ?? '' },
  {
    // Found by the search box (an exact id) rather than sorted.
    key: 'sis_id',
    sort: null,
    label: 'SIS ID',
    className: list.colSisId ?? '',
  },
];

export const SORTABLE = COLUMNS.filter(
  (column): column is Column & { sort: ApplicationListSort } => column.sort !== null,
);

/** Moves the list to another query; filters add to the history, so Back undoes one. */
export type SetQuery = (next: ListQuery, options?: { replace?: boolean }) => void;
