import { MutationObserver, type QueryClient } from '@tanstack/react-query';

/**
 * Runs a call as a TanStack mutation, so a 401 reaches the query client's unauthorized handler
 * like every other call (spec 000 section 4). `networkMode: 'always'` makes an offline attempt
 * fail at once, so the caller can say so and retry, instead of waiting silently.
 */
export function trackedCall<T>(
  queryClient: QueryClient,
  call: () => Promise<T>,
  retry = 0,
): Promise<T> {
  const observer = new MutationObserver<T, Error, void>(queryClient, {
    mutationFn: call,
    retry,
    networkMode: 'always',
  });
  return observer.mutate();
}
