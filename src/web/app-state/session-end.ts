import type { QueryClient } from '@tanstack/react-query';
import { SESSION_INVALID_MESSAGE } from '../../shared/api/errors';
import { clearLoggedInMarker } from '../data/logged-in';
import { queryKeys } from '../data/query-keys';
import type { AppNavigationState } from '../navigation/navigation-state';
import type { ToastMessage } from '../toast/toast-types';

/** Spec 000 section 2: where every ended session lands. */
export const LOGIN_ROUTE = '/login';

export const LOGGED_OUT_MESSAGE = 'You have been logged out.';
export const INACTIVITY_LOGOUT_MESSAGE =
  'You have been automatically logged out due to inactivity.';

/**
 * The toasts /login shows when a session ends. The two the applicant did not choose are errors,
 * so they stay until read (300 s) instead of vanishing before someone back at the desk sees them.
 */
export const SESSION_TOASTS = {
  loggedOut: { severity: 'success', title: 'Logged Out', description: LOGGED_OUT_MESSAGE },
  inactivity: { severity: 'error', title: 'Logged Out', description: INACTIVITY_LOGOUT_MESSAGE },
  invalid: { severity: 'error', title: 'Session Invalid', description: SESSION_INVALID_MESSAGE },
} as const satisfies Record<string, ToastMessage>;

/**
 * Forgets everything the signed-in student had: the marker cookie, and the whole query cache
 * (spec 000 section 2). The profile is set to null at once so the shell renders as anonymous
 * without asking the server again.
 */
export function resetToAnonymous(queryClient: QueryClient): void {
  clearLoggedInMarker();
  queryClient.clear();
  queryClient.setQueryData(queryKeys.profile, null);
}

/**
 * Marks a logout the browser started. While one runs, a 401 (say, from an autosave racing the
 * server's own time-out) must not replace its message with the session-invalid one.
 */
export interface SessionEnding {
  during<T>(work: () => Promise<T>): Promise<T>;
  isUnderWay(): boolean;
}

export function createSessionEnding(): SessionEnding {
  let underWay = 0;
  return {
    async during(work) {
      underWay += 1;
      try {
        return await work();
      } finally {
        underWay -= 1;
      }
    },
    isUnderWay: () => underWay > 0,
  };
}

export type NavigateToLogin = (to: string, options: { state: AppNavigationState }) => unknown;

/**
 * The one reaction to an UnauthorizedError from any query or mutation (spec 000 sections 2 and
 * 4): clear the cache and go to /login with the session-invalid message. Several calls failing
 * together lead to one navigation and one toast.
 */
export function createUnauthorizedHandler(
  getQueryClient: () => QueryClient,
  navigate: NavigateToLogin,
  ending: SessionEnding = createSessionEnding(),
): () => void {
  let redirecting = false;
  return () => {
    if (ending.isUnderWay() || redirecting) {
      return;
    }
    redirecting = true;
    resetToAnonymous(getQueryClient());
    Promise.resolve(navigate(LOGIN_ROUTE, { state: { toast: SESSION_TOASTS.invalid } })).finally(
      () => {
        redirecting = false;
      },
    );
  };
}
