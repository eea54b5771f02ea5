import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { SignInStage } from '../../../shared/staff/staff-api';
import { meQueryOptions } from '../shell/staff-calls';
import {
  STAFF_CODE_ROUTE,
  STAFF_ENROL_ROUTE,
  STAFF_HOME_ROUTE,
  useStaffSession,
} from '../shell/staff-session';

/** The page of the next step of signing in. */
export function stageRoute(next: SignInStage | undefined): string {
  if (next === 'enrol') return STAFF_ENROL_ROUTE;
  if (next === 'second_factor') return STAFF_CODE_ROUTE;
  return STAFF_HOME_ROUTE;
}

/**
 * Goes on to the next step after a sign-in call. Once signed in, the session's idle clock starts
 * now, and the member is fetched afresh before the home page shows them.
 */
export function useSignInStep(): (next: SignInStage | undefined) => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { marks } = useStaffSession();
  return useCallback(
    async (next) => {
      const route = stageRoute(next);
      if (route === STAFF_HOME_ROUTE) {
        marks.write(Date.now());
        await queryClient.fetchQuery({ ...meQueryOptions, staleTime: 0 });
      }
      await navigate(route, { replace: route === STAFF_HOME_ROUTE });
    },
    [queryClient, navigate, marks],
  );
}
