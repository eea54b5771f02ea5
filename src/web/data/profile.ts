import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { ProfileResponse } from '../../shared/api/profile';
import { getJson } from './http-client';
import { hasLoggedInCookie } from './logged-in';
import { queryKeys } from './query-keys';

/**
 * The signed-in student's profile, or null for an anonymous visitor. Without the logged-in
 * marker cookie nobody is signed in, so no call is made (spec 000 section 4). With it, a 401
 * means the session is invalid: the UnauthorizedError reaches the query cache's handler.
 */
export async function fetchProfile(): Promise<ProfileResponse | null> {
  if (!hasLoggedInCookie()) {
    return null;
  }
  return getJson<ProfileResponse>('/api/profile');
}

export const profileQueryOptions = queryOptions({
  queryKey: queryKeys.profile,
  queryFn: fetchProfile,
});

/** The profile loaded by the root loader: null when nobody is signed in. */
export function useProfile(): ProfileResponse | null {
  return useSuspenseQuery(profileQueryOptions).data;
}
