import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { COMPLETION_ROUTE, isFormRoute } from '../../shared/routes';
import { noteFormPage, useClientSnapshot } from './client-snapshot';
import { pageChanged, startApplication } from './form-session';

/**
 * The application's life cycle in the shell (spec 000 sections 2 and 4): a signed-in student
 * without a status has started; a change between form pages saves the answers and the last page
 * and sets has_changed_page; a submit seen meanwhile (another tab) moves to /completion.
 */
export function useLifeCycle(): void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const sessionId = useClientSnapshot((snapshot) => snapshot.sessionId);
  const isLoggedIn = useClientSnapshot((snapshot) => snapshot.isLoggedIn);
  const webStatus = useClientSnapshot((snapshot) => snapshot.webStatus);

  useEffect(() => {
    if (sessionId && isLoggedIn && webStatus === null) startApplication(queryClient);
  }, [queryClient, sessionId, isLoggedIn, webStatus]);

  useEffect(() => {
    if (sessionId && isFormRoute(pathname) && noteFormPage(pathname))
      pageChanged(queryClient, pathname);
  }, [queryClient, sessionId, pathname]);

  useEffect(() => {
    if (isLoggedIn && webStatus === 'submitted' && isFormRoute(pathname))
      navigate(COMPLETION_ROUTE, { replace: true });
  }, [isLoggedIn, webStatus, pathname, navigate]);
}
