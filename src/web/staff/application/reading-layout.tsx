import { type ReactNode, useCallback, useId, useSyncExternalStore } from 'react';
import styles from './application-page.module.css';

/** From this width the application and its documents sit side by side (as in the style sheet). */
export const TWO_PANES_MEDIA = '(min-width: 75rem)';

/** Whether a media query holds now, kept up to date as the window changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (changed: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/**
 * A reading page in two panes on a wide screen: what is read on the left, in the page's flow,
 * and on the right a column that stays in view while the left scrolls, holding an optional review
 * panel above the documents. Narrower, the right column follows the left one.
 */
export function ReadingLayout({
  children,
  review,
  documents,
}: {
  children: ReactNode;
  /** A review form, above the documents; nothing by default. */
  review?: ReactNode;
  /** The document pane; the page leaves it out where the screen is too narrow for it. */
  documents?: ReactNode;
}) {
  const side = review || documents;
  const reviewId = useId();
  // In one column the review form comes after the whole application: a reader on a tablet or a
  // phone goes to it in one step instead of scrolling past every answer.
  const goToReview = () => {
    const panel = document.getElementById(reviewId);
    panel?.focus();
    panel?.scrollIntoView({ block: 'start' });
  };
  return (
    <div className={side ? styles.reading : undefined}>
      {review ? (
        <button type="button" className={styles.toReview} onClick={goToReview}>
          Go to your read
        </button>
      ) : null}
      <div className={styles.readingMain}>{children}</div>
      {side ? (
        <div className={styles.readingSide}>
          {review ? (
            <div id={reviewId} tabIndex={-1} className={styles.review}>
              {review}
            </div>
          ) : null}
          {documents}
        </div>
      ) : null}
    </div>
  );
}
