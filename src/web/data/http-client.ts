import { GENERIC_SERVER_ERROR_MESSAGE, isApiErrorBody } from '../../shared/api/errors';

type FieldErrors = Record<string, string[]>;

/** A failed call: a non-OK reply, a reply that is not JSON, or no reply at all (status null). */
export class ServerError extends Error {
  override readonly name: string = 'ServerError';
  readonly status: number | null;
  readonly errors: FieldErrors | undefined;
  /** The machine-readable reason a screen reacts to, e.g. NOT_CONFIRMED_CODE on log-in. */
  readonly code: string | undefined;
  /** How long the server asked the caller to wait before trying again (Retry-After). */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    status: number | null,
    errors?: FieldErrors,
    code?: string,
    retryAfterMs?: number,
  ) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * Whether the same call may succeed if sent again: no reply at all, a server error, or a 429
 * that says when to come back. Anything else (a 400, 403, 409...) would only fail again.
 */
export function isTransientFailure(error: unknown): error is ServerError {
  if (!(error instanceof ServerError)) return false;
  const { status } = error;
  return status === null || status >= 500 || (status === 429 && error.retryAfterMs !== undefined);
}

/** A Retry-After header, in seconds or as a date, as milliseconds from `now`. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A 401 reply: the caller is not signed in or the session is no longer valid. */
export class UnauthorizedError extends Error {
  override readonly name: string = 'UnauthorizedError';
  readonly status = 401;

  constructor(message: string) {
    super(message);
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** Serialised as JSON; leave undefined for calls without a payload. */
  body?: unknown;
  signal?: AbortSignal;
}

const NOT_JSON = Symbol('not-json');

/** When a signed-in call last reached the server; each one counts as activity for the session. */
let lastSessionCallAt = Number.NEGATIVE_INFINITY;

/** The time (Date.now()) of the last answered /api/ call, so keep-alive can skip when others ran. */
export function lastSessionCallTime(): number {
  return lastSessionCallAt;
}

/**
 * Sends a JSON call to the application's own server and returns the parsed reply.
 * The reply type is the caller's claim about the server contract; it is not checked here.
 * Spec 000 section 7: every call sends and expects JSON, so the content type goes with calls
 * that carry no payload too.
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal } = options;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': 'application/json',
  };
  const init: RequestInit = { method, credentials: 'same-origin', headers };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
  }
  if (signal) {
    init.signal = signal;
  }

  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    // An aborted call is the caller's decision, not a failure to report.
    if (error instanceof DOMException && error.name === 'AbortError') {
      throw error;
    }
    throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, null);
  }

  if (path.startsWith('/api/')) {
    lastSessionCallAt = Date.now();
  }
  const text = await response.text().catch(() => '');
  const parsed = parseJson(text);

  if (response.status === 401) {
    throw new UnauthorizedError(messageOf(parsed));
  }
  if (!response.ok) {
    throw new ServerError(
      messageOf(parsed),
      response.status,
      fieldErrorsOf(parsed),
      codeOf(parsed),
      parseRetryAfter(response.headers.get('Retry-After')),
    );
  }
  // 204 says there is no content; any other OK reply must be JSON, and an empty body is not.
  if (response.status === 204) {
    return undefined as T;
  }
  if (parsed === NOT_JSON) {
    throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, response.status);
  }
  return parsed as T;
}

export function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return request<T>(path, signal ? { signal } : {});
}

export function postJson<T>(path: string, body?: unknown): Promise<T> {
  return request<T>(path, { method: 'POST', body });
}

export function putJson<T>(path: string, body?: unknown): Promise<T> {
  return request<T>(path, { method: 'PUT', body });
}

export function deleteJson<T>(path: string): Promise<T> {
  return request<T>(path, { method: 'DELETE' });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function messageOf(parsed: unknown): string {
  // An empty message gives the user nothing to act on, so it falls back like a missing one.
  return isApiErrorBody(parsed) && parsed.message.trim() !== ''
    ? parsed.message
    : GENERIC_SERVER_ERROR_MESSAGE;
}

function fieldErrorsOf(parsed: unknown): FieldErrors | undefined {
  if (!isApiErrorBody(parsed) || typeof parsed.errors !== 'object' || parsed.errors === null) {
    return undefined;
  }
  return parsed.errors;
}

function codeOf(parsed: unknown): string | undefined {
  return isApiErrorBody(parsed) && typeof parsed.code === 'string' ? parsed.code : undefined;
}
