import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { isFormRoute } from '../../shared/routes';
import { LoadingSpinner } from '../ui/loading-spinner';
import { serviceTokenOf } from './form-route-loader';

const ReadOnlyView = lazy(() => import('./read-only-view'));

/** The staff link's token when a form route is opened with one: the app is then read-only. */
export function useServiceToken(): string | null {
  const { pathname, search } = useLocation();
  return isFormRoute(pathname) ? serviceTokenOf(search) : null;
}

/**
 * The shell for a service user (spec 000 section 6): the application alone, without the header
 * and its account popover, banners, step navigation, footer or inactivity prompt.
 */
export function ReadOnlyShell({ token }: { token: string }) {
  return (
    <main id="main" tabIndex={-1}>
      <Suspense fallback={<LoadingSpinner />}>
        <ReadOnlyView token={token} />
      </Suspense>
    </main>
  );
}
