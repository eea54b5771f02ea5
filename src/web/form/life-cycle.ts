import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { COMPLETION_ROUTE, isFormRoute } from '../../shared/routes';
import { useFormSession } from '../app-state/form-session-context';
import { useStore } from '../state/create-store';

/**
 * The application's life cycle in the shell (spec 000 sections 2 and 4): a signed-in student
 * without a status has started; a change between form pages saves the answers and the last page
 * and sets has_changed_page; a submit seen meanwhile (another tab) moves to /completion.
 */
export function useLifeCycle(): void {
  const session = useFormSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const sessionId = useStore(session.snapshot.store, (snapshot) => snapshot.sessionId);
  const isLoggedIn = useStore(session.snapshot.store, (snapshot) => snapshot.isLoggedIn);
  const webStatus = useStore(session.snapshot.store, (snapshot) => snapshot.webStatus);

  useEffect(() => {
    if (sessionId && isLoggedIn && webStatus === null) session.startApplication();
  }, [session, sessionId, isLoggedIn, webStatus]);

  useEffect(() => {
    if (sessionId && isFormRoute(pathname) && session.snapshot.noteFormPage(pathname))
      session.pageChanged(pathname);
  }, [session, sessionId, pathname]);

  useEffect(() => {
    if (isLoggedIn && webStatus === 'submitted' && isFormRoute(pathname))
      navigate(COMPLETION_ROUTE, { replace: true });
  }, [isLoggedIn, webStatus, pathname, navigate]);
}
