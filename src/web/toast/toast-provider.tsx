import { Toast } from 'radix-ui';
import { type ReactNode, type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import {
  ERROR_TOAST_DURATION_MS,
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_SWIPE_THRESHOLD,
} from '../../shared/constants';
import { CloseIcon } from '../ui/close-icon';
import { cx } from '../ui/cx';
import styles from './toast.module.css';
import { ToastContext, type ToastLayer } from './toast-context';
import {
  addToast,
  closeToast,
  dropClosed,
  enterScreen,
  type QueuedToast,
  resolveError,
} from './toast-queue';
import {
  UNCAUGHT_ERROR_TITLE,
  uncaughtErrorEventMessage,
  uncaughtErrorMessage,
} from './uncaught-errors';

/** How long a closed toast stays mounted so its exit animation can finish. */
const EXIT_ANIMATION_MS = 200;

/** The custom property global.css reads as the page's scroll padding while toasts show. */
const TOAST_INSET_PROPERTY = '--toast-inset-top';

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<QueuedToast[]>([]);
  const nextId = useRef(0);
  const screen = useRef(window.location.pathname);
  const viewport = useRef<HTMLOListElement>(null);

  const layer = useMemo<ToastLayer>(
    () => ({
      show(toast) {
        nextId.current += 1;
        const id = nextId.current;
        setToasts((current) => addToast(current, { ...toast, id, screen: screen.current }));
      },
      resolve(title) {
        setToasts((current) => resolveError(current, title));
      },
      enterScreen(next) {
        screen.current = next;
        setToasts((current) => enterScreen(current, next));
      },
    }),
    [],
  );

  useEffect(() => {
    if (toasts.every((toast) => toast.open)) return;
    const timer = window.setTimeout(() => setToasts(dropClosed), EXIT_ANIMATION_MS);
    return () => window.clearTimeout(timer);
  }, [toasts]);

  useUncaughtErrorToasts(layer);
  const showing = toasts.some((toast) => toast.open);
  useScrollClearOfToasts(viewport, showing);

  return (
    <ToastContext value={layer}>
      <Toast.Provider duration={TOAST_DURATION_MS} swipeThreshold={TOAST_SWIPE_THRESHOLD}>
        {children}
        {toasts.map((toast) => (
          <Toast.Root
            key={toast.id}
            open={toast.open}
            onOpenChange={(open) => {
              if (!open) setToasts((current) => closeToast(current, toast.id));
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
    </ToastContext>
  );
}

/** Spec 000 section 8: an error nothing else caught is shown as a toast titled 'Error'. */
function useUncaughtErrorToasts(layer: ToastLayer): void {
  useEffect(() => {
    const show = (message: string | null) => {
      if (message !== null) {
        layer.show({ severity: 'error', title: UNCAUGHT_ERROR_TITLE, description: message });
      }
    };
    const onError = (event: ErrorEvent) => show(uncaughtErrorEventMessage(event));
    const onRejection = (event: PromiseRejectionEvent) => show(uncaughtErrorMessage(event.reason));
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
    return () => {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    };
  }, [layer]);
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
