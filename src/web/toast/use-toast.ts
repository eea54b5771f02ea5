import { useContext, useMemo } from 'react';
import { ToastContext } from './toast-context';

export interface ToastApi {
  success(title: string, description?: string): void;
  error(title: string, description?: string): void;
}

/** Shows toasts; must be used below ToastProvider. */
export function useToast(): ToastApi {
  const show = useContext(ToastContext);
  if (!show) {
    throw new Error('useToast must be used inside <ToastProvider>.');
  }
  return useMemo(
    () => ({
      success: (title, description) => show({ severity: 'success', title, description }),
      error: (title, description) => show({ severity: 'error', title, description }),
    }),
    [show],
  );
}
