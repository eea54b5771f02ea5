import { afterEach, describe, expect, it, vi } from 'vitest';
import { APPLICATION_PDF_URL } from '../../shared/api/application-pdf';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import { PDF_POLL_ACTIVE_MS, PDF_POLL_IDLE_MS } from '../../shared/constants';
import { applicationPdfPollInterval, fetchApplicationPdfStatus } from './application-pdf';
import { ServerError, UnauthorizedError } from './http-client';

function stubFetch(...bodies: Array<{ body: unknown; status?: number }>) {
  const fetchMock = vi.fn<typeof fetch>(async () => {
    const next = bodies.shift() ?? { body: {} };
    return new Response(JSON.stringify(next.body), {
      status: next.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const completed = { status: 'COMPLETED', url: APPLICATION_PDF_URL, message: null } as const;

describe('application PDF status', () => {
  it('polls every second until the PDF is made or failed, then every ten minutes', () => {
    expect(applicationPdfPollInterval(undefined)).toBe(PDF_POLL_ACTIVE_MS);
    expect(applicationPdfPollInterval({ status: 'UNPROCESSED', url: null, message: null })).toBe(
      1000,
    );
    expect(applicationPdfPollInterval({ status: 'IN_PROGRESS', url: null, message: null })).toBe(
      1000,
    );
    expect(applicationPdfPollInterval(completed)).toBe(PDF_POLL_IDLE_MS);
    expect(applicationPdfPollInterval({ status: 'FAILED', url: null, message: 'No.' })).toBe(
      600_000,
    );
  });

  it('reads GET /api/pdf through the shared schema', async () => {
    const fetchMock = stubFetch({ body: completed });
    await expect(fetchApplicationPdfStatus()).resolves.toEqual(completed);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/pdf');
  });

  it('refuses an answer of another shape', async () => {
    for (const body of [{ status: 'DONE', url: null, message: null }, { status: 'COMPLETED' }]) {
      stubFetch({ body });
      const failure = fetchApplicationPdfStatus();
      await expect(failure).rejects.toBeInstanceOf(ServerError);
      await expect(failure).rejects.toThrow(GENERIC_SERVER_ERROR_MESSAGE);
    }
  });

  it('passes a 401 on as unauthorized', async () => {
    stubFetch({ body: { message: 'Please log in.' }, status: 401 });
    await expect(fetchApplicationPdfStatus()).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
