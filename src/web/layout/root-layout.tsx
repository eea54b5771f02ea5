import { Suspense } from 'react';
import { Outlet, useLocation, useNavigation } from 'react-router';
import { COMPLETION_ROUTE, isFormRoute } from '../../shared/routes';
import { useFormSession } from '../form/form-session-context';
import { useLifeCycle } from '../form/life-cycle';
import { usePrefillNotice } from '../prefill/prefill-notice';
import { ReadOnlyShell, useServiceToken } from '../read-only/read-only-shell';
import { InactivityMonitor } from '../session/inactivity-monitor';
import { useNavigationToast } from '../toast/use-navigation-toast';
import { useToastScreen } from '../toast/use-toast-screen';
import { BannerArea } from './banner-area';
import { Banners } from './banners';
import { Footer } from './footer';
import { Header } from './header';
import { LoadingSpinner } from './loading-spinner';
import styles from './root-layout.module.css';
import { StepNavigation } from './step-navigation';
import { useDocumentTitle } from './use-document-title';

/** Navigations that finish quickly (cached data, loaded chunks) should not flash the overlay. */
const NAVIGATION_SPINNER_DELAY_MS = 300;

/** The shell around every screen. The suspense boundary covers a refetch after the cache is cleared (logout). */
export function RootLayout() {
  return (
    <Suspense fallback={<LoadingSpinner />}>
      <Shell />
    </Suspense>
  );
}

function Shell() {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  useDocumentTitle();
  useToastScreen(pathname);
  useNavigationToast();
  useLifeCycle();
  usePrefillNotice(useFormSession().prefillNotice);
  const serviceToken = useServiceToken();
  const formOrCompletion = isFormRoute(pathname) || pathname === COMPLETION_ROUTE;

  if (serviceToken) return <ReadOnlyShell token={serviceToken} />;

  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skipLink}>
        Skip to main content
      </a>
      <Header />
      <BannerArea>{formOrCompletion ? <Banners /> : null}</BannerArea>
      {isFormRoute(pathname) ? <StepNavigation /> : null}
      <main id="main" tabIndex={-1} className={styles.main}>
        <Outlet />
      </main>
      <Footer />
      <InactivityMonitor />
      {navigation.state === 'loading' ? (
        <LoadingSpinner delayMs={NAVIGATION_SPINNER_DELAY_MS} />
      ) : null}
    </div>
  );
}
