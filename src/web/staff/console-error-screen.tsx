import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { ERROR_SCREEN_TEXT, ERROR_SCREEN_TITLE } from '../../shared/api/errors';
import styles from '../pages/error-screen.module.css';
import { STAFF_HOME_ROUTE } from './staff-session';

/** The console's error boundary; it stands alone because the failure may be the tenant itself. */
export function ConsoleErrorScreen() {
  const error = useRouteError();

  useEffect(() => {
    document.title = ERROR_SCREEN_TITLE;
    console.error(error);
  }, [error]);

  return (
    <main id="main" className={styles.screen}>
      <div className={styles.card}>
        <h1>{ERROR_SCREEN_TITLE}</h1>
        <p>{ERROR_SCREEN_TEXT}</p>
        {/* A full page load, so the loaders start over instead of reusing the failed state. */}
        <a href={STAFF_HOME_ROUTE}>Return to the admissions console</a>
      </div>
    </main>
  );
}
