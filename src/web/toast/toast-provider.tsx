import { lazy, type ReactNode, Suspense, useEffect, useMemo, useRef, useState } from 'react';
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

const ToastView = lazy(() => import('./toast-view'));

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<QueuedToast[]>([]);
  const nextId = useRef(0);
  const screen = useRef(window.location.pathname);

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

  return (
    <ToastContext value={layer}>
      {children}
      {/* The toasts' view (Radix Toast) loads with the first toast: most screens never show one. */}
      {toasts.length > 0 ? (
        <Suspense fallback={null}>
          <ToastView
            toasts={toasts}
            onClose={(id) => setToasts((current) => closeToast(current, id))}
          />
        </Suspense>
      ) : null}
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
