import { cx } from './cx';
import styles from './loading-indicator.module.css';

/** Spec 000 section 3: the loading types and sizes. */
export type LoadingType = 'spinner' | 'circles';
export type LoadingSize = 'xs' | 's' | 'm';

/** A decorative sign of waiting; the status text beside it says what is happening. */
export function LoadingIndicator({ type, size }: { type: LoadingType; size: LoadingSize }) {
  if (type === 'spinner') {
    return <span className={cx(styles.spinner, styles[size])} aria-hidden="true" />;
  }
  return (
    <span className={cx(styles.circles, styles[size])} aria-hidden="true">
      <span />
      <span />
      <span />
    </span>
  );
}
