import { Toast } from 'radix-ui';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import {
  ERROR_TOAST_DURATION_MS,
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_SWIPE_THRESHOLD,
} from '../../shared/constants';
import { CloseIcon } from '../ui/close-icon';
import { cx } from '../ui/cx';
import styles from './toast.module.css';
import { ToastContext } from './toast-context';
import type { ToastMessage } from './toast-types';

interface QueuedToast extends ToastMessage {
  id: number;
  open: boolean;
}

/** How long a closed toast stays mounted so its exit animation can finish. */
const EXIT_ANIMATION_MS = 200;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<QueuedToast[]>([]);
  const nextId = useRef(0);

  const show = useCallback((toast: ToastMessage) => {
    nextId.current += 1;
    const id = nextId.current;
    setToasts((current) => [...current, { ...toast, id, open: true }]);
  }, []);

  const close = useCallback((id: number) => {
    setToasts((current) => current.map((t) => (t.id === id ? { ...t, open: false } : t)));
    window.setTimeout(() => {
      setToasts((current) => current.filter((t) => t.id !== id));
    }, EXIT_ANIMATION_MS);
  }, []);

  return (
    <ToastContext value={show}>
      <Toast.Provider duration={TOAST_DURATION_MS} swipeThreshold={TOAST_SWIPE_THRESHOLD}>
        {children}
        {toasts.map((toast) => (
          <Toast.Root
            key={toast.id}
            open={toast.open}
            onOpenChange={(open) => {
              if (!open) {
                close(toast.id);
              }
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
        <Toast.Viewport className={styles.viewport} hotkey={[TOAST_HOTKEY]} />
      </Toast.Provider>
    </ToastContext>
  );
}
