import { type QueryClient, queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { PublicTenantConfig } from '../../shared/tenant/tenant-config';
import { TENANT_IN_PAGE_ID } from '../../shared/tenant/tenant-in-page';
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

/**
 * Puts the configuration the server wrote into the page (spa-routes.ts) in the cache, so the root
 * loader has it at once; without it (a page served another way) the loader asks /public/tenant.
 */
export function seedTenantFromPage(queryClient: QueryClient): void {
  const text = document.getElementById(TENANT_IN_PAGE_ID)?.textContent;
  if (!text) return;
  queryClient.setQueryData(tenantQueryOptions.queryKey, JSON.parse(text) as PublicTenantConfig);
}
