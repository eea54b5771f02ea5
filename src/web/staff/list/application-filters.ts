import {
  decisionTypeOptions,
  entryTermOptions,
  majorOptions,
} from '../../../shared/application/option-lists';
import {
  APPLICATION_LIST_PAGE_SIZE_DEFAULT,
  APPLICATION_LIST_SORTS,
  APPLICATION_STATUSES,
  type ApplicationListSort,
  type ApplicationStatus,
} from '../../../shared/staff/application-list-api';

/*
 * The list page keeps its whole state in the address, so a view of the list is a link that can
 * be shared, saved and carried to an application's page for previous and next. These functions
 * turn the address into the list's query and back, the same way every time.
 */

export type MissingFilter = '' | 'true' | 'false';
export type SortDirection = 'asc' | 'desc';

/** The list's query as the address carries it. Values are kept as given: the server judges them. */
export interface ListQuery {
  q: string;
  status: string[];
  term: string[];
  program: string[];
  decision_type: string[];
  /** Decision codes recorded by staff (`decision=admit`), not the applicant's decision type. */
  decision: string[];
  submitted_from: string;
  submitted_to: string;
  has_missing: MissingFilter;
  sort: string;
  direction: string;
  page: number;
  page_size: number;
}

export const PAGE_SIZES = [25, 50, 100] as const;

const MULTI = ['status', 'term', 'program', 'decision_type', 'decision'] as const;
const SINGLE = ['submitted_from', 'submitted_to'] as const;

export const EMPTY_LIST_QUERY: ListQuery = {
  q: '',
  status: [],
  term: [],
  program: [],
  decision_type: [],
  decision: [],
  submitted_from: '',
  submitted_to: '',
  has_missing: '',
  sort: '',
  direction: '',
  page: 1,
  page_size: APPLICATION_LIST_PAGE_SIZE_DEFAULT,
};

function positive(value: string | null, fallback: number): number {
  if (value === null || !/^\d{1,6}$/.test(value)) return fallback;
  const number = Number(value);
  return number >= 1 ? number : fallback;
}

/** The list's query in an address. Parameters the list does not know are left out. */
export function listQueryFromSearch(params: URLSearchParams): ListQuery {
  const values = (name: string) =>
    [...new Set(params.getAll(name).map((value) => value.trim()))].filter((value) => value !== '');
  const missing = params.get('has_missing');
  const pageSize = positive(params.get('page_size'), APPLICATION_LIST_PAGE_SIZE_DEFAULT);
  return {
    q: params.get('q') ?? '',
    status: values('status'),
    term: values('term'),
    program: values('program'),
    decision_type: values('decision_type'),
    decision: values('decision'),
    submitted_from: params.get('submitted_from')?.trim() ?? '',
    submitted_to: params.get('submitted_to')?.trim() ?? '',
    has_missing: missing === 'true' || missing === 'false' ? missing : '',
    sort: params.get('sort')?.trim() ?? '',
    direction: params.get('direction')?.trim() ?? '',
    page: positive(params.get('page'), 1),
    // An address edited by hand to a size the page does not offer still asks the server for it.
    page_size: pageSize,
  };
}

/**
 * The address's parameters for a query, in one order and without the defaults, so one view has
 * one address (and one cache entry).
 */
export function searchOfListQuery(
  query: ListQuery,
  { paging = true }: { paging?: boolean } = {},
): URLSearchParams {
  const params = new URLSearchParams();
  const q = query.q.trim();
  if (q !== '') params.set('q', q);
  for (const name of MULTI) {
    for (const value of query[name]) params.append(name, value);
  }
  for (const name of SINGLE) {
    if (query[name] !== '') params.set(name, query[name]);
  }
  if (query.has_missing !== '') params.set('has_missing', query.has_missing);
  if (query.sort !== '') params.set('sort', query.sort);
  if (query.direction !== '') params.set('direction', query.direction);
  if (paging) {
    if (query.page !== 1) params.set('page', String(query.page));
    if (query.page_size !== APPLICATION_LIST_PAGE_SIZE_DEFAULT) {
      params.set('page_size', String(query.page_size));
    }
  }
  return params;
}

/** The query string without `?`; what saved views keep and the list call sends. */
export function listQueryString(query: ListQuery, options?: { paging?: boolean }): string {
  return searchOfListQuery(query, options).toString();
}

/** Any change to what is listed starts again at the first page. */
export function withFilters(query: ListQuery, change: Partial<ListQuery>): ListQuery {
  return { ...query, ...change, page: 1 };
}

export function withPage(query: ListQuery, page: number): ListQuery {
  return { ...query, page: Math.max(1, page) };
}

export function withPageSize(query: ListQuery, pageSize: number): ListQuery {
  return { ...query, page_size: pageSize, page: 1 };
}

/** A column's first click sorts it A to Z (dates oldest first); the next click reverses it. */
export function withSort(query: ListQuery, column: ApplicationListSort): ListQuery {
  const current = currentSort(query);
  const direction: SortDirection =
    current.sort === column && current.direction === 'asc' ? 'desc' : 'asc';
  return { ...query, sort: column, direction, page: 1 };
}

export function isListSort(value: string): value is ApplicationListSort {
  return (APPLICATION_LIST_SORTS as readonly string[]).includes(value);
}

/**
 * The order the server lists in for this query (application-list-api's listRequestOf): a search
 * without a sort lists the best matches first (no column), otherwise newest activity first.
 */
export function currentSort(query: ListQuery): {
  sort: ApplicationListSort | null;
  direction: SortDirection;
} {
  const sort = isListSort(query.sort) ? query.sort : null;
  const direction: SortDirection =
    query.direction === 'asc' || query.direction === 'desc'
      ? query.direction
      : sort
        ? 'asc'
        : 'desc';
  if (sort) return { sort, direction };
  return query.q.trim() === ''
    ? { sort: 'last_activity', direction }
    : { sort: null, direction: 'desc' };
}

/** The aria-sort of a column header. */
export function ariaSortOf(
  query: ListQuery,
  column: ApplicationListSort,
): 'ascending' | 'descending' | 'none' {
  const { sort, direction } = currentSort(query);
  if (sort !== column) return 'none';
  return direction === 'asc' ? 'ascending' : 'descending';
}

/** Whether anything narrows the list (the search or a filter). */
export function hasFilters(query: ListQuery): boolean {
  return (
    query.q.trim() !== '' ||
    MULTI.some((name) => query[name].length > 0) ||
    SINGLE.some((name) => query[name] !== '') ||
    query.has_missing !== ''
  );
}

/** The same view without the search and the filters: sort and page size stay. */
export function clearedFilters(query: ListQuery): ListQuery {
  return {
    ...EMPTY_LIST_QUERY,
    sort: query.sort,
    direction: query.direction,
    page_size: query.page_size,
  };
}

export const STATUS_LABELS: Record<ApplicationStatus, string> = {
  started: 'Started',
  validating: 'Validating',
  submitted: 'Submitted',
};

export function statusLabel(status: string): string {
  return (APPLICATION_STATUSES as readonly string[]).includes(status)
    ? STATUS_LABELS[status as ApplicationStatus]
    : status;
}

/** "25 applications found"; a count the server stopped at says "more than". */
export function foundSentence(total: number, exact: boolean): string {
  if (!exact) return `More than ${total.toLocaleString('en-US')} applications found`;
  if (total === 0) return 'No applications found';
  if (total === 1) return '1 application found';
  return `${total.toLocaleString('en-US')} applications found`;
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/** "Showing 26–50 of 120". */
export function rangeSentence(
  page: number,
  pageSize: number,
  shown: number,
  total: number,
  exact: boolean,
): string {
  if (shown === 0) return '';
  const first = (page - 1) * pageSize + 1;
  const last = first + shown - 1;
  const of = exact ? total.toLocaleString('en-US') : `more than ${total.toLocaleString('en-US')}`;
  return `Showing ${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${of}`;
}

/** The application's page, carrying the list's query so it can step through the same list. */
export function applicationHref(id: string, query: ListQuery): string {
  const search = listQueryString(query);
  return `/staff/applications/${encodeURIComponent(id)}${search ? `?${search}` : ''}`;
}

/** The CSV export of the whole filtered list (every page) with the chosen columns. */
export function csvExportHref(base: string, query: ListQuery, columns: readonly string[]): string {
  const params = searchOfListQuery(query, { paging: false });
  params.set('columns', columns.join(','));
  return `${base}?${params.toString()}`;
}

/**
 * The CSV's columns after a checkbox changes: a column chosen goes last and one unchosen leaves
 * its place, so the file's columns come in the order the reader chose them.
 */
export function toggledColumns(chosen: readonly string[], column: string, on: boolean): string[] {
  const others = chosen.filter((item) => item !== column);
  return on ? [...others, column] : others;
}

/** The chosen columns named in order; a long choice ("Choose all") names its first ones. */
export function chosenColumnsText(labels: readonly string[], shown = 12): string {
  if (labels.length === 0) return 'none yet.';
  if (labels.length <= shown) return `${labels.join(', ')}.`;
  return `${labels.slice(0, shown).join(', ')} and ${(labels.length - shown).toLocaleString('en-US')} more.`;
}

export function missingItemsText(missing: number | null): string {
  return missing === null ? '—' : String(missing);
}

/** The name as staff look for it: family name first, the preferred name after. */
export function applicantName(row: {
  first_name: string;
  last_name: string;
  preferred_name: string;
}): string {
  const first = row.first_name.trim();
  const last = row.last_name.trim();
  const preferred = row.preferred_name.trim();
  const name = last && first ? `${last}, ${first}` : last || first;
  if (name === '') return preferred;
  return preferred && preferred !== first ? `${name} (${preferred})` : name;
}

/**
 * Entry terms a filter offers: those the form offers now and in the last two years, so terms of
 * older applications can still be chosen; a term in the address the list does not know is kept.
 */
export function termChoices(
  year: number,
  chosen: readonly string[],
): { value: string; label: string }[] {
  const byValue = new Map<string, string>();
  for (const offset of [-2, -1, 0]) {
    for (const option of entryTermOptions(year + offset)) {
      if (option.value !== '') byValue.set(option.value, option.label);
    }
  }
  for (const value of chosen) if (!byValue.has(value)) byValue.set(value, value);
  return [...byValue.entries()].map(([value, label]) => ({ value, label }));
}

/** Labels by value, for a list filter's chosen values in a sentence. */
export interface FilterLabels {
  term: ReadonlyMap<string, string>;
  program: ReadonlyMap<string, string>;
  decision_type: ReadonlyMap<string, string>;
  /** The tenant's decision codes (from the server). */
  decision: ReadonlyMap<string, string>;
}

/**
 * The labels the list's filters show for their values (entry terms, programs, decision types),
 * with the tenant's decision codes, so a sentence about the list names what the reader chose.
 */
export function filterLabelsOf(
  year: number,
  query: Pick<ListQuery, 'term'>,
  decisionLabels: ReadonlyMap<string, string>,
): FilterLabels {
  const labelled = (options: readonly { value: string; label: string }[]) =>
    new Map(options.filter((option) => option.value !== '').map((o) => [o.value, o.label]));
  return {
    term: labelled(termChoices(year, query.term)),
    program: labelled(majorOptions),
    decision_type: labelled(decisionTypeOptions),
    decision: decisionLabels,
  };
}
