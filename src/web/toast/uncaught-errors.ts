import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import { ServerError, UnauthorizedError } from '../data/http-client';

/** Spec 000 section 8: an uncaught error is shown as an error toast with this title. */
export const UNCAUGHT_ERROR_TITLE = 'Error';

/**
 * What to tell the applicant about an error nothing else handled, or null when there is nothing
 * to tell: a cancelled call was wanted, and a 401 already leads to /login with its own message.
 * A failed call's message was written for people; any other error's was written for developers.
 */
export function uncaughtErrorMessage(reason: unknown): string | null {
  if (reason instanceof DOMException && reason.name === 'AbortError') return null;
  if (reason instanceof UnauthorizedError) return null;
  if (reason instanceof ServerError) return reason.message;
  return GENERIC_SERVER_ERROR_MESSAGE;
}

/**
 * The same for a window 'error' event. One without an error object is a browser notice (the
 * ResizeObserver loop) or a script from another origin whose details are hidden: not ours to show.
 */
export function uncaughtErrorEventMessage(event: Pick<ErrorEvent, 'error'>): string | null {
  return event.error == null ? null : uncaughtErrorMessage(event.error);
}
