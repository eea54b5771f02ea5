import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../query-client';
import { createFormSession } from './form-session';

function stubFetch(...statuses: number[]) {
  const fetchMock = vi.fn<typeof fetch>(async () => {
    const status = statuses.shift() ?? 200;
    return new Response(JSON.stringify(status === 200 ? {} : { message: `status ${status}` }), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('status posts (spec 000 sections 4 and 9)', () => {
  it('are sent again twice when the failure may pass', async () => {
    const fetchMock = stubFetch(503, 503, 503);
    const posted = createFormSession(createQueryClient())
      .postWebStatus('started')
      .catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(await posted).toMatchObject({ status: 503 });
  });

  it('succeed on a later attempt', async () => {
    const fetchMock = stubFetch(502);
    const posted = createFormSession(createQueryClient()).postWebStatus('validating');
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(posted).resolves.toEqual({});
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('are not sent again when the server refused them', async () => {
    const fetchMock = stubFetch(400);
    const posted = createFormSession(createQueryClient())
      .postWebStatus('started')
      .catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(await posted).toMatchObject({ status: 400 });
  });
});
