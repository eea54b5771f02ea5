import { type ReactNode, Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { isRouteHandle } from '../navigation/route-handle';
import { useToastScreen } from '../toast/use-toast-screen';
import { cx } from '../ui/cx';
import { LoadingSpinner } from '../ui/loading-spinner';
import styles from './shell-frame.module.css';
import { useDocumentTitle } from './use-document-title';

/** Navigations that finish quickly (cached data, loaded chunks) should not flash the overlay. */
const NAVIGATION_SPINNER_DELAY_MS = 300;

/** The shell's suspense boundary; it covers a refetch after the cache is cleared (logout). */
export function ShellBoundary({ children }: { children: ReactNode }) {
  return <Suspense fallback={<LoadingSpinner />}>{children}</Suspense>;
}

/** Names the screen: the document title, and the toast layer's screen. Returns the path. */
export function useShellScreen(): string {
  const { pathname } = useLocation();
  useDocumentTitle();
  useToastScreen(pathname);
  return pathname;
}

/**
 * The frame of every screen: the skip link, what comes before the page (the header), the page in
 * its main landmark, what comes after it, and the overlay of a navigation that takes a while.
 */
export function ShellFrame({
  before,
  after,
  mainClassName,
}: {
  before: ReactNode;
  after?: ReactNode;
  mainClassName?: string;
}) {
  const navigation = useNavigation();
  // Drawn only once the wait is noticeable; before that the page stays as it is, usable.
  const covered = useShownAfter(navigation.state === 'loading', NAVIGATION_SPINNER_DELAY_MS);
  return (
    <div className={styles.shell}>
      {/* Once the overlay is drawn, what it covers is out of the keyboard's reach (WCAG 2.4.11). */}
      <div className={styles.screen} inert={covered}>
        <PageSkipLink />
        <a href="#main" className={styles.skipLink}>
          Skip to main content
        </a>
        {before}
        <main id="main" tabIndex={-1} className={cx(styles.main, mainClassName)}>
          <Outlet />
        </main>
        {after}
      </div>
      {covered ? <LoadingSpinner fadeIn /> : null}
    </div>
  );
}

/**
 * The page's own skip link, when its route names one. Focus moves to the target itself (it has
 * tabIndex -1), without changing the address; a target not drawn yet leaves the link inert.
 */
function PageSkipLink() {
  const handles = useMatches()
    .map((match) => match.handle)
    .filter(isRouteHandle);
  const skipTo = handles.at(-1)?.skipTo;
  if (!skipTo) return null;
  return (
    <a
      href={`#${skipTo.id}`}
      className={styles.skipLink}
      onClick={(event) => {
        const target = document.getElementById(skipTo.id);
        if (!target) return;
        event.preventDefault();
        target.focus();
      }}
    >
      {skipTo.label}
    </a>
  );
}

/** True once `active` has lasted `delayMs`: when the delayed overlay appears. */
function useShownAfter(active: boolean, delayMs: number): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!active) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), delayMs);
    return () => clearTimeout(timer);
  }, [active, delayMs]);
  return active && shown;
}
