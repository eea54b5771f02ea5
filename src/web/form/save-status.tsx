import { useSyncExternalStore } from 'react';
import { cx } from '../ui/cx';
import { type Autosave, SAVE_STATE_TEXT } from './autosave';
import styles from './form-page.module.css';

/**
 * 'Saved' / 'Saving...' / 'Not saved: retrying': where the signed-in student's answers stand.
 * The page shows it twice, by the title and by the buttons; only the `announced` one is the
 * live status, so a screen reader hears each change once.
 */
export function SaveStatus({ autosave, announced }: { autosave: Autosave; announced: boolean }) {
  const state = useSyncExternalStore(autosave.subscribe, autosave.getState, autosave.getState);
  const content = (
    <>
      <span className={styles.saveDot} aria-hidden="true" />
      {SAVE_STATE_TEXT[state]}
    </>
  );
  return announced ? (
    <p role="status" className={cx(styles.saveStatus, styles[state])}>
      {content}
    </p>
  ) : (
    <p aria-hidden="true" className={cx(styles.saveStatus, styles[state])}>
      {content}
    </p>
  );
}
