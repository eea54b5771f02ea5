import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { SESSION_INVALID_MESSAGE } from '../../shared/api/errors';
import { queryKeys } from '../data/query-keys';
import { createSessionEnding, createUnauthorizedHandler, resetToAnonymous } from './session-end';

function clientWithData(): QueryClient {
  const queryClient = new QueryClient();
  queryClient.setQueryData(queryKeys.tenant, { partner_name: 'Northfield' });
  queryClient.setQueryData(queryKeys.profile, { username: 'a@b.co' });
  return queryClient;
}

describe('resetToAnonymous', () => {
  it('clears the whole cache and leaves an anonymous profile', () => {
    const queryClient = clientWithData();
    resetToAnonymous(queryClient);
    expect(queryClient.getQueryData(queryKeys.tenant)).toBeUndefined();
    expect(queryClient.getQueryData(queryKeys.profile)).toBeNull();
  });
});

describe('createUnauthorizedHandler', () => {
  it('clears the cache and goes to /login with the session-invalid message', () => {
    const queryClient = clientWithData();
    const navigate = vi.fn();
    createUnauthorizedHandler(() => queryClient, navigate)();
    expect(queryClient.getQueryData(queryKeys.tenant)).toBeUndefined();
    expect(navigate).toHaveBeenCalledWith('/login', {
      state: {
        toast: {
          severity: 'error',
          title: 'Session Invalid',
          description: SESSION_INVALID_MESSAGE,
        },
      },
    });
  });

  it('navigates once when several calls fail together', async () => {
    let finish = () => {};
    const navigate = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    const handle = createUnauthorizedHandler(() => new QueryClient(), navigate);
    handle();
    handle();
    expect(navigate).toHaveBeenCalledTimes(1);
    finish();
    await Promise.resolve();
    await Promise.resolve();
    handle();
    expect(navigate).toHaveBeenCalledTimes(2);
  });

  it('stays out of the way of a logout the browser started', async () => {
    const navigate = vi.fn();
    const ending = createSessionEnding();
    const handle = createUnauthorizedHandler(() => new QueryClient(), navigate, ending);
    await ending.during(async () => {
      handle();
    });
    expect(navigate).not.toHaveBeenCalled();
  });
});
