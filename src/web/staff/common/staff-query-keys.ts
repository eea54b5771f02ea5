import type { ApplicationListResponse } from '../../../shared/staff/application-list-api';
import { STAFF_API } from '../../../shared/staff/staff-api';
import { getJson } from '../../data/http-client';

/*
 * The cache keys and the list call that the list, an application's page and decisions all
 * share: a decision changes what each of them shows, so decisions reach them from here without
 * depending on the pages themselves.
 */

/** Cache keys of the list page's server state. */
export const listKeys = {
  all: ['staff', 'list'] as const,
  list: (search: string) => ['staff', 'list', search] as const,
  savedViews: ['staff', 'saved-views'] as const,
  exportColumns: ['staff', 'export-columns'] as const,
  zipJobs: ['staff', 'zip-exports'] as const,
  zipJob: (id: string) => ['staff', 'zip-exports', id] as const,
};

/** Cache keys of one application's page. */
export const applicationKeys = {
  detail: (id: string) => ['staff', 'application', id] as const,
  neighbours: (id: string, listQuery: string) =>
    ['staff', 'application', id, 'neighbours', listQuery] as const,
  history: (id: string) => ['staff', 'application', id, 'history'] as const,
};

/** One page of the list for a query string (no `?`). */
export function fetchApplicationList(
  search: string,
  signal?: AbortSignal,
): Promise<ApplicationListResponse> {
  return getJson<ApplicationListResponse>(
    `${STAFF_API}/applications${search ? `?${search}` : ''}`,
    signal,
  );
}
