import { useEffect, useSyncExternalStore } from 'react';
import type { ToastMessage } from '../toast/toast-types';
import { useToast } from '../toast/use-toast';

/**
 * What loading a prefilled answer set came to. The loader that loads it redirects at once (to
 * take the token out of the address), so the outcome waits here for the shell to show it.
 */
let pending: ToastMessage | null = null;
const listeners = new Set<() => void>();

export function setPrefillNotice(notice: ToastMessage): void {
  pending = notice;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The outcome waiting to be shown, which is then no longer waiting. */
export function takePrefillNotice(): ToastMessage | null {
  const notice = pending;
  pending = null;
  return notice;
}

/** Shows the outcome of a prefilled answers link once, as a toast. */
export function usePrefillNotice(): void {
  const toast = useToast();
  const notice = useSyncExternalStore(
    subscribe,
    () => pending,
    () => null,
  );
  useEffect(() => {
    if (!notice || takePrefillNotice() !== notice) return;
    if (notice.severity === 'error') toast.error(notice.title, notice.description);
    else toast.success(notice.title, notice.description);
  }, [notice, toast]);
}
