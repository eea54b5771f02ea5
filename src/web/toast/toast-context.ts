import { createContext } from 'react';
import type { ToastMessage } from './toast-types';

export const ToastContext = createContext<((toast: ToastMessage) => void) | null>(null);
