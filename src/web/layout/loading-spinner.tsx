import { MAX_Z_INDEX } from '../../shared/constants';
import { cx } from '../ui/cx';
import { LoadingIndicator } from '../ui/loading-indicator';
import styles from './loading-spinner.module.css';

interface LoadingSpinnerProps {
  label?: string;
  /** Waits this long before appearing, so quick loads do not flash an overlay. */
  delayMs?: number;
}

/** A full-screen overlay above everything else, dialogs and toasts included. */
export function LoadingSpinner({ label = 'Loading...', delayMs = 0 }: LoadingSpinnerProps) {
  return (
    <div
      className={cx(styles.overlay, delayMs > 0 && styles.delayed)}
      style={{ zIndex: MAX_Z_INDEX, animationDelay: delayMs > 0 ? `${delayMs}ms` : undefined }}
      role="status"
    >
      <LoadingIndicator type="spinner" size="m" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
