import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { ERROR_SCREEN_TEXT, ERROR_SCREEN_TITLE } from '../../shared/api/errors';
import { DEFAULT_ROUTE } from '../../shared/routes';
import styles from './error-screen.module.css';

/** The root error boundary; it stands alone because the failure may be the tenant config itself. */
export function ErrorScreen() {
  const error = useRouteError();

  useEffect(() => {
    document.title = ERROR_SCREEN_TITLE;
    // Kept for whoever opens the console; the server logs its own side of the failure.
    console.error(error);
  }, [error]);

  return (
    <main id="main" className={styles.screen}>
      <div className={styles.card}>
        <h1>{ERROR_SCREEN_TITLE}</h1>
        <p>{ERROR_SCREEN_TEXT}</p>
        {/* A full page load, so the root loader starts over instead of reusing the failed state. */}
        <a href={DEFAULT_ROUTE}>Return to your application</a>
      </div>
    </main>
  );
}
