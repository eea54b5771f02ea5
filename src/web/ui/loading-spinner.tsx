import { MAX_Z_INDEX } from '../../shared/constants';
import { cx } from './cx';
import { LoadingIndicator } from './loading-indicator';
import styles from './loading-spinner.module.css';

interface LoadingSpinnerProps {
  label?: string;
  /** Fades in: for an overlay that comes over a page already shown, not the first paint. */
  fadeIn?: boolean;
}

/** A full-screen overlay above everything else, dialogs and toasts included. */
export function LoadingSpinner({ label = 'Loading...', fadeIn = false }: LoadingSpinnerProps) {
  return (
    <div
      className={cx(styles.overlay, fadeIn && styles.fadeIn)}
      style={{ zIndex: MAX_Z_INDEX }}
      role="status"
    >
      <LoadingIndicator type="spinner" size="m" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
