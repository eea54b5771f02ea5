import { and, gte, inArray, lt, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { ListFilterColumn, ListFilterCondition } from '../../shared/staff/list-filters';
import { APPLICATION_STATUSES } from '../../shared/staff/list-filters';
import { startOfDay } from '../audit/audit-store';
import { applications, checklistCounts, courseworkTotals, decisions } from '../db/schema';

/*
 * The server's side of the list's filter table (shared/staff/list-filters.ts): how each list
 * column is read, and one function that turns a filter of any kind into a condition on it. The
 * conditions are all on `applications`, so the list, its search, exports and decisions share them.
 */

const DAY_MS = 86_400_000;
const a = applications;

/**
 * A list column: on `applications` itself, or in a table of one row per application (read by
 * `exists`, which its primary key answers without joining every row).
 */
type ListColumnSource =
  | {
      on: 'applications';
      column: SQLWrapper;
      /** The value stored for a filter's value, when the column keeps a code of it. */
      stored?: (value: string) => unknown;
    }
  | { on: 'per_application'; table: SQLWrapper; accountId: SQLWrapper; column: SQLWrapper };

const statusIndex = (status: string) => (APPLICATION_STATUSES as readonly string[]).indexOf(status);

/** Every column a filter may read; the type makes a new column in the table name one here. */
export const LIST_FILTER_COLUMNS: Record<ListFilterColumn, ListColumnSource> = {
  list_status: { on: 'applications', column: a.listStatus, stored: statusIndex },
  list_entry_term: { on: 'applications', column: a.listEntryTerm },
  list_program_code: { on: 'applications', column: a.listProgramCode },
  list_decision_type: { on: 'applications', column: a.listDecisionType },
  submitted_at: { on: 'applications', column: a.submittedAt },
  // Answered from decisions(code, account_id): few applications have a given decision.
  decision_code: {
    on: 'per_application',
    table: decisions,
    accountId: decisions.accountId,
    column: decisions.code,
  },
  // Not yet counted is neither yes nor no: the sweep counts every application within seconds.
  missing_items: {
    on: 'per_application',
    table: checklistCounts,
    accountId: checklistCounts.accountId,
    column: checklistCounts.missing,
  },
  // Answered from coursework_totals(transfer_gpa, account_id) and (transfer_units, account_id);
  // an application without a row, or without a GPA, matches no bound.
  transfer_gpa: {
    on: 'per_application',
    table: courseworkTotals,
    accountId: courseworkTotals.accountId,
    column: courseworkTotals.transferGpa,
  },
  transfer_units: {
    on: 'per_application',
    table: courseworkTotals,
    accountId: courseworkTotals.accountId,
    column: courseworkTotals.transferUnits,
  },
};

/** A condition on a column, wherever the column is. */
function onColumn(source: ListColumnSource, condition: (column: SQLWrapper) => SQL): SQL {
  if (source.on === 'applications') return condition(source.column);
  return sql`exists (select 1 from ${source.table} where ${source.accountId} = ${a.accountId}
    and ${condition(source.column)})`;
}

/** One filter as a condition on its column: each kind of filter reads its column one way. */
export function listFilterWhere(filter: ListFilterCondition): SQL | undefined {
  const source = LIST_FILTER_COLUMNS[filter.column];
  switch (filter.kind) {
    case 'values': {
      const stored = source.on === 'applications' ? source.stored : undefined;
      const values = stored ? filter.values.map(stored) : [...filter.values];
      return onColumn(source, (column) => inArray(column, values));
    }
    case 'date_range': {
      const { from, to } = filter;
      // Whole days in UTC, the last one included.
      return and(
        from === null ? undefined : onColumn(source, (column) => gte(column, startOfDay(from))),
        to === null
          ? undefined
          : onColumn(source, (column) => lt(column, new Date(startOfDay(to).getTime() + DAY_MS))),
      );
    }
    case 'yes_no':
      return onColumn(source, (column) => (filter.yes ? sql`${column} > 0` : sql`${column} = 0`));
    case 'at_least':
      // The bound as exact decimal text: compared as numeric, 2.4 includes a stored 2.40.
      return onColumn(source, (column) => sql`${column} >= cast(${String(filter.min)} as numeric)`);
  }
}

/** Every filter of a request together; undefined when none is given. */
export function listFiltersWhere(filters: readonly ListFilterCondition[]): SQL | undefined {
  return and(...filters.map(listFilterWhere));
}
