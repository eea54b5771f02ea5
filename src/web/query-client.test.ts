import { describe, expect, it, vi } from 'vitest';
import { ServerError, UnauthorizedError } from './data/http-client';
import { createQueryClient } from './query-client';

describe('query client', () => {
  it('follows the cache rules of spec 000 section 4', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries).toMatchObject({
      retry: false,
      refetchOnWindowFocus: false,
      refetchOnMount: false,
      refetchOnReconnect: false,
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: Number.POSITIVE_INFINITY,
    });
    expect(mutations).toMatchObject({ retry: false });
  });

  it('reports an UnauthorizedError from a query', async () => {
    const onUnauthorized = vi.fn();
    const queryClient = createQueryClient({ onUnauthorized });
    await queryClient
      .fetchQuery({
        queryKey: ['x'],
        queryFn: () => Promise.reject(new UnauthorizedError('Not signed in.')),
      })
      .catch(() => {});
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('reports an UnauthorizedError from a mutation', async () => {
    const onUnauthorized = vi.fn();
    const queryClient = createQueryClient({ onUnauthorized });
    await queryClient
      .getMutationCache()
      .build(queryClient, {
        mutationFn: () => Promise.reject(new UnauthorizedError('Not signed in.')),
      })
      .execute(undefined)
      .catch(() => {});
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('leaves other failures to the caller', async () => {
    const onUnauthorized = vi.fn();
    const queryClient = createQueryClient({ onUnauthorized });
    await queryClient
      .fetchQuery({
        queryKey: ['y'],
        queryFn: () => Promise.reject(new ServerError('Down.', 503)),
      })
      .catch(() => {});
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
