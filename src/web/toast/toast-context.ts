import { createContext } from 'react';
import type { ToastMessage } from './toast-types';

/** What the toast provider offers the app; `useToast` and `useToastScreen` are its faces. */
export interface ToastLayer {
  show(toast: ToastMessage): void;
  resolve(title: string): void;
  enterScreen(screen: string): void;
}

export const ToastContext = createContext<ToastLayer | null>(null);
