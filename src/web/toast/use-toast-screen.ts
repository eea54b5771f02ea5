import { useLayoutEffect } from 'react';
import { useToastLayer } from './use-toast';

/**
 * Tells the toast layer which screen the applicant is on, so errors raised on another one end.
 * A layout effect, so the screen is known before any effect of the new screen shows a toast.
 */
export function useToastScreen(screen: string): void {
  const layer = useToastLayer();
  useLayoutEffect(() => {
    layer.enterScreen(screen);
  }, [layer, screen]);
}
