import { type Ref, useId } from 'react';
import { Link } from 'react-router';
import { ERROR_SUMMARY_TITLE } from '../../shared/api/application-messages';
import styles from './error-summary.module.css';
import type { Summary } from './summary';

/** Moves to a field the summary names: scrolled into view, its first control focused. */
export function focusField(key: string): boolean {
  const wrapper = document.getElementById(key);
  if (!wrapper) return false;
  wrapper.scrollIntoView({ block: 'start' });
  const control = wrapper.querySelector<HTMLElement>(
    'input:checked, input, select, textarea, button',
  );
  control?.focus({ preventScroll: true });
  return true;
}

/**
 * Spec 001 section 1: one summary for the whole application while validating. Each error links
 * to '/{page}#{key}'; errors of keys that belong to no page are plain text. It takes the focus
 * after a failed submit, so it is read out at once.
 */
export function ErrorSummary({
  summary,
  currentRoute,
  ref,
}: {
  summary: Summary;
  currentRoute: string;
  ref?: Ref<HTMLElement>;
}) {
  const titleId = useId();
  return (
    <section ref={ref} tabIndex={-1} aria-labelledby={titleId} className={styles.summary}>
      <h2 id={titleId} className={styles.title}>
        {ERROR_SUMMARY_TITLE}
      </h2>
      <p className={styles.intro}>
        {summary.count === 1 ? 'One answer needs' : `${summary.count} answers need`} your attention.
        Fixes must be made on each page listed below; then submit your application again from Final
        Steps.
      </p>
      {summary.pages.map((page) => (
        <div key={page.route} className={styles.page}>
          <h3 className={styles.pageTitle}>{page.title}</h3>
          <ul className={styles.list}>
            {page.links.map((link) => (
              <li key={`${link.key}:${link.message}`}>
                <Link
                  to={link.href}
                  onClick={() => {
                    if (page.route === currentRoute) focusField(link.key);
                  }}
                >
                  {link.message}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {summary.unplaced.length > 0 ? (
        <div className={styles.page}>
          <h3 className={styles.pageTitle}>Not on a page of the application</h3>
          <p className={styles.intro}>
            These problems do not correlate to a page, so there is no question to go to. If they
            stay after you submit again, please contact us through Help.
          </p>
          <ul className={styles.list}>
            {summary.unplaced.map((error) => (
              <li key={`${error.key}:${error.message}`}>{error.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
