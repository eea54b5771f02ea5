import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { UnauthorizedError } from '../../data/http-client';
import { tenantQueryOptions } from '../../data/tenant';
import { staffCalls } from './staff-calls';
import { STAFF_NOTICES, STAFF_SIGN_IN_ROUTE, useStaffSession } from './staff-session';

export type SignOutReason = 'user' | 'inactivity';

/**
 * Signs the member out: tells the server, forgets every cached reply and goes to the sign-in
 * page with a sentence saying why. A sign-out the member chose rejects when the server call
 * fails, so the caller can say the session may still be open; an idle one ends the browser's
 * side regardless (the server's own idle time-out ends its side).
 */
export function useSignOut(): (reason: SignOutReason) => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { ending } = useStaffSession();

  return useCallback(
    (reason: SignOutReason) =>
      ending.during(async () => {
        try {
          await staffCalls.signOut();
        } catch (error) {
          // A session the server already ended is signed out all the same.
          if (reason === 'user' && !(error instanceof UnauthorizedError)) throw error;
        }
        queryClient.clear();
        // The shell needs the tenant again; fetched before leaving so the page does not flash.
        await queryClient.prefetchQuery(tenantQueryOptions);
        const notice = reason === 'user' ? STAFF_NOTICES.signedOut : STAFF_NOTICES.inactivity;
        await navigate(STAFF_SIGN_IN_ROUTE, { state: { notice } });
      }),
    [queryClient, navigate, ending],
  );
}
