import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { BeforeLogoutContext } from '../app-state/before-logout';
import { useFormSession } from '../app-state/form-session-context';
import { LOGIN_ROUTE, resetToAnonymous, SESSION_TOASTS } from '../app-state/session-end';
import { getJson } from '../data/http-client';
import { tenantQueryOptions } from '../data/tenant';

/**
 * Logs out (spec 000 sections 2 and 4): lets registered hooks save first, calls GET /api/logout,
 * clears the whole cache and goes to /login with the logout or inactivity message.
 *
 * A logout the user chose rejects when the server call fails, so the caller can say so: the
 * session may still be open. An inactivity logout ends the browser's side regardless; the
 * server's own idle time-out ends its side.
 */
export function useLogOut(): (context: BeforeLogoutContext) => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { beforeLogout, ending } = useFormSession();

  return useCallback(
    (context: BeforeLogoutContext) =>
      ending.during(async () => {
        await beforeLogout.run(context);
        try {
          await getJson('/api/logout');
        } catch (error) {
          if (context.reason === 'user') {
            throw error;
          }
        }
        resetToAnonymous(queryClient);
        // The shell needs the tenant again; fetch it before leaving so /login does not flash the spinner.
        await queryClient.prefetchQuery(tenantQueryOptions);
        const toast =
          context.reason === 'user' ? SESSION_TOASTS.loggedOut : SESSION_TOASTS.inactivity;
        await navigate(LOGIN_ROUTE, { state: { toast } });
      }),
    [queryClient, navigate, beforeLogout, ending],
  );
}
