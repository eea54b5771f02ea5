import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { ERROR_SCREEN_TEXT, ERROR_SCREEN_TITLE } from '../../shared/api/errors';
import styles from './error-screen.module.css';

/**
 * An app's root error boundary; it stands alone because the failure may be the tenant config
 * itself. The link leads back to the app's start page.
 */
export function ErrorScreen({ home, homeLabel }: { home: string; homeLabel: string }) {
  const error = useRouteError();

  useEffect(() => {
    document.title = ERROR_SCREEN_TITLE;
    // Kept for whoever opens the browser's console; the server logs its own side of the failure.
    console.error(error);
  }, [error]);

  return (
    <main id="main" className={styles.screen}>
      <div className={styles.card}>
        <h1>{ERROR_SCREEN_TITLE}</h1>
        <p>{ERROR_SCREEN_TEXT}</p>
        {/* A full page load, so the root loader starts over instead of reusing the failed state. */}
        <a href={home}>{homeLabel}</a>
      </div>
    </main>
  );
}
