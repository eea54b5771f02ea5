// First, so component styles come after the base styles and win ties.
import './styles/global.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { watchProfile } from './form/form-session';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';
import { createUnauthorizedHandler } from './session/session-end';
import { ToastProvider } from './toast/toast-provider';

// The handler needs the router and the router needs the client: the handler looks both up late.
let router: ReturnType<typeof createAppRouter> | undefined;
const queryClient = createQueryClient({
  onUnauthorized: createUnauthorizedHandler(
    () => queryClient,
    (to, options) => router?.navigate(to, options),
  ),
});
watchProfile(queryClient);
router = createAppRouter(queryClient);

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
