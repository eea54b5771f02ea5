import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_ERROR_MESSAGES, ssoErrorMessage } from '../../../shared/staff/sso-errors';
import { SSO_CALLBACK_PATH, SSO_START_PATH } from '../../../shared/staff/staff-api';
import { sha256 } from '../../accounts/secrets';
import { loadEnv } from '../../config/env';
import { rowsOf } from '../../db/database';
import { startTestOidcProvider, type TestOidcProvider } from '../../test/oidc-test-provider';
import { buildTestApp, testDatabaseOf } from '../../test/test-app';
import { databaseKinds } from '../../test/test-database';
import { createStaffStore } from '../staff-store';
import { httpIssuerAllowed } from './oidc-identity-provider';
import { type OidcRoutesOptions, oidcRoutes } from './oidc-routes';

const PUBLIC_URL = 'http://portal.test';
const CLIENT = {
  client_id: 'transfer-portal',
  client_secret: 'transfer-portal-secret-0123456789abcdef',
  redirect_uris: [`${PUBLIC_URL}${SSO_CALLBACK_PATH}`],
};
const ADMINS = 'admissions-admins';
const READERS = 'admissions-staff';

function oidcEnv(issuer: string): Record<string, string> {
  return {
    PUBLIC_URL,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: CLIENT.client_id,
    OIDC_CLIENT_SECRET: CLIENT.client_secret,
    OIDC_ADMIN_VALUES: `${ADMINS},registrar`,
    OIDC_READER_VALUES: READERS,
  };
}

function cookieValue(response: LightMyRequestResponse, name: string): string | undefined {
  return response.cookies.find((cookie) => cookie.name === name)?.value || undefined;
}

describe.each(databaseKinds)('single sign-on on %s', (kind) => {
  let provider: TestOidcProvider;
  let app: FastifyInstance;
  let counter = 0;

  /** A login at the provider and its address, unique to the test that asks. */
  function person(groups?: string[], extra: { email_verified?: boolean } = {}) {
    const login = `staff${++counter}-${kind}`;
    const email = `${login}@northfield.example.edu`;
    provider.setAccount(login, { email, name: `Member ${counter}`, groups, ...extra });
    return { login, email };
  }

  const db = () => testDatabaseOf(app);
  const store = () => createStaffStore(db());

  async function query<T>(statement: ReturnType<typeof sql>): Promise<T[]> {
    return rowsOf<T>(await db().execute(statement));
  }

  async function sessionRow(token: string) {
    const [row] = await query<{
      staff_id: string;
      stage: string;
      method: string;
      second_factor_at: string | null;
      revoked_at: string | null;
    }>(
      sql`select staff_id, stage, method, second_factor_at, revoked_at from staff_sessions
        where token_hash = ${sha256(token)}`,
    );
    return row;
  }

  async function auditEntries(action: string, subject: string) {
    return query<{
      actor_id: string | null;
      actor_label: string | null;
      detail: Record<string, unknown>;
    }>(
      sql`select actor_id, actor_label, detail from audit_events
        where action = ${action} and (detail->>'subject' = ${subject} or actor_label like ${`${subject}@%`})
        order by seq`,
    );
  }

  /** The app's redirect to the provider, and the state cookie it set in this browser. */
  async function start(staffCookie?: string, search = '') {
    const response = await app.inject({
      url: `${SSO_START_PATH}${search}`,
      headers: staffCookie ? { cookie: `tp_staff=${staffCookie}` } : {},
    });
    expect(response.statusCode, response.body).toBe(302);
    const ssoCookie = cookieValue(response, 'tp_sso');
    return { location: String(response.headers.location), ssoCookie, response };
  }

  /** The provider's redirect back, sent to the app by the browser that holds `ssoCookie`. */
  function callback(callbackUrl: string, ssoCookie: string | undefined) {
    const url = new URL(callbackUrl);
    expect(url.origin + url.pathname).toBe(CLIENT.redirect_uris[0]);
    return app.inject({
      url: url.pathname + url.search,
      headers: ssoCookie ? { cookie: `tp_sso=${ssoCookie}` } : {},
    });
  }

  async function signIn(login: string) {
    const { location, ssoCookie } = await start();
    const response = await callback(await provider.signIn(location, login), ssoCookie);
    return { response, staffCookie: cookieValue(response, 'tp_staff') };
  }

  function expectRefused(response: LightMyRequestResponse, code: keyof typeof SSO_ERROR_MESSAGES) {
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/staff/sign-in?error=${code}`);
    expect(cookieValue(response, 'tp_staff')).toBeUndefined();
  }

  beforeAll(async () => {
    provider = await startTestOidcProvider({ clients: [CLIENT], accounts: {} });
    app = await buildTestApp(kind, { env: oidcEnv(provider.issuer) });
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });

  it('sends the browser to the provider with PKCE, state and nonce, bound to this browser', async () => {
    const { location, response } = await start();
    const url = new URL(location);
    expect(url.origin).toBe(provider.issuer);
    const params = url.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(CLIENT.client_id);
    expect(params.get('redirect_uri')).toBe(CLIENT.redirect_uris[0]);
    expect(params.get('scope')).toBe('openid email profile');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(params.get('nonce')).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(params.has('prompt')).toBe(false);

    const cookie = response.cookies.find((entry) => entry.name === 'tp_sso');
    expect(cookie).toMatchObject({ value: params.get('state'), httpOnly: true, sameSite: 'Lax' });
    expect(cookie?.maxAge).toBe(600);
    // Only the state's hash is stored, never the state itself.
    const stored = await query<{ state_hash: string }>(
      sql`select state_hash from oidc_sign_ins where state_hash = ${sha256(String(params.get('state')))}`,
    );
    expect(stored).toHaveLength(1);
  });

  it('signs in a member the groups mapping makes an admin, and links the account', async () => {
    const { login, email } = person(['library', ADMINS]);
    const before = Date.now();
    const { response, staffCookie } = await signIn(login);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/staff');
    expect(staffCookie).toBeDefined();
    // The state cookie is spent.
    expect(response.cookies.find((entry) => entry.name === 'tp_sso')?.value).toBe('');

    const member = await store().findByEmail(email);
    expect(member).toMatchObject({
      role: 'admin',
      oidcIssuer: provider.issuer,
      oidcSubject: login,
      displayName: expect.stringMatching(/^Member \d+$/),
    });
    expect(member?.lastSignInAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const session = await sessionRow(String(staffCookie));
    expect(session).toMatchObject({
      staff_id: member?.id,
      stage: 'signed_in',
      method: 'oidc',
      revoked_at: null,
    });
    // The provider's authentication counts as the second factor, from its auth_time.
    expect(session?.second_factor_at).not.toBeNull();
    expect(await auditEntries('staff.sign_in', login)).toHaveLength(1);
    const [provisioned] = await query<{ actor_label: string; detail: Record<string, unknown> }>(
      sql`select actor_label, detail from audit_events
        where action = 'staff.provisioned' and detail->>'email' = ${email}`,
    );
    expect(provisioned).toEqual({
      actor_label: 'identity provider',
      detail: { staff_id: member?.id, email, role: 'admin', issuer: provider.issuer },
    });

    const me = await app.inject({
      url: '/staff/api/me',
      headers: { cookie: `tp_staff=${staffCookie}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email,
      role: 'admin',
      method: 'oidc',
      has_authenticator: false,
      step_up_until: expect.any(String),
    });
  });

  it('lets the role follow the provider at every sign-in and ends the older sessions', async () => {
    const { login, email } = person([READERS]);
    const first = await signIn(login);
    expect(first.response.headers.location).toBe('/staff');
    expect((await store().findByEmail(email))?.role).toBe('reader');

    provider.setAccount(login, { email, groups: [READERS, ADMINS] });
    const second = await signIn(login);
    expect(second.response.headers.location).toBe('/staff');
    const member = await store().findByEmail(email);
    expect(member?.role).toBe('admin');
    expect((await sessionRow(String(first.staffCookie)))?.revoked_at).not.toBeNull();
    expect((await sessionRow(String(second.staffCookie)))?.revoked_at).toBeNull();
    const me = (cookie: string | undefined) =>
      app.inject({ url: '/staff/api/me', headers: { cookie: `tp_staff=${cookie}` } });
    expect((await me(first.staffCookie)).statusCode).toBe(401);
    expect((await me(second.staffCookie)).json()).toMatchObject({ role: 'admin' });
    const changes = await query<{ detail: Record<string, unknown> }>(
      sql`select detail from audit_events where action = 'staff.role_changed'
        and detail->>'staff_id' = ${String(member?.id)}`,
    );
    expect(changes.map((entry) => entry.detail)).toEqual([
      expect.objectContaining({ from: 'reader', to: 'admin' }),
    ]);

    // Taken out of every mapped group: never invited, so no access, and no session left.
    provider.setAccount(login, { email, groups: ['library'] });
    const third = await signIn(login);
    expectRefused(third.response, 'sso_no_role');
    expect((await sessionRow(String(second.staffCookie)))?.revoked_at).not.toBeNull();
    expect((await store().findByEmail(email))?.role).toBe('admin');
  });

  it('signs in an invited member without any group with the invited role', async () => {
    const { login, email } = person();
    const invited = await store().upsertInvited({ email: email.toUpperCase(), role: 'reader' });
    await store().replaceInvitation(
      invited.id,
      sha256(`invitation-${login}`),
      new Date(Date.now() + 3_600_000),
    );

    const { response, staffCookie } = await signIn(login);
    expect(response.headers.location).toBe('/staff');
    const member = await store().findById(invited.id);
    expect(member).toMatchObject({
      role: 'reader',
      oidcIssuer: provider.issuer,
      oidcSubject: login,
    });
    expect((await sessionRow(String(staffCookie)))?.staff_id).toBe(invited.id);

    // The next time the member is found by the provider's subject, even with another address.
    provider.setAccount(login, { email: `renamed-${email}` });
    const again = await signIn(login);
    expect(again.response.headers.location).toBe('/staff');
    expect((await sessionRow(String(again.staffCookie)))?.staff_id).toBe(invited.id);
  });

  it('refuses, and records, someone neither invited nor granted a role', async () => {
    const { login, email } = person(['students']);
    const { response } = await signIn(login);
    expectRefused(response, 'sso_no_role');
    expect(await store().findByEmail(email)).toBeNull();
    const [refusal] = await auditEntries('staff.sso_refused', login);
    expect(refusal?.actor_label).toBe(email);
    expect(refusal?.detail).toMatchObject({
      code: 'sso_no_role',
      issuer: provider.issuer,
      subject: login,
      reason: expect.stringContaining('grants no role'),
    });
  });

  it('refuses a disabled member, whatever the groups', async () => {
    const { login, email } = person([ADMINS]);
    const invited = await store().upsertInvited({ email, role: 'reader' });
    await store().update(invited.id, { disabledAt: new Date() });
    const { response } = await signIn(login);
    expectRefused(response, 'sso_disabled');
    expect((await store().findById(invited.id))?.role).toBe('reader');
    expect(await auditEntries('staff.sso_refused', login)).toEqual([
      expect.objectContaining({ detail: expect.objectContaining({ code: 'sso_disabled' }) }),
    ]);
  });

  it('does not match an invitation by an address the provider says is unverified', async () => {
    const { login, email } = person([READERS], { email_verified: false });
    const invited = await store().upsertInvited({ email, role: 'reader' });
    const { response } = await signIn(login);
    expectRefused(response, 'sso_email_unverified');
    expect((await store().findById(invited.id))?.oidcSubject).toBeNull();
  });

  it('refuses an ID token issued for another client (wrong audience)', async () => {
    const { login, email } = person([ADMINS]);
    provider.tamperNextIdToken((claims) => ({ ...claims, aud: 'another-client' }));
    const { response } = await signIn(login);
    expectRefused(response, 'sso_failed');
    expect(await store().findByEmail(email)).toBeNull();
    const [refusal] = await query<{ detail: Record<string, unknown> }>(
      sql`select detail from audit_events where action = 'staff.sso_refused'
        and detail->>'code' = 'sso_failed' and detail->>'reason' like '%aud%' order by seq desc limit 1`,
    );
    expect(refusal).toBeDefined();
  });

  it('refuses an ID token not signed with a key the provider published (a forgery)', async () => {
    const { login, email } = person([ADMINS]);
    provider.tamperNextIdToken((claims) => claims, { foreignKey: true });
    const { response } = await signIn(login);
    expectRefused(response, 'sso_failed');
    expect(await store().findByEmail(email)).toBeNull();
  });

  it('refuses an expired ID token', async () => {
    const { login, email } = person([ADMINS]);
    const now = Math.floor(Date.now() / 1000);
    provider.tamperNextIdToken((claims) => ({ ...claims, iat: now - 7200, exp: now - 3600 }));
    const { response } = await signIn(login);
    expectRefused(response, 'sso_failed');
    expect(await store().findByEmail(email)).toBeNull();
  });

  it('refuses a sign-in the provider answered with an error (cancelled, refused)', async () => {
    const { location, ssoCookie } = await start();
    const state = String(new URL(location).searchParams.get('state'));
    const answer = new URL(CLIENT.redirect_uris[0] as string);
    answer.search = new URLSearchParams({
      error: 'access_denied',
      error_description: 'End-User aborted interaction',
      state,
      iss: provider.issuer,
    }).toString();
    expectRefused(await callback(answer.href, ssoCookie), 'sso_cancelled');
    const [refusal] = await query<{ detail: Record<string, unknown> }>(
      sql`select detail from audit_events where action = 'staff.sso_refused'
        and detail->>'code' = 'sso_cancelled' order by seq desc limit 1`,
    );
    expect(refusal?.detail.reason).toContain('access_denied');
    // The state is spent with the answer: it cannot be tried again.
    expectRefused(await callback(answer.href, ssoCookie), 'sso_expired');
  });

  it('uses a state once: the same callback a second time is refused', async () => {
    const { login } = person([READERS]);
    const { location, ssoCookie } = await start();
    const callbackUrl = await provider.signIn(location, login);
    const first = await callback(callbackUrl, ssoCookie);
    expect(first.headers.location).toBe('/staff');
    const replay = await callback(callbackUrl, ssoCookie);
    expectRefused(replay, 'sso_expired');
    expect(await auditEntries('staff.sso_refused', login)).toHaveLength(0);
  });

  it('refuses a callback in a browser that did not start the sign-in (login CSRF)', async () => {
    const { login, email } = person([ADMINS]);
    const { location } = await start();
    const callbackUrl = await provider.signIn(location, login);
    expectRefused(await callback(callbackUrl, undefined), 'sso_expired');
    const other = await start();
    expectRefused(await callback(callbackUrl, other.ssoCookie), 'sso_expired');
    expect(await store().findByEmail(email)).toBeNull();
  });

  it('refuses a state that expired before the provider answered', async () => {
    const { login } = person([READERS]);
    const { location, ssoCookie } = await start();
    const state = String(new URL(location).searchParams.get('state'));
    await db().execute(
      sql`update oidc_sign_ins set expires_at = now() - interval '1 second' where state_hash = ${sha256(state)}`,
    );
    expectRefused(await callback(await provider.signIn(location, login), ssoCookie), 'sso_expired');
  });

  it('steps up through a fresh sign-in at the provider and marks the second factor fresh', async () => {
    const { login } = person([ADMINS]);
    const { staffCookie } = await signIn(login);
    await db().execute(
      sql`update staff_sessions set second_factor_at = now() - interval '1 hour'
        where token_hash = ${sha256(String(staffCookie))}`,
    );
    const exportCsv = () =>
      app.inject({ url: '/staff/api/audit.csv', headers: { cookie: `tp_staff=${staffCookie}` } });
    const before = await exportCsv();
    expect(before.statusCode).toBe(403);
    expect(before.json()).toMatchObject({ code: 'step_up_required' });

    const { location, ssoCookie } = await start(staffCookie, '?step_up=1');
    const params = new URL(location).searchParams;
    expect(params.get('prompt')).toBe('login');
    expect(params.get('max_age')).toBe('0');

    // The staff cookie is SameSite=Strict: the provider's redirect brings back only the state's.
    const response = await callback(await provider.signIn(location, login), ssoCookie);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/staff');
    const session = await sessionRow(String(staffCookie));
    expect(session?.revoked_at).toBeNull();
    expect(Date.now() - new Date(String(session?.second_factor_at)).getTime()).toBeLessThan(60_000);
    expect(await auditEntries('staff.step_up', login)).toHaveLength(1);
    expect((await exportCsv()).statusCode).toBe(200);
  });

  it('refuses a step-up signed in at the provider as someone else', async () => {
    const { login } = person([ADMINS]);
    const other = person([ADMINS]);
    const { staffCookie } = await signIn(login);
    await db().execute(
      sql`update staff_sessions set second_factor_at = null where token_hash = ${sha256(String(staffCookie))}`,
    );
    const { location, ssoCookie } = await start(staffCookie, '?step_up=1');
    const response = await callback(await provider.signIn(location, other.login), ssoCookie);
    expectRefused(response, 'sso_step_up_mismatch');
    expect((await sessionRow(String(staffCookie)))?.second_factor_at).toBeNull();
  });

  it('refuses a step-up whose authentication is older than the step-up', async () => {
    const { login } = person([ADMINS]);
    const { staffCookie } = await signIn(login);
    await db().execute(
      sql`update staff_sessions set second_factor_at = null where token_hash = ${sha256(String(staffCookie))}`,
    );
    const { location, ssoCookie } = await start(staffCookie, '?step_up=1');
    const old = Math.floor(Date.now() / 1000) - 3600;
    provider.tamperNextIdToken((claims) => ({ ...claims, auth_time: old }));
    const response = await callback(await provider.signIn(location, login), ssoCookie);
    expectRefused(response, 'sso_step_up_stale');
    expect((await sessionRow(String(staffCookie)))?.second_factor_at).toBeNull();
  });

  it('ends the session when a step-up finds the provider changed the role', async () => {
    const { login, email } = person([ADMINS]);
    const { staffCookie } = await signIn(login);
    const { location, ssoCookie } = await start(staffCookie, '?step_up=1');
    provider.setAccount(login, { email, groups: [READERS] });
    const response = await callback(await provider.signIn(location, login), ssoCookie);
    expectRefused(response, 'sso_session_ended');
    expect((await store().findByEmail(email))?.role).toBe('reader');
    expect((await sessionRow(String(staffCookie)))?.revoked_at).not.toBeNull();
  });

  it('asks for a signed-in session before a step-up', async () => {
    const response = await app.inject({ url: `${SSO_START_PATH}?step_up=1` });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/staff/sign-in?error=sso_session_ended');
    const wrong = await app.inject({ url: `${SSO_START_PATH}?step_up=yes` });
    expect(wrong.statusCode).toBe(400);
  });

  it('has a sentence for every refusal code', () => {
    for (const [code, message] of Object.entries(SSO_ERROR_MESSAGES)) {
      expect(ssoErrorMessage(code)).toBe(message);
      expect(message).toMatch(/^[A-Z].*\.$/);
    }
    expect(ssoErrorMessage('toString')).toBeNull();
    expect(ssoErrorMessage(undefined)).toBeNull();
  });
});

describe('single sign-on settings', () => {
  it('needs all three of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or none', () => {
    expect(() => loadEnv({ NODE_ENV: 'test', OIDC_ISSUER: 'https://login.example.edu' })).toThrow(
      /set all of OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET/,
    );
    expect(() =>
      loadEnv({ NODE_ENV: 'test', OIDC_CLIENT_ID: 'portal', OIDC_CLIENT_SECRET: 'secret' }),
    ).toThrow(/OIDC/);
    expect(
      loadEnv({
        NODE_ENV: 'test',
        OIDC_ISSUER: 'https://login.example.edu',
        OIDC_CLIENT_ID: 'portal',
        OIDC_CLIENT_SECRET: 'secret',
      }).OIDC_ISSUER,
    ).toBe('https://login.example.edu');
    expect(() => loadEnv({ NODE_ENV: 'test', OIDC_ISSUER: 'ftp://login.example.edu' })).toThrow(
      /OIDC_ISSUER/,
    );
  });

  it('reaches a provider over http only on this machine and outside production', () => {
    expect(httpIssuerAllowed('https://login.example.edu', 'production')).toBe(true);
    expect(httpIssuerAllowed('http://127.0.0.1:4000', 'test')).toBe(true);
    expect(httpIssuerAllowed('http://localhost:4000/realms/staff', 'development')).toBe(true);
    expect(httpIssuerAllowed('http://127.0.0.1:4000', 'production')).toBe(false);
    expect(httpIssuerAllowed('http://login.example.edu', 'development')).toBe(false);
  });

  it('refuses to start with an http provider that is not on this machine', async () => {
    const env = loadEnv({ NODE_ENV: 'test', ...oidcEnv('http://login.example.edu') });
    const app = Fastify({ logger: false });
    try {
      await expect(app.register(oidcRoutes, { env } as OidcRoutesOptions).ready()).rejects.toThrow(
        /OIDC_ISSUER: must be an https:\/\/ URL/,
      );
    } finally {
      await app.close();
    }
  });

  it('starts while the provider is down, answers 503 until it is up, and refuses a callback it cannot finish', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const app = await buildTestApp('pglite', { env: oidcEnv(`http://127.0.0.1:${port}`) });
    let provider: TestOidcProvider | undefined;
    try {
      const down = await app.inject({ url: SSO_START_PATH });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ message: SSO_ERROR_MESSAGES.sso_unavailable });

      provider = await startTestOidcProvider({
        clients: [CLIENT],
        accounts: { late: { email: 'late@northfield.example.edu', groups: [ADMINS] } },
        port,
      });
      const up = await app.inject({ url: SSO_START_PATH });
      expect(up.statusCode).toBe(302);
      const callbackUrl = new URL(await provider.signIn(String(up.headers.location), 'late'));
      await provider.close();
      provider = undefined;
      const response = await app.inject({
        url: callbackUrl.pathname + callbackUrl.search,
        headers: { cookie: `tp_sso=${cookieValue(up, 'tp_sso')}` },
      });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/staff/sign-in?error=sso_unavailable');
    } finally {
      await provider?.close();
      await app.close();
    }
  });

  it('has no single sign-on routes when OIDC_* are unset', async () => {
    const app = await buildTestApp('pglite');
    try {
      expect((await app.inject({ url: SSO_START_PATH })).statusCode).not.toBe(302);
      expect((await app.inject({ url: SSO_CALLBACK_PATH })).statusCode).not.toBe(302);
    } finally {
      await app.close();
    }
  });
});
