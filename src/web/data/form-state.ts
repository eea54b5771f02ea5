import { queryOptions } from '@tanstack/react-query';
import { getJson } from './http-client';
import { queryKeys } from './query-keys';

/** GET /api/tabs and GET /api/add-another (spec 000 section 7): the signed-in student's choices. */
export const tabsQueryOptions = queryOptions({
  queryKey: queryKeys.tabs,
  queryFn: () => getJson<Record<string, string>>('/api/tabs'),
});

export const addAnotherQueryOptions = queryOptions({
  queryKey: queryKeys.addAnother,
  queryFn: () => getJson<Record<string, number>>('/api/add-another'),
});
