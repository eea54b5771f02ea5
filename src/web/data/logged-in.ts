import { hasLoggedInMarker, LOGGED_IN_MARKER_COOKIE } from '../../shared/accounts/session-cookies';

/**
 * Spec 000 section 4: the browser counts as logged in while a cookie whose name starts with the
 * marker prefix exists. The session cookie itself is HttpOnly; the marker only avoids a profile
 * call (and a 401 in the console) for every anonymous visitor.
 */
export function hasLoggedInCookie(cookies: string = readCookies()): boolean {
  return hasLoggedInMarker(cookies);
}

/**
 * Removes the marker when the browser ends the session itself. The server clears it on logout
 * and on every 401; this only covers a reply that never arrived (an inactivity logout while
 * offline) or came from a proxy. Best effort: browsers without the Cookie Store API keep the
 * marker, and the next profile call's 401 clears it.
 */
export function clearLoggedInMarker(): void {
  if (typeof cookieStore === 'undefined') {
    return;
  }
  cookieStore.delete({ name: LOGGED_IN_MARKER_COOKIE, path: '/' }).catch(() => {
    // Nothing more to do: the server's 401 clears it next time.
  });
}

function readCookies(): string {
  return typeof document === 'undefined' ? '' : document.cookie;
}
