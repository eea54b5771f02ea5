import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isToastMessage } from './toast-types';
import { useToast } from './use-toast';

/**
 * Shows a toast carried in `location.state.toast` (spec 000 section 2) once, then removes it from
 * the history entry so going back or reloading does not show it again.
 */
export function useNavigationToast(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const toast = useToast();
  // Strict mode runs effects twice before the replace lands; the key stops a second toast.
  const shownForKey = useRef<string | null>(null);

  useEffect(() => {
    const state: unknown = location.state;
    if (typeof state !== 'object' || state === null || !('toast' in state)) {
      return;
    }
    const { toast: message, ...rest } = state as { toast: unknown } & Record<string, unknown>;
    if (shownForKey.current !== location.key && isToastMessage(message)) {
      shownForKey.current = location.key;
      if (message.severity === 'error') {
        toast.error(message.title, message.description);
      } else {
        toast.success(message.title, message.description);
      }
    }
    navigate(location, { replace: true, state: { ...rest } });
  }, [location, navigate, toast]);
}
