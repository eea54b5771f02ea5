import { afterEach, describe, expect, it, vi } from 'vitest';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import {
  deleteJson,
  getJson,
  isTransientFailure,
  lastSessionCallTime,
  parseRetryAfter,
  postJson,
  ServerError,
  UnauthorizedError,
} from './http-client';

function stubFetch(response: Response | Error) {
  const fetchMock = vi.fn<typeof fetch>(async () => {
    if (response instanceof Error) {
      throw response;
    }
    // A body reads once; every call gets its own copy.
    return response.clone();
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('http client', () => {
  it('returns the parsed JSON of an OK reply', async () => {
    stubFetch(json({ username: 'a@b.co' }));
    await expect(getJson('/api/profile')).resolves.toEqual({ username: 'a@b.co' });
  });

  it('sends same-origin credentials and JSON on every call, a payload only when given', async () => {
    const fetchMock = stubFetch(json({ ok: true }));
    await getJson('/api/profile');
    await postJson('/public/login', { username: 'a@b.co', password: 'x' });
    await deleteJson('/api/document-answer/hs_transcript');
    await postJson('/api/submit');

    const [, getInit] = fetchMock.mock.calls[0] ?? [];
    expect(getInit?.credentials).toBe('same-origin');
    expect(new Headers(getInit?.headers).get('Content-Type')).toBe('application/json');
    expect(new Headers(getInit?.headers).get('Accept')).toBe('application/json');
    expect(getInit?.body).toBeUndefined();

    const [, deleteInit] = fetchMock.mock.calls[2] ?? [];
    expect(deleteInit?.method).toBe('DELETE');
    expect(new Headers(deleteInit?.headers).get('Content-Type')).toBe('application/json');
    expect(deleteInit?.body).toBeUndefined();

    const [, submitInit] = fetchMock.mock.calls[3] ?? [];
    expect(new Headers(submitInit?.headers).get('Content-Type')).toBe('application/json');
    expect(submitInit?.body).toBeUndefined();

    const [, postInit] = fetchMock.mock.calls[1] ?? [];
    expect(postInit?.method).toBe('POST');
    expect(postInit?.credentials).toBe('same-origin');
    expect(new Headers(postInit?.headers).get('Content-Type')).toBe('application/json');
    expect(postInit?.body).toBe('{"username":"a@b.co","password":"x"}');
  });

  describe('a reply that is not JSON', () => {
    it('is a ServerError with the generic message', async () => {
      stubFetch(new Response('<html>Bad gateway</html>', { status: 200 }));
      const error = await getJson('/api/profile').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      expect((error as ServerError).message).toBe(GENERIC_SERVER_ERROR_MESSAGE);
    });

    it('is a ServerError with the generic message on a non-OK status too', async () => {
      stubFetch(new Response('<html>Bad gateway</html>', { status: 502 }));
      const error = await getJson('/api/profile').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      expect((error as ServerError).message).toBe(GENERIC_SERVER_ERROR_MESSAGE);
      expect((error as ServerError).status).toBe(502);
    });
  });

  describe('a 401 reply', () => {
    it("is an UnauthorizedError carrying the server's message", async () => {
      stubFetch(json({ message: 'Not signed in.' }, 401));
      const error = await getJson('/api/profile').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error).not.toBeInstanceOf(ServerError);
      expect((error as UnauthorizedError).message).toBe('Not signed in.');
    });

    it('falls back to the generic message when the message is not a string', async () => {
      stubFetch(json({ message: 42 }, 401));
      const error = await getJson('/api/profile').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as UnauthorizedError).message).toBe(GENERIC_SERVER_ERROR_MESSAGE);
    });

    it('falls back to the generic message when the body is not JSON', async () => {
      stubFetch(new Response('Unauthorized', { status: 401 }));
      const error = await getJson('/api/profile').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as UnauthorizedError).message).toBe(GENERIC_SERVER_ERROR_MESSAGE);
    });
  });

  describe('another non-OK reply', () => {
    it("is a ServerError with the server's message, status and field errors", async () => {
      stubFetch(
        json(
          {
            message: 'Invalid input.',
            errors: { username: ['Your email address must be valid.'] },
          },
          400,
        ),
      );
      const error = await postJson('/public/signup', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      expect((error as ServerError).message).toBe('Invalid input.');
      expect((error as ServerError).status).toBe(400);
      expect((error as ServerError).errors).toEqual({
        username: ['Your email address must be valid.'],
      });
    });

    it('carries the machine-readable code', async () => {
      stubFetch(json({ message: 'Not confirmed.', code: 'ACCOUNT_NOT_CONFIRMED' }, 403));
      const error = await postJson('/public/login', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      expect((error as ServerError).code).toBe('ACCOUNT_NOT_CONFIRMED');
      expect((error as ServerError).status).toBe(403);
    });

    it('falls back to the generic message when the message is not a string', async () => {
      stubFetch(json({ error: 'boom' }, 500));
      const error = await getJson('/api/profile').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      expect((error as ServerError).message).toBe(GENERIC_SERVER_ERROR_MESSAGE);
    });
  });

  it('treats a 204 reply as no content', async () => {
    stubFetch(new Response(null, { status: 204 }));
    await expect(postJson('/api/keep-alive')).resolves.toBeUndefined();
  });

  it('treats an empty 200 reply as not JSON: the generic message', async () => {
    stubFetch(new Response('', { status: 200 }));
    const error = await getJson('/api/logout').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).message).toBe(GENERIC_SERVER_ERROR_MESSAGE);
  });

  describe('failures worth sending again', () => {
    it('are no reply, a server error, or a 429 that says when to come back', async () => {
      stubFetch(
        new Response(JSON.stringify({ message: 'Slow down.' }), {
          status: 429,
          headers: { 'Retry-After': '3' },
        }),
      );
      const limited = await getJson('/api/profile').catch((e: unknown) => e);
      expect((limited as ServerError).retryAfterMs).toBe(3000);
      expect(isTransientFailure(limited)).toBe(true);
      expect(isTransientFailure(new ServerError('Down.', null))).toBe(true);
      expect(isTransientFailure(new ServerError('Down.', 503))).toBe(true);
    });

    it('are not a refusal the same call would meet again', () => {
      expect(isTransientFailure(new ServerError('Invalid.', 400))).toBe(false);
      expect(isTransientFailure(new ServerError('Slow down.', 429))).toBe(false);
      expect(isTransientFailure(new ServerError('Submitted.', 409))).toBe(false);
      expect(isTransientFailure(new UnauthorizedError('Not signed in.'))).toBe(false);
      expect(isTransientFailure(new Error('bug'))).toBe(false);
    });

    it('read Retry-After in seconds or as a date', () => {
      const now = Date.parse('2026-11-21T10:00:00Z');
      expect(parseRetryAfter('120', now)).toBe(120_000);
      expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
      expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
      expect(parseRetryAfter('soon', now)).toBeUndefined();
      expect(parseRetryAfter(null, now)).toBeUndefined();
    });
  });

  it('turns a network failure into a ServerError with the generic message', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const error = await getJson('/api/profile').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).message).toBe(GENERIC_SERVER_ERROR_MESSAGE);
    expect((error as ServerError).status).toBeNull();
  });

  it('remembers when a signed-in call was last answered, and only those', async () => {
    stubFetch(json({ ok: true }));
    const before = lastSessionCallTime();
    await getJson('/public/tenant');
    expect(lastSessionCallTime()).toBe(before);
    const start = Date.now();
    await getJson('/api/profile');
    expect(lastSessionCallTime()).toBeGreaterThanOrEqual(start);
  });
});
