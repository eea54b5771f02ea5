/**
 * The analytics opt-out of the privacy notice, kept in this browser's localStorage (not a cookie,
 * so it is never sent to the server). The portal loads no analytics itself: a university's tag
 * manager reads this key before it starts its analytics (README, "Tenant configuration").
 * 'true' is an opt-out, 'false' a choice to allow; without the key nobody has chosen yet.
 */
export const ANALYTICS_OPT_OUT_KEY = 'portal:analytics-opt-out';

export function readAnalyticsOptOut(): boolean {
  try {
    return localStorage.getItem(ANALYTICS_OPT_OUT_KEY) === 'true';
  } catch {
    // Storage refused (private mode, a locked-down browser): nothing was chosen.
    return false;
  }
}

/** Stores the choice; false when the browser refuses to store it, so the notice can say so. */
export function writeAnalyticsOptOut(optOut: boolean): boolean {
  try {
    localStorage.setItem(ANALYTICS_OPT_OUT_KEY, String(optOut));
    return true;
  } catch {
    return false;
  }
}
