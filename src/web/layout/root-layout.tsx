import { COMPLETION_ROUTE, isFormRoute } from '../../shared/routes';
import { useFormSession } from '../app-state/form-session-context';
import { usePrefillNotice } from '../app-state/prefill-notice';
import { useLifeCycle } from '../form/life-cycle';
import { ShellBoundary, ShellFrame, useShellScreen } from '../frame/shell-frame';
import { ReadOnlyShell, useServiceToken } from '../read-only/read-only-shell';
import { InactivityMonitor } from '../session/inactivity-monitor';
import { useNavigationToast } from '../toast/use-navigation-toast';
import { BannerArea } from './banner-area';
import { Banners } from './banners';
import { Footer } from './footer';
import { Header } from './header';
import { StepNavigation } from './step-navigation';

/** The shell around every screen. */
export function RootLayout() {
  return (
    <ShellBoundary>
      <Shell />
    </ShellBoundary>
  );
}

function Shell() {
  const pathname = useShellScreen();
  useNavigationToast();
  useLifeCycle();
  usePrefillNotice(useFormSession().prefillNotice);
  const serviceToken = useServiceToken();
  const formOrCompletion = isFormRoute(pathname) || pathname === COMPLETION_ROUTE;

  if (serviceToken) return <ReadOnlyShell token={serviceToken} />;

  return (
    <ShellFrame
      before={
        <>
          <Header />
          <BannerArea>{formOrCompletion ? <Banners /> : null}</BannerArea>
          {isFormRoute(pathname) ? <StepNavigation /> : null}
        </>
      }
      after={
        <>
          <Footer />
          <InactivityMonitor />
        </>
      }
    />
  );
}
