import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { UnauthorizedError } from './data/http-client';

export interface QueryClientOptions {
  /** Called for every UnauthorizedError a query or mutation ends with (spec 000 section 4). */
  onUnauthorized?: () => void;
}

/**
 * Spec 000 section 4, "Data fetching": queries never retry, never refetch on focus, mount or
 * reconnect, and stay cached for the whole visit; code that changes data refreshes it explicitly.
 * "An unauthorized reply clears the cache and redirects to /login": the caches below are the one
 * place that sees every failed call.
 */
export function createQueryClient({ onUnauthorized }: QueryClientOptions = {}): QueryClient {
  const onError = (error: unknown) => {
    if (error instanceof UnauthorizedError) {
      onUnauthorized?.();
    }
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnMount: false,
        refetchOnReconnect: false,
        staleTime: Number.POSITIVE_INFINITY,
        gcTime: Number.POSITIVE_INFINITY,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
