import { MutationObserver, type QueryClient } from '@tanstack/react-query';
import { isTransientFailure } from '../data/http-client';

/** TanStack Query's own wait between attempts, used when the server names none. */
const backOff = (failureCount: number) => Math.min(1000 * 2 ** failureCount, 30_000);

/**
 * Runs a call as a TanStack mutation, so a 401 reaches the query client's unauthorized handler
 * like every other call (spec 000 section 4). `networkMode: 'always'` makes an offline attempt
 * fail at once, so the caller can say so and retry, instead of waiting silently. With `retries`
 * (status posts: spec 000 section 9), only a failure that may pass is sent again, after the
 * server's Retry-After when it gives one.
 */
export function trackedCall<T>(
  queryClient: QueryClient,
  call: () => Promise<T>,
  retries = 0,
): Promise<T> {
  const observer = new MutationObserver<T, Error, void>(queryClient, {
    mutationFn: call,
    retry: (failureCount, error) => failureCount < retries && isTransientFailure(error),
    retryDelay: (failureCount, error) =>
      (isTransientFailure(error) ? error.retryAfterMs : undefined) ?? backOff(failureCount),
    networkMode: 'always',
  });
  return observer.mutate();
}
