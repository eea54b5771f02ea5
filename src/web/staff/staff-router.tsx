import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject, redirect } from 'react-router';
import type { Permission } from '../../shared/staff/permissions';
import type { StaffMeResponse } from '../../shared/staff/staff-api';
import { UnauthorizedError } from '../data/http-client';
import { tenantQueryOptions } from '../data/tenant';
import type { RouteHandle } from '../navigation/route-handle';
import { ErrorScreen } from '../ui/error-screen';
import { LoadingSpinner } from '../ui/loading-spinner';
import { ConsoleLayout } from './shell/console-layout';
import { SignedInLayout } from './shell/signed-in-layout';
import { staffCalls, staffKeys } from './shell/staff-calls';
import { SIGNED_IN_ROUTE_ID, STAFF_HOME_ROUTE, STAFF_SIGN_IN_ROUTE } from './shell/staff-session';

function handle(title: string): RouteHandle {
  return { title };
}

/** Nothing renders before the institution's name and colours are known. */
function createRootLoader(queryClient: QueryClient) {
  return async (): Promise<null> => {
    await queryClient.ensureQueryData(tenantQueryOptions);
    return null;
  };
}

/**
 * The signed-in pages need the member. Asked directly rather than through the cache, so a first
 * visit without a session goes to the sign-in page quietly instead of saying a session ended.
 */
export async function loadMember(queryClient: QueryClient): Promise<StaffMeResponse> {
  const cached = queryClient.getQueryData<StaffMeResponse>(staffKeys.me);
  if (cached) return cached;
  try {
    const me = await staffCalls.me();
    queryClient.setQueryData(staffKeys.me, me);
    return me;
  } catch (error) {
    if (error instanceof UnauthorizedError) throw redirect(STAFF_SIGN_IN_ROUTE);
    throw error;
  }
}

function createPermissionLoader(queryClient: QueryClient, permission: Permission) {
  return async (): Promise<null> => {
    const me = await loadMember(queryClient);
    if (!me.permissions.includes(permission)) throw redirect(STAFF_HOME_ROUTE);
    return null;
  };
}

/** Unknown pages under /staff go to the console's home, which sends strangers to sign in. */
function redirectHome(): never {
  throw redirect(STAFF_HOME_ROUTE);
}

const pages = {
  signIn: () => import('./sign-in/sign-in-page'),
  code: () => import('./sign-in/code-page'),
  invitation: () => import('./sign-in/invitation-page'),
  enrol: () => import('./sign-in/enrol-page'),
  home: () => import('./list/applications-page'),
  team: () => import('./team/team-page'),
  audit: () => import('./audit/audit-page'),
  equivalencies: () => import('./equivalencies/equivalencies-page'),
  integrations: () => import('./integrations/integrations-page'),
  webhooks: () => import('./webhooks/webhooks-page'),
  feeds: () => import('./feeds/feeds-page'),
  reading: () => import('./reading/reading-page'),
  queue: () => import('./review/queue-page'),
};

export function createStaffRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      id: 'staff-root',
      path: STAFF_HOME_ROUTE,
      loader: createRootLoader(queryClient),
      Component: ConsoleLayout,
      HydrateFallback: LoadingSpinner,
      errorElement: (
        <ErrorScreen home={STAFF_HOME_ROUTE} homeLabel="Return to the admissions console" />
      ),
      children: [
        { path: 'sign-in', handle: handle('Staff Sign In'), lazy: pages.signIn },
        { path: 'sign-in/code', handle: handle('Enter Your Code'), lazy: pages.code },
        { path: 'invitation', handle: handle('Accept Your Invitation'), lazy: pages.invitation },
        { path: 'enrol', handle: handle('Set Up Your Authenticator'), lazy: pages.enrol },
        {
          id: SIGNED_IN_ROUTE_ID,
          loader: async () => {
            await loadMember(queryClient);
            return null;
          },
          Component: SignedInLayout,
          children: [
            {
              index: true,
              handle: {
                ...handle('Applications'),
                skipTo: { id: 'results-table', label: 'Skip to results' },
              },
              lazy: pages.home,
            },
            {
              path: 'applications/:id',
              handle: handle('Application'),
              lazy: () => import('./application/application-page'),
            },
            {
              path: 'applications/:applicationId/credit',
              handle: handle('Transfer credit'),
              loader: createPermissionLoader(queryClient, 'applications.read'),
              lazy: () => import('./credit/credit-page'),
            },
            {
              path: 'team',
              handle: handle('Staff'),
              loader: createPermissionLoader(queryClient, 'staff.manage'),
              lazy: pages.team,
            },
            {
              path: 'audit',
              handle: handle('Audit Log'),
              loader: createPermissionLoader(queryClient, 'audit.read'),
              lazy: pages.audit,
            },
            {
              path: 'equivalencies',
              handle: handle('Equivalency Tables'),
              loader: createPermissionLoader(queryClient, 'credit.tables'),
              lazy: pages.equivalencies,
            },
            {
              path: 'integrations',
              handle: handle('API Clients'),
              loader: createPermissionLoader(queryClient, 'integrations.manage'),
              lazy: pages.integrations,
            },
            {
              path: 'webhooks',
              handle: handle('Webhooks'),
              loader: createPermissionLoader(queryClient, 'integrations.manage'),
              lazy: pages.webhooks,
            },
            {
              path: 'queue',
              handle: handle('My queue'),
              loader: createPermissionLoader(queryClient, 'reviews.read'),
              lazy: pages.queue,
            },
            {
              path: 'feeds',
              handle: handle('Feeds'),
              loader: createPermissionLoader(queryClient, 'integrations.manage'),
              lazy: pages.feeds,
            },
            {
              path: 'reading',
              handle: handle('Reading'),
              loader: createPermissionLoader(queryClient, 'reviews.assign'),
              lazy: pages.reading,
            },
          ],
        },
        { path: '*', loader: redirectHome, element: null },
      ],
    },
  ];
}

export function createStaffRouter(queryClient: QueryClient) {
  return createBrowserRouter(createStaffRoutes(queryClient));
}
