import { QueryClient } from '@tanstack/react-query';

/**
 * Spec 000 section 4, "Data fetching": queries never retry, never refetch on focus, mount or
 * reconnect, and stay cached for the whole visit; code that changes data refreshes it explicitly.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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

export const queryClient = createQueryClient();
