import { APPLICATION_LIST_PAGE_SIZE_DEFAULT } from './application-list-api';
import {
  anyListFilter,
  appendListFilters,
  EMPTY_LIST_FILTERS,
  type ListFilterQuery,
  listFiltersFromParams,
} from './list-filters';

/*
 * The list's whole state as an address carries it, so a view of the list is a link that can be
 * shared, saved and carried to an application's page for previous and next. The browser reads
 * and writes it here; the server reads the same parameters with application-list-api.ts's schema.
 */

/** The list's query as the address carries it. Values are kept as given: the server judges them. */
export type ListQuery = ListFilterQuery & {
  q: string;
  sort: string;
  direction: string;
  page: number;
  page_size: number;
};

export const EMPTY_LIST_QUERY: ListQuery = {
  q: '',
  ...EMPTY_LIST_FILTERS,
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
  return {
    q: params.get('q') ?? '',
    ...listFiltersFromParams(params),
    sort: params.get('sort')?.trim() ?? '',
    direction: params.get('direction')?.trim() ?? '',
    page: positive(params.get('page'), 1),
    // An address edited by hand to a size the page does not offer still asks the server for it.
    page_size: positive(params.get('page_size'), APPLICATION_LIST_PAGE_SIZE_DEFAULT),
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
  appendListFilters(params, query);
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

/** Whether anything narrows the list (the search or a filter). */
export function hasFilters(query: ListQuery): boolean {
  return query.q.trim() !== '' || anyListFilter(query);
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

/** Any change to what is listed starts again at the first page. */
export function withFilters(query: ListQuery, change: Partial<ListQuery>): ListQuery {
  return { ...query, ...change, page: 1 };
}
