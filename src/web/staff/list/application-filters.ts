import {
  APPLICATION_LIST_SORTS,
  type ApplicationListSort,
} from '../../../shared/staff/application-list-api';
import {
  anyListFilter,
  LIST_FILTERS,
  type ListFilterRow,
  paramsOfFilter,
} from '../../../shared/staff/list-filters';
import {
  EMPTY_LIST_QUERY,
  type ListQuery,
  listQueryString,
  searchOfListQuery,
} from '../../../shared/staff/list-query';

/*
 * The list page keeps its whole state in the address (shared/staff/list-query.ts reads and
 * writes it); these are the page's own steps from one view to the next, and what it says.
 */

export {
  clearedFilters,
  EMPTY_LIST_QUERY,
  hasFilters,
  type ListQuery,
  listQueryFromSearch,
  listQueryString,
  searchOfListQuery,
  withFilters,
} from '../../../shared/staff/list-query';
export { statusLabel, termChoices } from '../common/list-filter-choices';

export type SortDirection = 'asc' | 'desc';

export const PAGE_SIZES = [25, 50, 100] as const;

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

/** The per-course CSV's address: the list's query as it is, without paging. */
export function coursesExportHref(base: string, query: ListQuery): string {
  const search = searchOfListQuery(query, { paging: false }).toString();
  return search === '' ? base : `${base}?${search}`;
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

/** The courses of the credit summary that are mapped, "5/6"; a dash without courses. */
export function mappedShareText(row: {
  credit_courses: number | null;
  credit_mapped: number | null;
}): string {
  const { credit_courses: courses, credit_mapped: mapped } = row;
  return courses === null || mapped === null || courses === 0 ? '—' : `${mapped}/${courses}`;
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

/** How many of the table's filters narrow the list (a date range counts once). */
export function appliedFilterCount(query: ListQuery): number {
  const rows: readonly ListFilterRow[] = LIST_FILTERS;
  return rows.filter((row) => anyListFilter(onlyFilter(query, row))).length;
}

function onlyFilter(query: ListQuery, row: ListFilterRow): ListQuery {
  const kept = Object.fromEntries(
    paramsOfFilter(row).map((param) => [param, query[param as keyof ListQuery]]),
  );
  return { ...EMPTY_LIST_QUERY, ...kept };
}

/** The filters' disclosure, with how many are applied while it is closed. */
export function filtersSummary(applied: number): string {
  if (applied === 0) return 'Filters';
  return `Filters (${applied} applied)`;
}
