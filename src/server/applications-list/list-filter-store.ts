import { and, gte, inArray, lt, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { ListViewer } from '../../shared/staff/application-list-api';
import type { ListFilterColumn, ListFilterCondition } from '../../shared/staff/list-filters';
import { APPLICATION_STATUSES, parseRequirementFilterValue } from '../../shared/staff/list-filters';
import { startOfDay } from '../audit/audit-store';
import {
  applicationChanges,
  applications,
  checklistCounts,
  courseworkTotals,
  creditRequirementStatuses,
  creditSummaries,
  decisions,
  reviewReads,
  staffApplicationViews,
} from '../db/schema';

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
  | {
      on: 'per_application';
      table: SQLWrapper;
      accountId: SQLWrapper;
      column: SQLWrapper;
      /**
       * A filter's values as one condition on the row, when a value is not the column's value
       * (`needs_review` is a count above zero; `golden_four:met` one key of a jsonb). Any value
       * given matches, as with `in`.
       */
      values?: (values: readonly string[]) => SQL;
    }
  | {
      /**
       * A condition of its own on the application, for the member the list is for: reading's
       * columns, where what a member may match depends on who they are (the blind rule).
       */
      on: 'viewer';
      column: SQLWrapper;
      values: (values: readonly string[], viewer: ListViewer | undefined) => SQL;
    }
  | {
      /** The member's own: a condition for the member asking (yes/no filters). */
      on: 'per_member';
      condition: (viewerId: string) => SQL;
    };

const statusIndex = (status: string) => (APPLICATION_STATUSES as readonly string[]).indexOf(status);

const cs = creditSummaries;
const rs = creditRequirementStatuses;

/** Any of the conditions; false when none (a value the schema let through that matches nothing). */
const anyOf = (conditions: SQL[]): SQL =>
  conditions.length === 0 ? sql`false` : (or(...conditions) ?? sql`false`);

/**
 * The credit filter's values on the summary: needing review is a count above zero (answered from
 * credit_summaries_review_idx on (needs_review, account_id)); all mapped is none needing review
 * among some courses.
 */
function creditReviewCondition(values: readonly string[]): SQL {
  return anyOf(
    values.flatMap((value) => {
      if (value === 'needs_review') return [sql`${cs.needsReview} > 0`];
      if (value === 'reviewed') return [sql`(${cs.needsReview} = 0 and ${cs.courses} > 0)`];
      return [];
    }),
  );
}

/**
 * A requirement's status (`golden_four:met`): a row of credit_requirement_statuses, found by its
 * index on (requirement_id, status, account_id). A requirement that does not apply to the
 * application (a major's prerequisites) has no row, so it matches no status.
 */
function requirementsCondition(values: readonly string[]): SQL {
  return anyOf(
    values.flatMap((value) => {
      const parsed = parseRequirementFilterValue(value);
      if (!parsed) return [];
      return [sql`(${rs.requirementId} = ${parsed.id} and ${rs.status} = ${parsed.status})`];
    }),
  );
}

const rr = reviewReads;
/** Reads of the row's application, from review_reads_round_idx on (account_id, round). */
const readsOfRow = (condition: SQL = sql`true`) =>
  sql`exists (select 1 from ${rr} where ${rr.accountId} = ${a.accountId} and ${condition})`;

/** Where the application's reading stands (REVIEW_STATUS_VALUES). */
function reviewStatusCondition(values: readonly string[]): SQL {
  const open = sql`${rr.status} <> 'submitted'`;
  return anyOf(
    values.flatMap((value) => {
      if (value === 'unassigned') return [sql`not ${readsOfRow()}`];
      if (value === 'in_progress')
        return [readsOfRow(sql`${open} and ${rr.round} in ('first', 'second')`)];
      if (value === 'needs_third_read') return [readsOfRow(sql`${open} and ${rr.round} = 'third'`)];
      if (value === 'complete') return [sql`(${readsOfRow()} and not ${readsOfRow(open)})`];
      return [];
    }),
  );
}

/**
 * The member may see the application's scores and recommendations: on the committee, or having
 * submitted their own read of it. Without a member, never.
 */
export function seesReadsOf(viewer: ListViewer | undefined): SQL {
  if (!viewer) return sql`false`;
  if (viewer.committee) return sql`true`;
  return readsOfRow(sql`${rr.readerId} = ${viewer.id} and ${rr.status} = 'submitted'`);
}

/** The recommendation most given by the submitted reads (ties: the first code in order). */
export const topRecommendation = sql`(select ${rr.recommendation} from ${rr}
  where ${rr.accountId} = ${a.accountId} and ${rr.status} = 'submitted'
    and ${rr.recommendation} is not null
  group by ${rr.recommendation} order by count(*) desc, ${rr.recommendation} limit 1)`;

function recommendationCondition(values: readonly string[], viewer: ListViewer | undefined): SQL {
  if (!viewer || values.length === 0) return sql`false`;
  return sql`(${seesReadsOf(viewer)} and ${topRecommendation} in (${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}))`;
}
const views = staffApplicationViews;
const changes = applicationChanges;

/**
 * New since the member last looked: never opened by them, or changed after they opened it. A
 * submitted application's change time is application_changes (what integrators see change); an
 * application not yet submitted has none, so its own updated time counts. Answered from the
 * views' primary key (staff_id, account_id) and application_changes' primary key.
 */
function newSinceViewed(viewerId: string): SQL {
  return sql`not exists (select 1 from ${views}
    where ${views.staffId} = ${viewerId} and ${views.accountId} = ${a.accountId}
    and ${views.viewedAt} >= coalesce(
      (select ${changes.changedAt} from ${changes} where ${changes.accountId} = ${a.accountId}),
      ${a.updatedAt}, '-infinity'::timestamptz))`;
}

/** A member-specific filter given without the member: a mistake in the code that calls. */
export class ListFilterViewerMissing extends Error {}

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
  // The credit summary written at submit (and after updates and reviews): no row, no match.
  credit_review: {
    on: 'per_application',
    table: cs,
    accountId: cs.accountId,
    column: cs.needsReview,
    values: creditReviewCondition,
  },
  credit_requirements: {
    on: 'per_application',
    table: rs,
    accountId: rs.accountId,
    column: rs.status,
    values: requirementsCondition,
  },
  review_status: { on: 'viewer', column: a.accountId, values: reviewStatusCondition },
  review_recommendation: { on: 'viewer', column: a.accountId, values: recommendationCondition },
  new_since_viewed: { on: 'per_member', condition: newSinceViewed },
};

/** One filter's condition on its column, before it is placed where the column is read. */
interface ColumnCondition {
  source: ListColumnSource;
  condition: SQL;
}

/** One filter as conditions on its column: each kind of filter reads its column one way. */
function columnConditions(
  filter: ListFilterCondition,
  viewer: ListViewer | undefined,
): ColumnCondition[] {
  const source = LIST_FILTER_COLUMNS[filter.column];
  const on = (condition: SQL): ColumnCondition => ({ source, condition });
  if (source.on === 'per_member') {
    if (!viewer) throw new ListFilterViewerMissing(`${filter.name} needs the member`);
    const condition = source.condition(viewer.id);
    if (filter.kind !== 'yes_no') return [on(condition)];
    return [on(filter.yes ? condition : sql`not ${condition}`)];
  }
  const { column } = source;
  switch (filter.kind) {
    case 'values': {
      if (source.on === 'viewer') return [on(source.values(filter.values, viewer))];
      if (source.on === 'per_application' && source.values) {
        return [on(source.values(filter.values))];
      }
      const stored = source.on === 'applications' ? source.stored : undefined;
      const values = stored ? filter.values.map(stored) : [...filter.values];
      return [on(inArray(column, values))];
    }
    case 'date_range': {
      const { from, to } = filter;
      // Whole days in UTC, the last one included.
      return [
        ...(from === null ? [] : [on(gte(column, startOfDay(from)))]),
        ...(to === null ? [] : [on(lt(column, new Date(startOfDay(to).getTime() + DAY_MS)))]),
      ];
    }
    case 'yes_no':
      return [on(filter.yes ? sql`${column} > 0` : sql`${column} = 0`)];
    case 'at_least':
      // The bound as exact decimal text: compared as numeric, 2.4 includes a stored 2.40.
      return [on(sql`${column} >= cast(${String(filter.min)} as numeric)`)];
  }
}

/**
 * Every filter of a request together, as conditions on `applications`; undefined when none is
 * given. A member's own filter (new since I last looked) reads `viewer`, the member asking.
 * The conditions on one table of one row per application are read by one `exists` (GPA
 * and units together are one lookup of coursework_totals, not two). A table the statement joins
 * already by account id (`joined`: the sort's table walked from its index) is read directly, so
 * a bound on the sorted column starts the walk at the bound.
 */
export function listFiltersWhere(
  filters: readonly ListFilterCondition[],
  { joined, viewer }: { joined?: SQLWrapper; viewer?: ListViewer } = {},
): SQL | undefined {
  const direct: SQL[] = [];
  const byTable = new Map<SQLWrapper, { accountId: SQLWrapper; conditions: SQL[] }>();
  for (const { source, condition } of filters.flatMap((filter) =>
    columnConditions(filter, viewer),
  )) {
    if (source.on !== 'per_application' || source.table === joined) {
      direct.push(condition);
      continue;
    }
    const group = byTable.get(source.table) ?? { accountId: source.accountId, conditions: [] };
    group.conditions.push(condition);
    byTable.set(source.table, group);
  }
  const lookups = [...byTable].map(
    ([table, { accountId, conditions }]) =>
      sql`exists (select 1 from ${table} where ${accountId} = ${a.accountId}
        and ${and(...conditions)})`,
  );
  return and(...direct, ...lookups);
}
