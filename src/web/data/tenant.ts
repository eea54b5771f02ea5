import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { PublicTenantConfig } from '../../shared/tenant/tenant-config';
import { getJson } from './http-client';
import { queryKeys } from './query-keys';

// The server validates the tenant file at start-up, so the shell does not ship zod to re-check it.
export const tenantQueryOptions = queryOptions({
  queryKey: queryKeys.tenant,
  queryFn: () => getJson<PublicTenantConfig>('/public/tenant'),
});

/** The tenant configuration; the root loader has already put it in the cache. */
export function useTenantConfig(): PublicTenantConfig {
  return useSuspenseQuery(tenantQueryOptions).data;
}
