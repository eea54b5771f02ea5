/** How long to wait for a PDF being made when the server does not say. */
export const PDF_RETRY_DEFAULT_MS = 3000;
/** A PDF that is still not made after this many tries is left to the reader to ask again. */
export const PDF_TRIES_MAX = 40;

/**
 * How long to wait before asking again for a PDF being made: the server's Retry-After, kept
 * between a second (no hammering) and half a minute (the reader is still waiting).
 */
export function pdfRetryWait(retryAfterMs: number | undefined): number {
  return Math.min(Math.max(retryAfterMs ?? PDF_RETRY_DEFAULT_MS, 1000), 30_000);
}
