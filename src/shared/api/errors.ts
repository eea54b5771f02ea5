/** The error envelope every API error uses (docs/design.md, API conventions). */
export interface ApiErrorBody {
  message: string;
  errors?: Record<string, string[]>;
  /** A machine-readable reason where a screen must react to one case, e.g. an unconfirmed account. */
  code?: string;
}

/** Spec 000 section 8: shown when a reply is not JSON or carries no usable message. */
export const GENERIC_SERVER_ERROR_MESSAGE =
  "We've encountered an unexpected error at this time. Please try again later.";

export const SESSION_INVALID_MESSAGE =
  'Your session is invalid. Please clear your cookies and login again.';

export const ERROR_SCREEN_TITLE = 'Something went wrong.';
export const ERROR_SCREEN_TEXT =
  'The issue that caused you to see this has been logged. We will get it fixed as soon as possible.';

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
