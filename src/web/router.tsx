import type { QueryClient } from '@tanstack/react-query';
import {
  createBrowserRouter,
  type LoaderFunctionArgs,
  type RouteObject,
  redirect,
} from 'react-router';
import { COMPLETION_ROUTE, DEFAULT_ROUTE, FORM_STEPS } from '../shared/routes';
import type { FormSession } from './app-state/form-session';
import { LOGIN_ROUTE, resetToAnonymous } from './app-state/session-end';
import { UnauthorizedError } from './data/http-client';
import { profileQueryOptions } from './data/profile';
import { tenantQueryOptions } from './data/tenant';
import { createAuthLoader, createCompletionLoader, createFormLoader } from './form/form-loaders';
import { RootLayout } from './layout/root-layout';
import type { RouteHandle } from './navigation/route-handle';
import { createFormRouteLoader } from './read-only/form-route-loader';
import { ErrorScreen } from './ui/error-screen';
import { LoadingSpinner } from './ui/loading-spinner';

export const ROOT_ROUTE_ID = 'root';

function handle(title: string): RouteHandle {
  return { title };
}

/**
 * Spec 000 section 2: nothing renders before the tenant and the profile are known. A 401 means
 * the session is invalid: the query client's handler has already cleared the cache and started
 * the navigation to /login with the message, which aborted this load. The redirect here is the
 * fallback for a client without that handler.
 */
function createRootLoader(queryClient: QueryClient) {
  return async function rootLoader({ request }: LoaderFunctionArgs): Promise<null> {
    try {
      await Promise.all([
        queryClient.ensureQueryData(tenantQueryOptions),
        queryClient.ensureQueryData(profileQueryOptions),
      ]);
    } catch (error) {
      // Superseded: touching the cache now would cancel the loads of the navigation that won.
      if (request.signal.aborted) {
        throw error;
      }
      if (error instanceof UnauthorizedError) {
        // Anonymous from here on, so the loader on /login does not ask (and fail) again.
        resetToAnonymous(queryClient);
        throw redirect(LOGIN_ROUTE);
      }
      throw error;
    }
    return null;
  };
}

/** Unknown paths go to the default form route, keeping the query string (token, service_token). */
function redirectToDefaultRoute({ request }: LoaderFunctionArgs): never {
  const url = new URL(request.url);
  throw redirect(`${DEFAULT_ROUTE}${url.search}`);
}

const loadAuthPage = {
  login: () => import('./auth/login-page'),
  signup: () => import('./auth/signup-page'),
  confirm: () => import('./auth/confirm-page'),
  forgot: () => import('./auth/forgot-page'),
  reset: () => import('./auth/reset-page'),
};

const loadCompletionPage = () => import('./pages/completion-page');

export function createRoutes(queryClient: QueryClient, session: FormSession): RouteObject[] {
  const formLoader = createFormRouteLoader(queryClient, session, createFormLoader(session));
  const authLoader = createAuthLoader(session);
  const completionLoader = createCompletionLoader(session);
  // The form pages' code brings the model; the session's answer store follows it from then on.
  const loadFormPage = async () => {
    const { Component, answerModel } = await import('./form/form-page');
    session.answers.setModel(answerModel);
    return { Component };
  };
  return [
    {
      id: ROOT_ROUTE_ID,
      path: '/',
      loader: createRootLoader(queryClient),
      Component: RootLayout,
      HydrateFallback: LoadingSpinner,
      errorElement: <ErrorScreen home={DEFAULT_ROUTE} homeLabel="Return to your application" />,
      children: [
        {
          path: 'login',
          handle: handle('Sign In'),
          loader: authLoader,
          lazy: loadAuthPage.login,
        },
        {
          path: 'signup',
          handle: handle('Create Account'),
          loader: authLoader,
          lazy: loadAuthPage.signup,
        },
        {
          path: 'confirm',
          handle: handle('Confirm Your Account'),
          loader: authLoader,
          lazy: loadAuthPage.confirm,
        },
        {
          path: 'forgot',
          handle: handle('Forgot Password'),
          loader: authLoader,
          lazy: loadAuthPage.forgot,
        },
        {
          path: 'reset',
          handle: handle('Reset Password'),
          loader: authLoader,
          lazy: loadAuthPage.reset,
        },
        {
          path: COMPLETION_ROUTE.slice(1),
          handle: handle('Application Submitted'),
          loader: async () => {
            await completionLoader();
            const { loadDecision } = await loadCompletionPage();
            await loadDecision(queryClient);
            return null;
          },
          lazy: loadCompletionPage,
        },
        ...FORM_STEPS.map((step) => ({
          path: step.route.slice(1),
          handle: handle(step.title),
          loader: formLoader,
          lazy: loadFormPage,
        })),
        // A splat does not match the root itself, so "/" needs its own redirect. The null element
        // tells React Router these routes render nothing on purpose: they only redirect.
        { index: true, loader: redirectToDefaultRoute, element: null },
        { path: '*', loader: redirectToDefaultRoute, element: null },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient, session: FormSession) {
  return createBrowserRouter(createRoutes(queryClient, session));
}
