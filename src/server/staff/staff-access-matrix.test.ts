import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Permission,
  ROLE_PERMISSIONS,
  STAFF_ROLES,
  type StaffRole,
} from '../../shared/staff/permissions';
import { API_PREFIX } from '../integration/api-v1-plugin';
import { cookieHeader, post, STRONG_PASSWORD, signedInApplicant } from '../test/accounts-helpers';
import { listRoutes } from '../test/route-list';
import { enrolMember, inviteMember } from '../test/staff-sign-in';
import { buildTestApp } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

/**
 * Who may call each staff route. Every route under /staff/api/ must be here: a new one without a
 * row fails the first test, so nobody adds a staff route without saying who may use it.
 */
type Access =
  | { kind: 'public' }
  /** A step of signing in, after the password and before the session is complete. */
  | { kind: 'pending'; stage: 'second_factor' | 'enrol' }
  | { kind: 'signed_in' }
  | { kind: 'permission'; permission: Permission };

const ACCESS: Record<string, Access> = {
  'GET /staff/api/options': { kind: 'public' },
  'POST /staff/api/sign-in': { kind: 'public' },
  'POST /staff/api/sign-out': { kind: 'public' },
  'POST /staff/api/invitation/check': { kind: 'public' },
  'POST /staff/api/invitation/accept': { kind: 'public' },
  'POST /staff/api/second-factor': { kind: 'pending', stage: 'second_factor' },
  'POST /staff/api/recovery-code': { kind: 'pending', stage: 'second_factor' },
  'POST /staff/api/enrolment/start': { kind: 'pending', stage: 'enrol' },
  'POST /staff/api/enrolment/finish': { kind: 'pending', stage: 'enrol' },
  'GET /staff/api/me': { kind: 'signed_in' },
  'POST /staff/api/step-up': { kind: 'signed_in' },
  'POST /staff/api/recovery-codes': { kind: 'signed_in' },
  'GET /staff/api/staff': { kind: 'permission', permission: 'staff.manage' },
  'POST /staff/api/staff/invitations': { kind: 'permission', permission: 'staff.manage' },
  'POST /staff/api/staff/:staffId/role': { kind: 'permission', permission: 'staff.manage' },
  'POST /staff/api/staff/:staffId/disable': { kind: 'permission', permission: 'staff.manage' },
  'POST /staff/api/staff/:staffId/enable': { kind: 'permission', permission: 'staff.manage' },
  'GET /staff/api/audit': { kind: 'permission', permission: 'audit.read' },
  'GET /staff/api/audit/actions': { kind: 'permission', permission: 'audit.read' },
  // The audit export needs exports.run as well; audit.read is the one a reader lacks.
  'GET /staff/api/audit.csv': { kind: 'permission', permission: 'audit.read' },
  'GET /staff/api/applications': { kind: 'permission', permission: 'applications.read' },
  'GET /staff/api/exports/columns': { kind: 'permission', permission: 'applications.read' },
  'GET /staff/api/exports/applications.csv': { kind: 'permission', permission: 'exports.run' },
  'GET /staff/api/exports/courses.csv': { kind: 'permission', permission: 'exports.run' },
  'POST /staff/api/exports/zip': { kind: 'permission', permission: 'exports.run' },
  'GET /staff/api/exports/zip': { kind: 'permission', permission: 'applications.read' },
  'GET /staff/api/exports/zip/:id': { kind: 'permission', permission: 'applications.read' },
  'GET /staff/api/exports/zip/:id/download': { kind: 'permission', permission: 'exports.run' },
  'GET /staff/api/applications/:applicationId': {
    kind: 'permission',
    permission: 'applications.read',
  },
  'GET /staff/api/applications/:applicationId/neighbours': {
    kind: 'permission',
    permission: 'applications.read',
  },
  'GET /staff/api/applications/:applicationId/history': {
    kind: 'permission',
    permission: 'applications.read',
  },
  'GET /staff/api/applications/:applicationId/pdf': {
    kind: 'permission',
    permission: 'applications.read',
  },
  'GET /staff/api/applications/:applicationId/documents/:key/pdf': {
    kind: 'permission',
    permission: 'applications.read',
  },
  'GET /staff/api/applications/:applicationId/receipt/verify': {
    kind: 'permission',
    permission: 'applications.read',
  },
  'GET /staff/api/decision-codes': { kind: 'permission', permission: 'applications.read' },
  'PUT /staff/api/applications/:applicationId/decision': {
    kind: 'permission',
    permission: 'decisions.manage',
  },
  'POST /staff/api/applications/:applicationId/decision/release': {
    kind: 'permission',
    permission: 'decisions.manage',
  },
  'POST /staff/api/decisions': { kind: 'permission', permission: 'decisions.manage' },
  'POST /staff/api/decisions/release': { kind: 'permission', permission: 'decisions.manage' },
  'GET /staff/api/equivalencies': { kind: 'permission', permission: 'credit.tables' },
  'POST /staff/api/equivalencies': { kind: 'permission', permission: 'credit.tables' },
  'POST /staff/api/equivalencies/check': { kind: 'permission', permission: 'credit.tables' },
  'GET /staff/api/webhooks': { kind: 'permission', permission: 'integrations.manage' },
  'POST /staff/api/webhooks': { kind: 'permission', permission: 'integrations.manage' },
  'DELETE /staff/api/webhooks/:id': { kind: 'permission', permission: 'integrations.manage' },
  'POST /staff/api/webhooks/:id/enable': { kind: 'permission', permission: 'integrations.manage' },
  'GET /staff/api/webhooks/:id/deliveries': {
    kind: 'permission',
    permission: 'integrations.manage',
  },
  'POST /staff/api/webhooks/:id/deliveries/:deliveryId/replay': {
    kind: 'permission',
    permission: 'integrations.manage',
  },
  'GET /staff/api/feeds': { kind: 'permission', permission: 'integrations.manage' },
  'POST /staff/api/feeds/:name/dry-run': { kind: 'permission', permission: 'integrations.manage' },
  'POST /staff/api/feeds/:name/run': { kind: 'permission', permission: 'integrations.manage' },
  'POST /staff/api/feeds/runs/:runId/rerun': {
    kind: 'permission',
    permission: 'integrations.manage',
  },
  'POST /staff/api/applications/:applicationId/credit/estimate/release': {
    kind: 'permission',
    permission: 'credit.evaluate',
  },
  'GET /staff/api/applications/:applicationId/credit/estimate.pdf': {
    kind: 'permission',
    permission: 'applications.read',
  },
  'POST /staff/api/credit-estimates/release': { kind: 'permission', permission: 'credit.evaluate' },
  'GET /staff/api/saved-views': { kind: 'permission', permission: 'applications.read' },
  'POST /staff/api/saved-views': { kind: 'permission', permission: 'applications.read' },
  'DELETE /staff/api/saved-views/:id': { kind: 'permission', permission: 'applications.read' },
  'PUT /staff/api/applications/:applicationId/checklist/:item': {
    kind: 'permission',
    permission: 'checklist.mark',
  },
  'POST /staff/api/checklist/bulk': { kind: 'permission', permission: 'checklist.mark' },
  'GET /staff/api/checklist/items': { kind: 'permission', permission: 'checklist.mark' },
  'GET /staff/api/applications/:applicationId/links': {
    kind: 'permission',
    permission: 'service_links.manage',
  },
  'POST /staff/api/applications/:applicationId/links': {
    kind: 'permission',
    permission: 'service_links.manage',
  },
  'POST /staff/api/applications/:applicationId/links/:linkId/revoke': {
    kind: 'permission',
    permission: 'service_links.manage',
  },
  'GET /staff/api/applications/:applicationId/credit': {
    kind: 'permission',
    permission: 'applications.read',
  },
  'PUT /staff/api/applications/:applicationId/credit/review': {
    kind: 'permission',
    permission: 'credit.evaluate',
  },
  'DELETE /staff/api/applications/:applicationId/credit/review': {
    kind: 'permission',
    permission: 'credit.evaluate',
  },
  'POST /staff/api/applications/:applicationId/credit/transcripts/:gridKey': {
    kind: 'permission',
    permission: 'credit.evaluate',
  },
  'GET /staff/api/applications/:applicationId/credit/transcripts/:gridKey/pdf': {
    kind: 'permission',
    permission: 'applications.read',
  },
  'GET /staff/api/integrations/clients': {
    kind: 'permission',
    permission: 'integrations.manage',
  },
  'POST /staff/api/integrations/clients': {
    kind: 'permission',
    permission: 'integrations.manage',
  },
  'POST /staff/api/integrations/clients/:clientId/rotate': {
    kind: 'permission',
    permission: 'integrations.manage',
  },
  'POST /staff/api/integrations/clients/:clientId/revoke': {
    kind: 'permission',
    permission: 'integrations.manage',
  },
  'GET /staff/api/reviews/queue': { kind: 'permission', permission: 'reviews.read' },
  'POST /staff/api/reviews/assignments': { kind: 'permission', permission: 'reviews.assign' },
  'PUT /staff/api/reviews/:readId/reader': { kind: 'permission', permission: 'reviews.assign' },
  'GET /staff/api/reviews/readers': { kind: 'permission', permission: 'reviews.assign' },
  'GET /staff/api/reviews/rules': { kind: 'permission', permission: 'reviews.assign' },
  'PUT /staff/api/reviews/rules': { kind: 'permission', permission: 'reviews.assign' },
  'GET /staff/api/reviews/conflicts': { kind: 'permission', permission: 'reviews.assign' },
  'POST /staff/api/reviews/conflicts': { kind: 'permission', permission: 'reviews.assign' },
  'DELETE /staff/api/reviews/conflicts/:conflictId': {
    kind: 'permission',
    permission: 'reviews.assign',
  },
  // Reading: starting an unassigned read also needs reviews.read_unassigned, checked in the route.
  'GET /staff/api/applications/:applicationId/reviews': {
    kind: 'permission',
    permission: 'reviews.read',
  },
  'POST /staff/api/applications/:applicationId/reviews': {
    kind: 'permission',
    permission: 'reviews.read',
  },
  'PUT /staff/api/reviews/:readId/draft': { kind: 'permission', permission: 'reviews.read' },
  'POST /staff/api/reviews/:readId/submit': { kind: 'permission', permission: 'reviews.read' },
  'GET /staff/api/applications/:applicationId/committee': {
    kind: 'permission',
    permission: 'reviews.committee',
  },
  'GET /staff/api/reviews/agreement': { kind: 'permission', permission: 'reviews.committee' },
  'GET /staff/api/applications/:applicationId/notes': {
    kind: 'permission',
    permission: 'applications.read',
  },
  'POST /staff/api/applications/:applicationId/notes': {
    kind: 'permission',
    permission: 'applications.read',
  },
};

const SOME_ID = '00000000-0000-4000-8000-000000000000';
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, SOME_ID);

describe.each(databaseKinds)('who reaches the staff routes on %s', (kind) => {
  let app: FastifyInstance;
  const callers: Record<string, { cookie?: string; query?: string }> = {};

  beforeAll(async () => {
    app = await buildTestApp(kind);
    const applicant = await signedInApplicant(app, 'matrix-applicant@example.com');
    const serviceToken = (
      await post(app, `/test/service-token?key=${'test-dev-tools-key-0123456789abcdef'}`, {
        email: 'matrix-applicant@example.com',
      })
    ).json().token as string;
    const reader = await enrolMember(app, 'matrix-reader@staff.example.edu', 'reader');
    const evaluator = await enrolMember(app, 'matrix-evaluator@staff.example.edu', 'evaluator');
    const admin = await enrolMember(app, 'matrix-admin@staff.example.edu', 'admin');
    const pendingEmail = 'matrix-pending@staff.example.edu';
    const pendingMember = await enrolMember(app, pendingEmail, 'admin');
    const pending = await post(app, '/staff/api/sign-in', {
      email: pendingMember.email,
      password: STRONG_PASSWORD,
    });
    const enrolling = await inviteMember(app, 'matrix-enrol@staff.example.edu', 'admin');
    const enrol = await post(app, '/staff/api/invitation/accept', {
      token: enrolling.token,
      email: 'matrix-enrol@staff.example.edu',
      password: STRONG_PASSWORD,
      confirm_password: STRONG_PASSWORD,
    });
    Object.assign(callers, {
      anonymous: {},
      applicant: { cookie: applicant },
      'service link': { query: `service_token=${serviceToken}` },
      'second factor pending': { cookie: cookieHeader(pending) },
      'enrolment pending': { cookie: cookieHeader(enrol) },
      reader: { cookie: reader.cookie },
      evaluator: { cookie: evaluator.cookie },
      admin: { cookie: admin.cookie },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  function call(method: string, url: string, caller: { cookie?: string; query?: string }) {
    const path = concrete(url);
    return app.inject({
      method: method as 'GET',
      url: caller.query ? `${path}?${caller.query}` : path,
      headers: caller.cookie ? { cookie: caller.cookie } : {},
      ...(method === 'GET' ? {} : { payload: {} }),
    });
  }

  it('has a row for every route under /staff/api/', () => {
    const routes = listRoutes(app)
      .filter((route) => route.url.startsWith('/staff/api/'))
      .map((route) => `${route.methods[0]} ${route.url}`);
    expect(routes.sort()).toEqual(Object.keys(ACCESS).sort());
  });

  it('answers each caller as its row says', async () => {
    const unexpected: string[] = [];
    // Signing out ends the caller's session, so it goes last.
    const routes = Object.entries(ACCESS).sort(
      ([a], [b]) => Number(a.endsWith('/sign-out')) - Number(b.endsWith('/sign-out')),
    );
    for (const [route, access] of routes) {
      const [method, url] = route.split(' ') as [string, string];
      for (const [name, caller] of Object.entries(callers)) {
        const status = (await call(method, url, caller)).statusCode;
        const expected = expectation(access, name);
        const ok = expected === 'allowed' ? status !== 401 && status !== 403 : status === expected;
        if (!ok) unexpected.push(`${route} as ${name}: ${status}, expected ${expected}`);
      }
    }
    expect(unexpected).toEqual([]);
  });

  it('never lets a staff session act as an applicant', async () => {
    const admin = await enrolMember(app, 'matrix-admin-2@staff.example.edu', 'admin');
    const staffOnly = { cookie: admin.cookie };
    // Logging out needs no session: it only clears the browser's cookies. The integrators' API
    // under /api/v1 has its own credentials, checked below.
    const applicantRoutes = listRoutes(app).filter(
      (route) =>
        route.url.startsWith('/api/') &&
        !route.url.startsWith(API_PREFIX) &&
        route.url !== '/api/logout',
    );
    expect(applicantRoutes.length).toBeGreaterThan(10);
    const reached: string[] = [];
    for (const route of applicantRoutes) {
      const status = (await call(route.methods[0] as string, route.url, staffOnly)).statusCode;
      if (status !== 401) reached.push(`${route.methods[0]} ${route.url}: ${status}`);
    }
    expect(reached).toEqual([]);
  });

  it('never lets a staff session call the integrators’ API', async () => {
    const admin = await enrolMember(app, 'matrix-admin-3@staff.example.edu', 'admin');
    // The token endpoint and the API's description need no token; a cookie does not change that.
    const open = new Set([
      `${API_PREFIX}/oauth/token`,
      `${API_PREFIX}/openapi.json`,
      `${API_PREFIX}/reference`,
    ]);
    const apiRoutes = listRoutes(app).filter(
      (route) => route.url.startsWith(`${API_PREFIX}/`) && !open.has(route.url),
    );
    const reached: string[] = [];
    for (const route of apiRoutes) {
      const status = (await call(route.methods[0] as string, route.url, { cookie: admin.cookie }))
        .statusCode;
      if (status !== 401) reached.push(`${route.methods[0]} ${route.url}: ${status}`);
    }
    expect(reached).toEqual([]);
  });
});

const isRole = (caller: string): caller is StaffRole =>
  (STAFF_ROLES as readonly string[]).includes(caller);

function expectation(access: Access, caller: string): 'allowed' | 401 | 403 {
  const staff = isRole(caller);
  switch (access.kind) {
    case 'public':
      return 'allowed';
    case 'pending':
      return (access.stage === 'second_factor' && caller === 'second factor pending') ||
        (access.stage === 'enrol' && caller === 'enrolment pending')
        ? 'allowed'
        : 401;
    case 'signed_in':
      return staff ? 'allowed' : 401;
    case 'permission':
      if (!isRole(caller)) return 401;
      return ROLE_PERMISSIONS[caller].includes(access.permission) ? 'allowed' : 403;
  }
}
