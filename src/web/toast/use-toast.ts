import { useContext, useMemo } from 'react';
import { ToastContext, type ToastLayer } from './toast-context';

export interface ToastApi {
  success(title: string, description?: string): void;
  /**
   * An error toast. Its title names the action that failed (spec 000 section 8: 'Confirm Card
   * Error'), and it lasts until that action succeeds, the applicant leaves the screen, or the
   * error duration runs out; a second failure of the action replaces it.
   */
  error(title: string, description?: string): void;
  /** The action that `title` names has succeeded: its error toast ends. */
  resolve(title: string): void;
}

export function useToastLayer(): ToastLayer {
  const layer = useContext(ToastContext);
  if (!layer) {
    throw new Error('useToast must be used inside <ToastProvider>.');
  }
  return layer;
}

/** Shows toasts; must be used below ToastProvider. */
export function useToast(): ToastApi {
  const layer = useToastLayer();
  return useMemo(
    () => ({
      success: (title, description) => layer.show({ severity: 'success', title, description }),
      error: (title, description) => layer.show({ severity: 'error', title, description }),
      resolve: (title) => layer.resolve(title),
    }),
    [layer],
  );
}
