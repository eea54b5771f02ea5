// First, so component styles come after the base styles and win ties.
import './styles/global.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { queryClient } from './query-client';
import { createAppRouter } from './router';
import { ToastProvider } from './toast/toast-provider';

const router = createAppRouter(queryClient);

const container = document.getElementById('root');
if (!container) {
  throw new Error('index.html must contain an element with id "root".');
}

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>
  </StrictMode>,
);
