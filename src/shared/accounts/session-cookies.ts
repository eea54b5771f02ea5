/**
 * The browser counts as logged in when a cookie whose name starts with this prefix exists
 * (spec 000 section 4). The marker carries no secret; the session cookie itself is HttpOnly.
 */
export const LOGGED_IN_COOKIE_PREFIX = 'tp_signed_in';
export const LOGGED_IN_MARKER_COOKIE = `${LOGGED_IN_COOKIE_PREFIX}`;

export function hasLoggedInMarker(cookieHeader: string): boolean {
  return cookieHeader
    .split(';')
    .some((cookie) => cookie.trim().startsWith(LOGGED_IN_COOKIE_PREFIX));
}
