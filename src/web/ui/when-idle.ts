/** Without requestIdleCallback (Safari), a pause long enough to let the page finish its frame. */
const FALLBACK_DELAY_MS = 200;

/**
 * Runs `work` when the browser has nothing else to do, at the latest after `timeoutMs`, so what
 * a later page needs loads after this one is ready instead of competing with it. Returns a cancel.
 */
export function whenIdle(work: () => void, timeoutMs = 2000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => work(), { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(work, FALLBACK_DELAY_MS);
  return () => clearTimeout(id);
}
