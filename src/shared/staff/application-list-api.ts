import { z } from 'zod';
import { email, MESSAGES } from '../accounts/account-forms';

/*
 * The staff console's list of applications: GET /staff/api/applications with filters, search,
 * sort and page in the query string, so a view of the list is a link.
 */

import { REQUIREMENT_STATUSES } from '../credit/credit-requirements';
import {
  APPLICATION_STATUSES,
  type ApplicationStatus,
  isAtLeastValue,
  LIST_FILTER_PARAMS,
  LIST_FILTERS,
  type ListFilterCondition,
  type ListFilterParam,
  type ListFilterRow,
  listFilterConditions,
  paramsOfFilter,
  parseRequirementFilterValue,
} from './list-filters';

export { APPLICATION_STATUSES, type ApplicationStatus };

/** The columns the list sorts on. */
export const APPLICATION_LIST_SORTS = [
  'name',
  'email',
  'status',
  'submitted_at',
  'last_activity',
  'program',
  'entry_term',
  'decision_type',
  'missing_items',
  'transfer_gpa',
  'transfer_units',
] as const;
export type ApplicationListSort = (typeof APPLICATION_LIST_SORTS)[number];

/** What may follow `?` besides the sort, the page and the search: the filters' parameters. */
export const APPLICATION_LIST_FILTERS: readonly ListFilterParam[] = LIST_FILTER_PARAMS;

export const APPLICATION_LIST_PAGE_SIZE_MAX = 100;
export const APPLICATION_LIST_PAGE_SIZE_DEFAULT = 25;
export const APPLICATION_SEARCH_MAX_LENGTH = 200;
/** Values one filter may take at once (`status=started&status=validating`). */
const FILTER_VALUES_MAX = 20;

/** A filter of fixed choices refuses any other value with this. */
export function choicesMessage(row: ListFilterRow): string {
  const values = 'options' in row && row.options.from === 'fixed' ? row.options.values : [];
  return `A ${row.label.toLowerCase()} is one of: ${values.join(', ')}.`;
}

export const yesNoMessage = (row: ListFilterRow) => `${row.name} is true or false.`;

/** An at-least filter refuses anything but a number within its bounds with this. */
export function atLeastMessage(row: ListFilterRow): string {
  if (row.kind !== 'at_least') return `${row.name} is a number.`;
  const decimals = row.decimals === 1 ? '1 decimal' : `${row.decimals} decimals`;
  return `${row.name} is a number from ${row.min} to ${row.max} with at most ${decimals}.`;
}

/** A requirement filter's value that is not `<id>:<status>` is refused with this. */
export const REQUIREMENT_FILTER_MESSAGE = `A requirement filter is a requirement's id and a status, such as golden_four:met; the status is one of: ${REQUIREMENT_STATUSES.join(', ')}.`;

/**
 * A requirement filter naming a requirement the tenant does not have is refused with this (by
 * the server, which knows the tenant's requirements).
 */
export function unknownRequirementMessage(known: readonly string[]): string {
  return known.length === 0
    ? 'This office evaluates no credit requirements: leave out the requirement filter.'
    : `A requirement filter names one of the requirements: ${known.join(', ')}.`;
}

/**
 * The first requirement filter value of a parsed query that names none of the requirement ids
 * given, or null when each does.
 */
export function unknownRequirementFilter(
  query: { requirement?: readonly string[] },
  known: readonly string[],
): string | null {
  for (const value of query.requirement ?? []) {
    const parsed = parseRequirementFilterValue(value);
    if (!parsed || !known.includes(parsed.id)) return value;
  }
  return null;
}

function filterNamed(name: string): ListFilterRow {
  const row = LIST_FILTERS.find((one) => one.name === name);
  if (!row) throw new Error(`no list filter named ${name}`);
  return row;
}

export const APPLICATION_LIST_MESSAGES = {
  sort: `Sort by one of: ${APPLICATION_LIST_SORTS.join(', ')}.`,
  direction: 'Sort in the direction asc or desc.',
  status: choicesMessage(filterNamed('status')),
  filterValue: 'A filter value is 1 to 100 characters.',
  tooManyValues: `Give at most ${FILTER_VALUES_MAX} values for one filter.`,
  date: 'Use a date such as 2026-09-01.',
  dateRange: 'The first date of the range comes before the last.',
  hasMissing: yesNoMessage(filterNamed('has_missing')),
  gpaMin: atLeastMessage(filterNamed('gpa_min')),
  unitsMin: atLeastMessage(filterNamed('units_min')),
  credit: choicesMessage(filterNamed('credit')),
  requirement: REQUIREMENT_FILTER_MESSAGE,
  page: 'The page is a whole number from 1.',
  pageSize: `A page holds 1 to ${APPLICATION_LIST_PAGE_SIZE_MAX} applications.`,
  search: `Search with at most ${APPLICATION_SEARCH_MAX_LENGTH} characters.`,
  emailAlone:
    'email finds one applicant by exact address and takes no other parameter; search with q.',
} as const;

/** A filter given once (`term=FA2026`) or repeated (`term=FA2026&term=SP2027`), as a list. */
function repeatable<T extends z.ZodType<string>>(value: T) {
  return z.preprocess(
    (given) => (Array.isArray(given) ? given : [given]),
    z.array(value).max(FILTER_VALUES_MAX, APPLICATION_LIST_MESSAGES.tooManyValues),
  );
}

const filterValue = z
  .string({ error: APPLICATION_LIST_MESSAGES.filterValue })
  .trim()
  .min(1, APPLICATION_LIST_MESSAGES.filterValue)
  .max(100, APPLICATION_LIST_MESSAGES.filterValue);

const requirementValue = z
  .string({ error: REQUIREMENT_FILTER_MESSAGE })
  .trim()
  .refine((text) => parseRequirementFilterValue(text) !== null, REQUIREMENT_FILTER_MESSAGE);

const isoDate = z.iso.date(APPLICATION_LIST_MESSAGES.date);

/** Each filter parameter's schema, from its row's kind. */
function filterSchemasOf(row: ListFilterRow): [string, z.ZodType][] {
  switch (row.kind) {
    case 'choice':
    case 'choices': {
      const value =
        row.options.from === 'fixed'
          ? z.enum(row.options.values as [string, ...string[]], { error: choicesMessage(row) })
          : row.options.from === 'credit_requirements'
            ? requirementValue
            : filterValue;
      return [[row.name, repeatable(value).optional()]];
    }
    case 'date_range':
      return paramsOfFilter(row).map((param) => [param, isoDate.optional()]);
    case 'yes_no':
      return [
        [
          row.name,
          // Applications with (true) or without (false) what the column counts.
          z
            .enum(['true', 'false'], { error: yesNoMessage(row) })
            .transform((value) => value === 'true')
            .optional(),
        ],
      ];
    case 'at_least': {
      const message = atLeastMessage(row);
      return [
        [
          row.name,
          z
            .string({ error: message })
            .trim()
            .refine((text) => isAtLeastValue(row, text), message)
            .transform(Number)
            .optional(),
        ],
      ];
    }
  }
}

type FilterRows = (typeof LIST_FILTERS)[number];
/** The filters of a parsed request: only those given are present. */
export type ListFilterRequest = {
  [Name in Extract<FilterRows, { kind: 'choices' }>['name']]?: ApplicationStatus[];
} & { [Name in Extract<FilterRows, { kind: 'choice' }>['name']]?: string[] } & {
  [Name in Extract<FilterRows, { kind: 'date_range' }>['name'] as
    | `${Name}_from`
    | `${Name}_to`]?: string;
} & { [Name in Extract<FilterRows, { kind: 'yes_no' }>['name']]?: boolean } & {
  [Name in Extract<FilterRows, { kind: 'at_least' }>['name']]?: number;
};

const listFilterShape = Object.fromEntries(LIST_FILTERS.flatMap(filterSchemasOf)) as {
  [Param in keyof ListFilterRequest]-?: z.ZodOptional<
    z.ZodType<NonNullable<ListFilterRequest[Param]>, unknown>
  >;
};

const dateRanges = LIST_FILTERS.filter((row) => row.kind === 'date_range');

const wholeNumber = (message: string, min: number, max: number) =>
  z
    .string({ error: message })
    .regex(/^\d{1,6}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));

/** Any other parameter is refused as not part of the request (a 400 naming it). */
export const applicationListQuery = z
  .strictObject({
    /** The exact address of one applicant: the console's home-page lookup (answers a list). */
    email: email(MESSAGES.emailInvalid).optional(),
    q: z
      .string({ error: APPLICATION_LIST_MESSAGES.search })
      .max(APPLICATION_SEARCH_MAX_LENGTH, APPLICATION_LIST_MESSAGES.search)
      .optional(),
    ...listFilterShape,
    sort: z.enum(APPLICATION_LIST_SORTS, { error: APPLICATION_LIST_MESSAGES.sort }).optional(),
    direction: z.enum(['asc', 'desc'], { error: APPLICATION_LIST_MESSAGES.direction }).optional(),
    page: wholeNumber(APPLICATION_LIST_MESSAGES.page, 1, 100_000).optional(),
    page_size: wholeNumber(
      APPLICATION_LIST_MESSAGES.pageSize,
      1,
      APPLICATION_LIST_PAGE_SIZE_MAX,
    ).optional(),
  })
  .superRefine((query, context) => {
    if (query.email !== undefined && Object.keys(query).length > 1) {
      context.addIssue({
        code: 'custom',
        path: ['email'],
        message: APPLICATION_LIST_MESSAGES.emailAlone,
      });
    }
    const given: Readonly<Record<string, unknown>> = query;
    for (const row of dateRanges) {
      const [fromParam = '', toParam = ''] = paramsOfFilter(row);
      const from = given[fromParam];
      const to = given[toParam];
      if (typeof from === 'string' && typeof to === 'string' && from > to) {
        context.addIssue({
          code: 'custom',
          path: [toParam],
          message: APPLICATION_LIST_MESSAGES.dateRange,
        });
      }
    }
  });
export type ApplicationListQueryInput = z.input<typeof applicationListQuery>;
export type ApplicationListQuery = z.output<typeof applicationListQuery>;

/** A list request once the exact-address lookup is set aside: what the store runs. */
export interface ApplicationListRequest {
  q: string;
  /** The filters given, each as a condition on its list column. */
  filters: ListFilterCondition[];
  /** Null with a search: best matches first. */
  sort: ApplicationListSort | null;
  direction: 'asc' | 'desc';
  page: number;
  pageSize: number;
  /**
   * The member the list is for: reads' scores and recommendations are shown and matched only
   * where the blind rule lets them see them (without one, never), and the filters that are each
   * member's own (new since I last looked) read it (without one, such a filter is refused).
   */
  viewer?: ListViewer;
}

/** A member as the list's blind columns need them: their id and whether they sit on the committee. */
export interface ListViewer {
  id: string;
  committee: boolean;
}

export function listRequestOf(
  query: ApplicationListQuery,
  viewer?: ListViewer,
): ApplicationListRequest {
  const q = (query.q ?? '').trim();
  return {
    ...(viewer ? { viewer } : {}),
    q,
    filters: listFilterConditions(query),
    sort: query.sort ?? (q === '' ? 'last_activity' : null),
    direction: query.direction ?? (query.sort ? 'asc' : 'desc'),
    page: query.page ?? 1,
    pageSize: query.page_size ?? APPLICATION_LIST_PAGE_SIZE_DEFAULT,
  };
}

/** The filters a parsed query gives, by parameter, as the audit trail keeps them. */
export function givenListFilters(query: ApplicationListQuery): Record<string, unknown> {
  const given: Readonly<Record<string, unknown>> = query;
  return Object.fromEntries(
    LIST_FILTER_PARAMS.flatMap((param) =>
      given[param] === undefined ? [] : [[param, given[param]]],
    ),
  );
}

/** One row of the list. Codes sort and filter; the `_desc` labels are what the applicant chose. */
export interface ApplicationListRow {
  id: string;
  first_name: string;
  last_name: string;
  preferred_name: string;
  email: string;
  status: ApplicationStatus;
  submitted_at: string | null;
  last_activity: string;
  program: string | null;
  program_desc: string | null;
  entry_term: string | null;
  entry_term_desc: string | null;
  decision_type: string | null;
  decision_type_desc: string | null;
  /** Counted from the checklist once it exists; null until then. */
  missing_items: number | null;
  /** The decision's code, released or not; null before one is recorded. */
  decision: string | null;
  /** The code's label in the tenant's configuration. */
  decision_label: string | null;
  decision_released: boolean;
  /** The transfer GPA of the coursework as stored at submit (`3.45`); null without one. */
  transfer_gpa: string | null;
  /** Transferable units (`60.00`); null before the coursework is submitted. */
  transfer_units: string | null;
  /**
   * The credit summary's courses and how many are mapped (the console shows "5/6"); null before
   * the application's credit is evaluated (at submit).
   */
  credit_courses: number | null;
  credit_mapped: number | null;
  /** The student information system's id its integration wrote back; null until then. */
  sis_id: string | null;
  /**
   * The mean score of the submitted reads (`3.75`) and their most given recommendation (a
   * decision code); null without a submitted read, and null where the member may not see
   * them (the blind rule: the committee, or after submitting their own read).
   */
  review_score: string | null;
  review_recommendation: string | null;
  /** The recommendation code's label in the tenant's configuration. */
  review_recommendation_label: string | null;
  /** The reads: "2 of 3 submitted"; null without any read. */
  reads: string | null;
}

export interface ApplicationListResponse {
  applications: ApplicationListRow[];
  /** Applications matching the filters and the search, on every page (counted up to 10,000). */
  total: number;
  /** False when more applications match than `total` says. */
  total_exact: boolean;
  page: number;
  page_size: number;
  /** Null when a search lists the best matches first. */
  sort: ApplicationListSort | null;
  direction: 'asc' | 'desc';
}

/**
 * The list's query string (`status=submitted&term=FA2026`, no `?`) as the object the list's
 * schema reads: a parameter given twice becomes a list, as Fastify's query parser makes it.
 */
export function listQueryParams(search: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const known = params[key];
    params[key] =
      known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
  }
  return params;
}
