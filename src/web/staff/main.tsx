// First, so component styles come after the base styles and win ties.
import '../styles/global.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient } from '../query-client';
import { ToastProvider } from '../toast/toast-provider';
import {
  createStaffSession,
  STAFF_NOTICES,
  STAFF_SIGN_IN_ROUTE,
  StaffSessionContext,
  unauthorizedEndsSession,
} from './shell/staff-session';
import { createStaffRouter } from './staff-router';

/**
 * The composition root of the admissions office's console: the query client (server state), the
 * staff session (the activity mark, a sign-out under way) and the router, made once here.
 */
function startConsole(container: HTMLElement): void {
  let router: ReturnType<typeof createStaffRouter> | undefined;
  let redirecting = false;
  const session = createStaffSession();
  const queryClient = createQueryClient({
    // Any 401 from a staff call: the session is over; forget everything and sign in again.
    onUnauthorized: () => {
      const pathname = router?.state.location.pathname ?? window.location.pathname;
      if (redirecting || session.ending.isUnderWay() || !unauthorizedEndsSession(pathname)) {
        return;
      }
      redirecting = true;
      queryClient.clear();
      Promise.resolve(
        router?.navigate(STAFF_SIGN_IN_ROUTE, { state: { notice: STAFF_NOTICES.ended } }),
      ).finally(() => {
        redirecting = false;
      });
    },
  });
  router = createStaffRouter(queryClient);

  createRoot(container).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <StaffSessionContext value={session}>
          <ToastProvider>
            <RouterProvider router={router} />
          </ToastProvider>
        </StaffSessionContext>
      </QueryClientProvider>
    </StrictMode>,
  );
}

const container = document.getElementById('root');
if (!container) {
  throw new Error('staff.html must contain an element with id "root".');
}
startConsole(container);
