import { useSyncExternalStore } from 'react';
import { Button } from '../ui/button';
import { cx } from '../ui/cx';
import { LoadingIndicator } from '../ui/loading-indicator';
import textStyles from '../ui/text-variant.module.css';
import { type Autosave, SAVE_STATE_TEXT } from './autosave';
import styles from './form-page.module.css';

/**
 * 'Saved' / 'Saving...' / 'Not saved: retrying': where the signed-in student's answers stand.
 * The page shows it twice, by the title and by the buttons; only the `announced` one is the
 * live status, so a screen reader hears each change once. When saving has given up, both offer
 * Try again until the answers are saved.
 */
export function SaveStatus({ autosave, announced }: { autosave: Autosave; announced: boolean }) {
  const state = useSyncExternalStore(autosave.subscribe, autosave.getState, autosave.getState);
  const content = (
    <>
      {state === 'saving' ? (
        <LoadingIndicator type="circles" size="xs" />
      ) : (
        <span className={styles.saveDot} aria-hidden="true" />
      )}
      {SAVE_STATE_TEXT[state]}
    </>
  );
  // The live region stays the same element whatever the state, so each change is heard.
  return (
    <div className={styles.saveStatusRow}>
      {announced ? (
        <p role="status" className={cx(textStyles.outlined, styles.saveStatus, styles[state])}>
          {content}
        </p>
      ) : (
        <p aria-hidden="true" className={cx(textStyles.outlined, styles.saveStatus, styles[state])}>
          {content}
        </p>
      )}
      {state === 'failed' ? (
        <Button
          type="button"
          variant="secondary"
          className={styles.tryAgain}
          onClick={() => void autosave.retry()}
        >
          Try again
        </Button>
      ) : null}
    </div>
  );
}
