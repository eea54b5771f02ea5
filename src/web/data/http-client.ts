import { GENERIC_SERVER_ERROR_MESSAGE, isApiErrorBody } from '../../shared/api/errors';

type FieldErrors = Record<string, string[]>;

/** A failed call: a non-OK reply, a reply that is not JSON, or no reply at all (status null). */
export class ServerError extends Error {
  override readonly name: string = 'ServerError';
  readonly status: number | null;
  readonly errors: FieldErrors | undefined;
  /** The machine-readable reason a screen reacts to, e.g. NOT_CONFIRMED_CODE on log-in. */
  readonly code: string | undefined;

  constructor(message: string, status: number | null, errors?: FieldErrors, code?: string) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.code = code;
  }
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
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const init: RequestInit = { method, credentials: 'same-origin', headers };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
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
    );
  }
  // Calls such as logout may answer 204 with no body at all.
  if (text.trim() === '') {
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
