/** Client routes of spec 000 section 2 and spec 001 section 2. */
export const FORM_ROUTES = ['/about', '/education', '/final-steps'] as const;
export type FormRoute = (typeof FORM_ROUTES)[number];

export const DEFAULT_ROUTE: FormRoute = '/about';
export const COMPLETION_ROUTE = '/completion';

export const AUTH_ROUTES = ['/login', '/signup', '/confirm', '/forgot', '/reset'] as const;
export type AuthRoute = (typeof AUTH_ROUTES)[number];

export const FORM_STEPS: ReadonlyArray<{ route: FormRoute; title: string }> = [
  { route: '/about', title: 'About You' },
  { route: '/education', title: 'Your Academics' },
  { route: '/final-steps', title: 'Final Steps' },
];

export function isFormRoute(path: string): path is FormRoute {
  return (FORM_ROUTES as readonly string[]).includes(path);
}

export function isAuthRoute(path: string): path is AuthRoute {
  return (AUTH_ROUTES as readonly string[]).includes(path);
}

/** The staff console's JSON calls live under this path (spec: `/staff/api/*`). */
export const STAFF_API = '/staff/api';
