import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../db/schema';
import { STRONG_PASSWORD } from '../test/accounts-helpers';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { hashPassword } from './secrets';

describe('the session cookie in production', () => {
  let app: FastifyInstance;
  const email = 'host.prefix@example.edu';
  beforeAll(async () => {
    app = await buildTestApp('pglite', {
      env: { NODE_ENV: 'production', PUBLIC_URL: 'https://apply.example.edu' },
    });
    // Production has no outbox to read a code from: the account is confirmed directly.
    await testDatabaseOf(app)
      .insert(accounts)
      .values({
        email,
        passwordHash: await hashPassword(STRONG_PASSWORD),
        confirmedAt: new Date(),
      });
  });
  afterAll(async () => {
    await app.close();
  });

  it('is __Host- prefixed: Secure, the whole path, no Domain, and it signs the applicant in', async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/public/login',
      payload: { username: email, password: STRONG_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const session = login.cookies.find((cookie) => cookie.name === '__Host-tp_session');
    expect(session).toMatchObject({ secure: true, httpOnly: true, path: '/', sameSite: 'Lax' });
    expect(session?.domain).toBeUndefined();
    expect(login.cookies.find((cookie) => cookie.name === 'tp_session')).toBeUndefined();

    const cookie = `__Host-tp_session=${session?.value}`;
    expect((await app.inject({ url: '/api/profile', headers: { cookie } })).statusCode).toBe(200);
    // The unprefixed name, which another subdomain could set, is not a session here.
    const shadow = await app.inject({
      url: '/api/profile',
      headers: { cookie: `tp_session=${session?.value}` },
    });
    expect(shadow.statusCode).toBe(401);

    const logout = await app.inject({ url: '/api/logout', headers: { cookie } });
    const cleared = logout.cookies.find((c) => c.name === '__Host-tp_session');
    expect(cleared).toMatchObject({ value: '', secure: true, path: '/' });
    expect((await app.inject({ url: '/api/profile', headers: { cookie } })).statusCode).toBe(401);
  });
});
