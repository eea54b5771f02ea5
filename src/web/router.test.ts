import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProfileResponse } from '../shared/api/profile';
import { createFormSession } from './app-state/form-session';
import { queryKeys } from './data/query-keys';
import { createQueryClient } from './query-client';
import { createRoutes, ROOT_ROUTE_ID } from './router';

const tenant = { partner_name: 'Northfield State University' };

function stubServer(profile: { status: number; body: unknown }, tenantStatus = 200) {
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input) => {
      const path = String(input);
      if (path === '/public/tenant') {
        return Response.json(tenantStatus === 200 ? tenant : { message: 'down' }, {
          status: tenantStatus,
        });
      }
      if (path === '/api/profile') {
        return Response.json(profile.body, { status: profile.status });
      }
      return Response.json({ message: 'Not found' }, { status: 404 });
    }),
  );
}

function signedIn() {
  vi.stubGlobal('document', { cookie: 'tp_signed_in=1' });
}

async function start(path: string, onUnauthorized?: () => void) {
  const queryClient = createQueryClient(onUnauthorized ? { onUnauthorized } : {});
  const router = createMemoryRouter(createRoutes(queryClient, createFormSession(queryClient)), {
    initialEntries: [path],
  });
  await new Promise<void>((resolve) => {
    const settled = () => router.state.initialized && router.state.navigation.state === 'idle';
    if (settled()) {
      resolve();
      return;
    }
    const unsubscribe = router.subscribe(() => {
      if (settled()) {
        unsubscribe();
        resolve();
      }
    });
  });
  return { router, queryClient };
}

const anonymous = { status: 401, body: { message: 'Not signed in.' } };

let logins = 0;

/** A profile as GET /api/profile returns it; each one is a new log-in. */
function studentProfile(overrides: Partial<ProfileResponse> = {}): ProfileResponse {
  logins += 1;
  return {
    answer: {},
    document_answer: {},
    username: 'student@example.com',
    last_page: null,
    successful_login: Array.from({ length: logins }, () => ({ logged_in_at: '2026-01-01' })),
    web_status: [],
    ...overrides,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('routes', () => {
  it('redirects an unknown path to /about, keeping the query string', async () => {
    stubServer(anonymous);
    const { router } = await start('/no-such-page?ref=mail&x=1');
    expect(router.state.location.pathname).toBe('/about');
    expect(router.state.location.search).toBe('?ref=mail&x=1');
    router.dispose();
  });

  it('redirects the bare origin to /about, keeping the query string', async () => {
    stubServer(anonymous);
    const { router } = await start('/?service_token=abc');
    expect(router.state.location.pathname).toBe('/about');
    expect(router.state.location.search).toBe('?service_token=abc');
    router.dispose();
  });

  it.each(['/login', '/signup', '/confirm', '/forgot', '/reset', '/final-steps'])(
    'serves %s without redirecting',
    async (path) => {
      stubServer(anonymous);
      const { router } = await start(path);
      expect(router.state.location.pathname).toBe(path);
      expect(router.state.errors).toBeNull();
      router.dispose();
    },
  );

  it('treats a visitor without the logged-in marker as anonymous, without calling the server', async () => {
    stubServer({ status: 200, body: { username: 'student@example.com' } });
    const { router, queryClient } = await start('/about');
    expect(router.state.errors).toBeNull();
    expect(queryClient.getQueryData(queryKeys.profile)).toBeNull();
    expect(queryClient.getQueryData(queryKeys.tenant)).toEqual(tenant);
    const paths = vi.mocked(fetch).mock.calls.map(([input]) => String(input));
    expect(paths).not.toContain('/api/profile');
    router.dispose();
  });

  it('sends a visitor whose application is not submitted from /completion to /about', async () => {
    stubServer(anonymous);
    const { router } = await start('/completion');
    expect(router.state.location.pathname).toBe('/about');
    router.dispose();
  });

  it('sends a submitted application to /completion, and keeps it there', async () => {
    signedIn();
    stubServer({
      status: 200,
      body: studentProfile({
        web_status: [
          { web_status: 'started' },
          { web_status: 'validating' },
          { web_status: 'submitted' },
        ],
      }),
    });
    const first = await start('/education');
    expect(first.router.state.location.pathname).toBe('/completion');
    first.router.dispose();
    const second = await start('/completion');
    expect(second.router.state.location.pathname).toBe('/completion');
    second.router.dispose();
  });

  it.each(['/login', '/signup', '/confirm', '/forgot', '/reset', '/no-such-page'])(
    'sends a signed-in student whose application is submitted from %s to /completion',
    async (path) => {
      signedIn();
      stubServer({
        status: 200,
        body: studentProfile({
          web_status: [
            { web_status: 'started' },
            { web_status: 'validating' },
            { web_status: 'submitted' },
          ],
        }),
      });
      const { router } = await start(path);
      expect(router.state.location.pathname).toBe('/completion');
      router.dispose();
    },
  );

  it('serves the account screens to a signed-in student who has not submitted', async () => {
    signedIn();
    stubServer({ status: 200, body: studentProfile({ web_status: [{ web_status: 'started' }] }) });
    const { router } = await start('/login');
    expect(router.state.location.pathname).toBe('/login');
    router.dispose();
  });

  it('restores the saved last page on the first form page of a log-in', async () => {
    signedIn();
    stubServer({
      status: 200,
      body: studentProfile({ last_page: '/final-steps', username: 'last@example.com' }),
    });
    const { router } = await start('/about?x=1');
    expect(router.state.location.pathname).toBe('/final-steps');
    expect(router.state.location.search).toBe('?x=1');
    router.dispose();
  });

  it('caches the profile of a signed-in student', async () => {
    signedIn();
    const profile = studentProfile();
    stubServer({ status: 200, body: profile });
    const { router, queryClient } = await start('/about');
    expect(queryClient.getQueryData(queryKeys.profile)).toEqual(profile);
    router.dispose();
  });

  it('sends a signed-in visitor whose session is invalid to /login', async () => {
    signedIn();
    stubServer(anonymous);
    const onUnauthorized = vi.fn();
    const { router } = await start('/about', onUnauthorized);
    expect(onUnauthorized).toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.errors).toBeNull();
    router.dispose();
  });

  it('sends other failures to the root error boundary', async () => {
    stubServer(anonymous, 500);
    const { router } = await start('/about');
    expect(router.state.errors?.[ROOT_ROUTE_ID]).toBeInstanceOf(Error);
    router.dispose();
  });
});
