import { queryOptions } from '@tanstack/react-query';
import { GENERIC_SERVER_ERROR_MESSAGE, isApiErrorBody } from '../../../shared/api/errors';
import {
  STAFF_API,
  type StaffMeResponse,
  type StaffOptionsResponse,
} from '../../../shared/staff/staff-api';
import {
  getJson,
  parseRetryAfter,
  postJson,
  ServerError,
  UnauthorizedError,
} from '../../data/http-client';

const api = (path: string) => `${STAFF_API}${path}`;

/**
 * The calls every part of the console shares, one per server route
 * (src/shared/staff/staff-api.ts has the contract); each feature folder has its own.
 */
export const staffCalls = {
  options: () => getJson<StaffOptionsResponse>(api('/options')),
  me: () => getJson<StaffMeResponse>(api('/me')),
  stepUp: (code: string) => postJson<unknown>(api('/step-up'), { code }),
  signOut: () => postJson<unknown>(api('/sign-out')),
};

export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

/**
 * A file from the server (the audit log's CSV). A refusal comes as the usual JSON error, so it
 * fails like every other call: a 401 ends the session, a 403 may ask for a step-up.
 */
export async function fetchFile(path: string): Promise<DownloadedFile> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin' });
  } catch {
    throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, null);
  }
  if (response.ok) {
    return {
      blob: await response.blob(),
      fileName: fileNameOf(response.headers.get('Content-Disposition')),
    };
  }
  const body: unknown = await response.json().catch(() => null);
  const message =
    isApiErrorBody(body) && body.message.trim() !== ''
      ? body.message
      : GENERIC_SERVER_ERROR_MESSAGE;
  if (response.status === 401) throw new UnauthorizedError(message);
  throw new ServerError(
    message,
    response.status,
    isApiErrorBody(body) ? body.errors : undefined,
    isApiErrorBody(body) ? body.code : undefined,
    parseRetryAfter(response.headers.get('Retry-After')),
  );
}

/** The file name a Content-Disposition header suggests, or null. */
export function fileNameOf(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (encoded?.[1]) {
    try {
      return decodeURIComponent(encoded[1].trim());
    } catch {
      // Fall through to the plain name.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || null;
}

/** Cache keys of the server state every part of the console shares. */
export const staffKeys = {
  options: ['staff', 'options'],
  me: ['staff', 'me'],
} as const;

export const meQueryOptions = queryOptions({
  queryKey: staffKeys.me,
  queryFn: staffCalls.me,
});

export const optionsQueryOptions = queryOptions({
  queryKey: staffKeys.options,
  queryFn: staffCalls.options,
});
