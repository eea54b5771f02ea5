// First, so component styles come after the base styles and win ties.
import './styles/global.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createFormSession } from './app-state/form-session';
import { FormSessionContext } from './app-state/form-session-context';
import { createSessionEnding, createUnauthorizedHandler } from './app-state/session-end';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';
import { ToastProvider } from './toast/toast-provider';

/**
 * The composition root of the browser app: the query client (server state), the form session
 * (the browser's own state, for as long as the tab is open) and the router, made once here in
 * this order and handed down; nothing else keeps state at module level.
 */
function startApp(container: HTMLElement): void {
  // The handler needs the router and the router needs the client: the handler looks both up late.
  let router: ReturnType<typeof createAppRouter> | undefined;
  const ending = createSessionEnding();
  const queryClient = createQueryClient({
    onUnauthorized: createUnauthorizedHandler(
      () => queryClient,
      (to, options) => router?.navigate(to, options),
      ending,
    ),
  });
  const session = createFormSession(queryClient, ending);
  session.watchProfile();
  router = createAppRouter(queryClient, session);

  createRoot(container).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <FormSessionContext value={session}>
          <ToastProvider>
            <RouterProvider router={router} />
          </ToastProvider>
        </FormSessionContext>
      </QueryClientProvider>
    </StrictMode>,
  );
}

const container = document.getElementById('root');
if (!container) {
  throw new Error('index.html must contain an element with id "root".');
}
startApp(container);
