import { Toast } from 'radix-ui';
import { type RefObject, useEffect, useRef } from 'react';
import {
  ERROR_TOAST_DURATION_MS,
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_SWIPE_THRESHOLD,
} from '../../shared/constants';
import { CloseIcon } from '../ui/close-icon';
import { cx } from '../ui/cx';
import styles from './toast.module.css';
import type { QueuedToast } from './toast-queue';

/** The custom property global.css reads as the page's scroll padding while toasts show. */
const TOAST_INSET_PROPERTY = '--toast-inset-top';

/** The toasts on screen, drawn with Radix Toast; the queue and its rules live in ToastProvider. */
export default function ToastView({
  toasts,
  onClose,
}: {
  toasts: readonly QueuedToast[];
  onClose: (id: number) => void;
}) {
  const viewport = useRef<HTMLOListElement>(null);
  useScrollClearOfToasts(
    viewport,
    toasts.some((toast) => toast.open),
  );
  return (
    <Toast.Provider duration={TOAST_DURATION_MS} swipeThreshold={TOAST_SWIPE_THRESHOLD}>
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          open={toast.open}
          onOpenChange={(open) => {
            if (!open) onClose(toast.id);
          }}
          // Errors stay long enough to be read and acted on; screen readers hear them at once.
          duration={toast.severity === 'error' ? ERROR_TOAST_DURATION_MS : undefined}
          type={toast.severity === 'error' ? 'foreground' : 'background'}
          className={cx(styles.toast, toast.severity === 'error' ? styles.error : styles.success)}
        >
          <span className={styles.icon} aria-hidden="true">
            {toast.severity === 'error' ? '!' : '✓'}
          </span>
          <div className={styles.text}>
            <Toast.Title className={styles.title}>{toast.title}</Toast.Title>
            {toast.description ? (
              <Toast.Description className={styles.description}>
                {toast.description}
              </Toast.Description>
            ) : null}
          </div>
          <Toast.Close className={styles.close} aria-label="Close">
            <CloseIcon />
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport ref={viewport} className={styles.viewport} hotkey={[TOAST_HOTKEY]} />
    </Toast.Provider>
  );
}

/**
 * While toasts show at the top of the screen, the page's scroll padding starts below them, so a
 * field the applicant moves to (Tab, a summary link, a phone scrolling the focused input into
 * view) is brought into view under the toasts rather than behind them.
 */
function useScrollClearOfToasts(viewport: RefObject<HTMLElement | null>, showing: boolean): void {
  useEffect(() => {
    const element = viewport.current;
    const root = document.documentElement;
    if (!showing || !element) {
      root.style.removeProperty(TOAST_INSET_PROPERTY);
      return;
    }
    const measure = () => {
      const bottom = Math.ceil(element.getBoundingClientRect().bottom);
      root.style.setProperty(TOAST_INSET_PROPERTY, `${bottom}px`);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty(TOAST_INSET_PROPERTY);
    };
  }, [viewport, showing]);
}
