import {
  REQUIREMENT_ID,
  REQUIREMENT_STATUSES,
  type RequirementStatus,
} from '../credit/credit-requirements';

/*
 * The staff list's filters, defined once. Everything else about a filter is derived from its row
 * here: the request schema (application-list-api.ts), the browser's query and its address
 * (list-query.ts), the controls (web/staff/list/list-filters.tsx), the server's condition
 * (server/applications-list/list-filter-store.ts) and so what exports and decisions select.
 * Adding a filter is one row, plus a list column when none holds what it reads.
 */

export const APPLICATION_STATUSES = ['started', 'validating', 'submitted'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export const STATUS_LABELS: Record<ApplicationStatus, string> = {
  started: 'Started',
  validating: 'Validating',
  submitted: 'Submitted',
};

/**
 * The credit filter: applications with at least one course needing an evaluator's review, or
 * with courses all mapped (an application without courses is neither).
 */
export const CREDIT_REVIEW_VALUES = ['needs_review', 'reviewed'] as const;
export type CreditReviewValue = (typeof CREDIT_REVIEW_VALUES)[number];

export const CREDIT_REVIEW_LABELS: Record<CreditReviewValue, string> = {
  needs_review: 'Needs review',
  reviewed: 'All courses mapped',
};

/**
 * Where an application's reading stands: no read yet; a first or second read open; a third read
 * (the scores were far apart) not yet submitted; every read submitted (at least one).
 */
export const REVIEW_STATUS_VALUES = [
  'unassigned',
  'in_progress',
  'needs_third_read',
  'complete',
] as const;
export type ReviewStatusValue = (typeof REVIEW_STATUS_VALUES)[number];

export const REVIEW_STATUS_LABELS: Record<ReviewStatusValue, string> = {
  unassigned: 'Not assigned',
  in_progress: 'Being read',
  needs_third_read: 'Needs a third read',
  complete: 'Reads complete',
};

/** A requirement filter's value: the requirement's id and one of its statuses. */
export function requirementFilterValue(id: string, status: RequirementStatus): string {
  return `${id}:${status}`;
}

/** The id and status of a requirement filter's value; null when it is not `<id>:<status>`. */
export function parseRequirementFilterValue(
  value: string,
): { id: string; status: RequirementStatus } | null {
  const at = value.lastIndexOf(':');
  if (at < 0) return null;
  const id = value.slice(0, at);
  const status = value.slice(at + 1);
  if (!REQUIREMENT_ID.test(id)) return null;
  if (!(REQUIREMENT_STATUSES as readonly string[]).includes(status)) return null;
  return { id, status: status as RequirementStatus };
}

/**
 * Where a filter's choices come from. `fixed` choices are the only values the server accepts; the
 * others are lists that change (terms by year, the tenant's codes), so the server takes any short
 * value and an old address still works.
 */
export type ListFilterOptions =
  | { from: 'fixed'; values: readonly string[]; labels: Readonly<Record<string, string>> }
  | { from: 'entry_terms' }
  | { from: 'programs' }
  | { from: 'decision_types' }
  | { from: 'decision_codes' }
  /**
   * The tenant's credit requirements, each with each status: a value is `<id>:<status>`
   * (`golden_four:met`). The status is checked against REQUIREMENT_STATUSES by the request schema;
   * the id against the tenant's requirements by the server, which knows the tenant.
   */
  | { from: 'credit_requirements' };

/**
 * The list's columns a filter may read; the server says how each is read
 * (server/applications-list/list-filter-store.ts), so a new one is added there too.
 */
export type ListFilterColumn =
  | 'list_status'
  | 'list_entry_term'
  | 'list_program_code'
  | 'list_decision_type'
  | 'decision_code'
  | 'submitted_at'
  | 'missing_items'
  | 'transfer_gpa'
  | 'transfer_units'
  | 'credit_review'
  | 'credit_requirements'
  | 'review_status'
  | 'review_recommendation'
  /** The member's own: changed since they last opened the application, or never opened. */
  | 'new_since_viewed';

interface ListFilterBase {
  /** The parameter in the address and the request (a date range adds `_from` and `_to`). */
  name: string;
  /** The control's label; lower-cased, it names the filter in a sentence about the list. */
  label: string;
  column: ListFilterColumn;
}

/** The filter's values are any of the choices: checkboxes, one per choice. */
export interface SeveralChoicesFilter extends ListFilterBase {
  kind: 'choices';
  options: ListFilterOptions;
}

/** One choice from a select; an address may still carry several, which the select shows as one. */
export interface ChoiceFilter extends ListFilterBase {
  kind: 'choice';
  options: ListFilterOptions;
  /** The select's id: links, labels and end-to-end tests find the control by it. */
  id: string;
  /** The select's first option, which filters nothing. */
  anyLabel: string;
}

/** Yes, no or either; yes means the column's count is above zero. */
export interface YesNoFilter extends ListFilterBase {
  kind: 'yes_no';
  id: string;
  anyLabel: string;
  yesLabel: string;
  noLabel: string;
  /** How a sentence about the list says each answer. */
  yesSentence: string;
  noSentence: string;
}

/** Whole days from one date to another, both included; either end may be left open. */
export interface DateRangeFilter extends ListFilterBase {
  kind: 'date_range';
  fromId: string;
  fromLabel: string;
  toId: string;
  toLabel: string;
}

/**
 * A number the column's value is at least (the bound included), from a box: an application
 * without a value (no coursework totals, no graded units) does not match.
 */
export interface AtLeastFilter extends ListFilterBase {
  kind: 'at_least';
  id: string;
  /** The values the filter accepts, both included. */
  min: number;
  max: number;
  /** Decimals a value may have; the box steps by the smallest of them (2: 0.01). */
  decimals: number;
  /** How a sentence about the list names it, before the value: `transfer GPA at least`. */
  sentence: string;
}

export type ListFilterRow =
  | SeveralChoicesFilter
  | ChoiceFilter
  | YesNoFilter
  | DateRangeFilter
  | AtLeastFilter;

/** The filters in the order the page shows them and the address writes them. */
export const LIST_FILTERS = [
  {
    name: 'status',
    kind: 'choices',
    label: 'Status',
    options: { from: 'fixed', values: APPLICATION_STATUSES, labels: STATUS_LABELS },
    column: 'list_status',
  },
  {
    name: 'term',
    kind: 'choice',
    id: 'filter-term',
    label: 'Entry term',
    anyLabel: 'Any term',
    options: { from: 'entry_terms' },
    column: 'list_entry_term',
  },
  {
    name: 'program',
    kind: 'choice',
    id: 'filter-program',
    label: 'Program',
    anyLabel: 'Any program',
    options: { from: 'programs' },
    column: 'list_program_code',
  },
  {
    name: 'decision_type',
    kind: 'choice',
    id: 'filter-decision',
    label: 'Decision type',
    anyLabel: 'Any decision type',
    options: { from: 'decision_types' },
    column: 'list_decision_type',
  },
  {
    // The code staff recorded (released or not), not the applicant's decision type.
    name: 'decision',
    kind: 'choice',
    id: 'filter-decision-code',
    label: 'Decision',
    anyLabel: 'Any decision',
    options: { from: 'decision_codes' },
    column: 'decision_code',
  },
  {
    name: 'submitted',
    kind: 'date_range',
    label: 'Submitted',
    fromId: 'filter-submitted-from',
    fromLabel: 'Submitted from',
    toId: 'filter-submitted-to',
    toLabel: 'Submitted to',
    column: 'submitted_at',
  },
  {
    name: 'has_missing',
    kind: 'yes_no',
    id: 'filter-missing',
    label: 'Missing checklist items',
    anyLabel: 'Any',
    yesLabel: 'Some items missing',
    noLabel: 'Nothing missing',
    yesSentence: 'with missing checklist items',
    noSentence: 'with nothing missing',
    column: 'missing_items',
  },
  {
    // The transfer GPA and units of the coursework, as stored at submit (coursework_totals).
    name: 'gpa_min',
    kind: 'at_least',
    id: 'filter-gpa-min',
    label: 'Transfer GPA at least',
    min: 0,
    max: 5,
    decimals: 2,
    sentence: 'transfer GPA at least',
    column: 'transfer_gpa',
  },
  {
    name: 'units_min',
    kind: 'at_least',
    id: 'filter-units-min',
    label: 'Transferable units at least',
    min: 0,
    max: 1000,
    decimals: 2,
    sentence: 'transferable units at least',
    column: 'transfer_units',
  },
  {
    // The credit summary of each submitted application (credit_summaries, issue 28).
    name: 'credit',
    kind: 'choice',
    id: 'filter-credit',
    label: 'Transfer credit',
    anyLabel: 'Any',
    options: { from: 'fixed', values: CREDIT_REVIEW_VALUES, labels: CREDIT_REVIEW_LABELS },
    column: 'credit_review',
  },
  {
    name: 'requirement',
    kind: 'choice',
    id: 'filter-requirement',
    label: 'Requirement',
    anyLabel: 'Any requirement',
    options: { from: 'credit_requirements' },
    column: 'credit_requirements',
  },
  {
    name: 'review_status',
    kind: 'choice',
    id: 'filter-review-status',
    label: 'Reading',
    anyLabel: 'Any',
    options: { from: 'fixed', values: REVIEW_STATUS_VALUES, labels: REVIEW_STATUS_LABELS },
    column: 'review_status',
  },
  {
    // The recommendation most given by the submitted reads; matched only where the member may
    // see the reads' recommendations (the blind rule), so the filter cannot reveal one.
    name: 'recommendation',
    kind: 'choice',
    id: 'filter-recommendation',
    label: 'Readers’ recommendation',
    anyLabel: 'Any recommendation',
    options: { from: 'decision_codes' },
    column: 'review_recommendation',
  },
  {
    // Each member's own (staff_application_views): the server reads it for the member asking.
    name: 'new_since',
    kind: 'yes_no',
    id: 'filter-new-since',
    label: 'New since I last looked',
    anyLabel: 'Any',
    yesLabel: 'New or changed since I last looked',
    noLabel: 'Nothing new since I last looked',
    yesSentence: 'new since you last looked',
    noSentence: 'unchanged since you last looked',
    column: 'new_since_viewed',
  },
] as const satisfies readonly ListFilterRow[];

type Row = (typeof LIST_FILTERS)[number];
type ValuesFilterName = Extract<Row, { kind: 'choice' | 'choices' }>['name'];
type DateRangeFilterName = Extract<Row, { kind: 'date_range' }>['name'];
type YesNoFilterName = Extract<Row, { kind: 'yes_no' }>['name'];
type AtLeastFilterName = Extract<Row, { kind: 'at_least' }>['name'];

/** A yes/no filter in the address: `true`, `false`, or not given (''). */
export type YesNoValue = '' | 'true' | 'false';

/** The filters as the browser keeps them: every parameter present, empty when not given. */
export type ListFilterQuery = { [Name in ValuesFilterName]: string[] } & {
  [Name in DateRangeFilterName as `${Name}_from` | `${Name}_to`]: string;
} & { [Name in YesNoFilterName]: YesNoValue } & { [Name in AtLeastFilterName]: string };

export type ListFilterParam = keyof ListFilterQuery;

const fromParam = (row: DateRangeFilter) => `${row.name}_from`;
const toParam = (row: DateRangeFilter) => `${row.name}_to`;

/** A row's parameters in the address, in the order they are written. */
export function paramsOfFilter(row: ListFilterRow): string[] {
  return row.kind === 'date_range' ? [fromParam(row), toParam(row)] : [row.name];
}

/** Every filter parameter: what may follow `?` besides the search, the sort and the page. */
export const LIST_FILTER_PARAMS = LIST_FILTERS.flatMap(paramsOfFilter) as ListFilterParam[];

const rows: readonly ListFilterRow[] = LIST_FILTERS;

/** Every filter empty: the whole list. */
export const EMPTY_LIST_FILTERS = Object.fromEntries(
  rows.flatMap((row): [string, string | string[]][] =>
    row.kind === 'date_range'
      ? [
          [fromParam(row), ''],
          [toParam(row), ''],
        ]
      : [[row.name, row.kind === 'yes_no' || row.kind === 'at_least' ? '' : []]],
  ),
) as ListFilterQuery;

/** The browser's filters as a plain record, for code that walks the table. */
const recordOf = (query: ListFilterQuery) =>
  query as unknown as Readonly<Record<string, string | readonly string[]>>;

function valuesOf(query: ListFilterQuery, name: string): readonly string[] {
  const value = recordOf(query)[name];
  return Array.isArray(value) ? value : [];
}

function textOf(query: ListFilterQuery, name: string): string {
  const value = recordOf(query)[name];
  return typeof value === 'string' ? value : '';
}

/**
 * The filters of an address, read leniently: a value repeated or blank is dropped, a yes/no
 * that is neither is ignored. Other values are kept as given: the server judges them, and a
 * control can still show a value it does not offer.
 */
export function listFiltersFromParams(params: URLSearchParams): ListFilterQuery {
  const entries = rows.flatMap((row) => paramEntriesOf(row, params));
  return Object.fromEntries(entries) as ListFilterQuery;
}

function paramEntriesOf(
  row: ListFilterRow,
  params: URLSearchParams,
): [string, string | string[]][] {
  switch (row.kind) {
    case 'choice':
    case 'choices': {
      const values = params.getAll(row.name).map((value) => value.trim());
      return [[row.name, [...new Set(values)].filter((value) => value !== '')]];
    }
    case 'date_range':
      return [fromParam(row), toParam(row)].map((param) => [
        param,
        params.get(param)?.trim() ?? '',
      ]);
    case 'yes_no': {
      const value = params.get(row.name);
      return [[row.name, value === 'true' || value === 'false' ? value : '']];
    }
    case 'at_least':
      return [[row.name, params.get(row.name)?.trim() ?? '']];
  }
}

/**
 * Whether a number as typed is one an at-least filter takes: digits with at most the row's
 * decimals, within its bounds. The request schema refuses anything else with the row's message.
 */
export function isAtLeastValue(row: AtLeastFilter, text: string): boolean {
  const fraction = `\\.\\d{1,${row.decimals}}`;
  const pattern = row.decimals > 0 ? `^(\\d{1,6}(${fraction})?|${fraction})$` : '^\\d{1,6}$';
  if (!new RegExp(pattern).test(text)) return false;
  const value = Number(text);
  return value >= row.min && value <= row.max;
}

/** Appends the filters given to an address, in the table's order, leaving out empty ones. */
export function appendListFilters(params: URLSearchParams, query: ListFilterQuery): void {
  for (const row of rows) {
    if (row.kind === 'choice' || row.kind === 'choices') {
      for (const value of valuesOf(query, row.name)) params.append(row.name, value);
      continue;
    }
    for (const param of paramsOfFilter(row)) {
      const value = textOf(query, param);
      if (value !== '') params.set(param, value);
    }
  }
}

/** Whether any filter narrows the list. */
export function anyListFilter(query: ListFilterQuery): boolean {
  return rows.some((row) =>
    row.kind === 'choice' || row.kind === 'choices'
      ? valuesOf(query, row.name).length > 0
      : paramsOfFilter(row).some((param) => textOf(query, param) !== ''),
  );
}

/** One filter given, as the server applies it to its column. */
export type ListFilterCondition =
  | { kind: 'values'; name: string; column: ListFilterColumn; values: readonly string[] }
  | {
      kind: 'date_range';
      name: string;
      column: ListFilterColumn;
      from: string | null;
      to: string | null;
    }
  | { kind: 'yes_no'; name: string; column: ListFilterColumn; yes: boolean }
  | { kind: 'at_least'; name: string; column: ListFilterColumn; min: number };

/** The parsed request's filters, parameter by parameter, as the schema gives them. */
export type ParsedListFilters = Readonly<Record<string, unknown>>;

/** The conditions of the filters a parsed request gives, in the table's order. */
export function listFilterConditions(parsed: ParsedListFilters): ListFilterCondition[] {
  return rows.flatMap((row) => conditionsOf(row, parsed));
}

function conditionsOf(row: ListFilterRow, parsed: ParsedListFilters): ListFilterCondition[] {
  const { name, column } = row;
  switch (row.kind) {
    case 'choice':
    case 'choices': {
      const given = parsed[name];
      const values = Array.isArray(given)
        ? given.filter((value): value is string => typeof value === 'string')
        : [];
      return values.length > 0 ? [{ kind: 'values', name, column, values }] : [];
    }
    case 'date_range': {
      const given = (param: string) => {
        const value = parsed[param];
        return typeof value === 'string' ? value : null;
      };
      const from = given(fromParam(row));
      const to = given(toParam(row));
      return from === null && to === null ? [] : [{ kind: 'date_range', name, column, from, to }];
    }
    case 'yes_no': {
      const yes = parsed[name];
      return typeof yes === 'boolean' ? [{ kind: 'yes_no', name, column, yes }] : [];
    }
    case 'at_least': {
      const min = parsed[name];
      return typeof min === 'number' ? [{ kind: 'at_least', name, column, min }] : [];
    }
  }
}
