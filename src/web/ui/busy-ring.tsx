import styles from './busy-ring.module.css';
import { cx } from './cx';

/** A decorative busy ring; the status text beside it says what is happening. */
export function BusyRing({ size }: { size: 'small' | 'large' }) {
  return <span className={cx(styles.ring, styles[size])} aria-hidden="true" />;
}
