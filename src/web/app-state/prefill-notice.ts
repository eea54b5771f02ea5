import { useEffect } from 'react';
import { createStore, type Store, useStore } from '../state/create-store';
import type { ToastMessage } from '../toast/toast-types';
import { useToast } from '../toast/use-toast';

/**
 * What loading a prefilled answer set came to. The loader that loads it redirects at once (to
 * take the token out of the address), so the outcome waits here for the shell to show it.
 */
export type PrefillNotice = Store<ToastMessage | null>;

export function createPrefillNotice(): PrefillNotice {
  return createStore<ToastMessage | null>(null);
}

/** The outcome waiting to be shown, which is then no longer waiting. */
export function takePrefillNotice(notice: PrefillNotice): ToastMessage | null {
  const pending = notice.get();
  notice.set(null);
  return pending;
}

/** Shows the outcome of a prefilled answers link once, as a toast. */
export function usePrefillNotice(notices: PrefillNotice): void {
  const toast = useToast();
  const notice = useStore(notices);
  useEffect(() => {
    if (!notice || takePrefillNotice(notices) !== notice) return;
    if (notice.severity === 'error') toast.error(notice.title, notice.description);
    else toast.success(notice.title, notice.description);
  }, [notice, notices, toast]);
}
