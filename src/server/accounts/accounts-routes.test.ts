import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_REQUIREMENTS } from '../../shared/accounts/account-forms';
import { UNKNOWN_FIELD_MESSAGE } from '../../shared/validation/field-errors';
import { rowsOf } from '../db/database';
import {
  codeFrom,
  cookieHeader,
  post,
  STRONG_PASSWORD,
  signedInApplicant,
  waitForMail,
} from '../test/accounts-helpers';
import { holdClock } from '../test/held-clock';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

describe.each(databaseKinds)('accounts on %s', (kind) => {
  let app: FastifyInstance;
  let counter = 0;
  const newEmail = () => `applicant${++counter}.${kind}@example.edu`;
  const count = async (table: string) =>
    Number(
      rowsOf<{ n: number }>(
        await testDatabaseOf(app).execute(sql.raw(`select count(*)::int as n from ${table}`)),
      )[0]?.n,
    );

  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  it('signs up, confirms with the emailed code, logs in and reads the profile', async () => {
    const email = newEmail();
    const signup = await post(app, '/public/signup', {
      username: `  ${email.toUpperCase()} `,
      password: STRONG_PASSWORD,
    });
    expect(signup.statusCode).toBe(200);
    expect(signup.json().message).toContain(email);

    const mail = await waitForMail(app, email, /confirmation code/);
    expect(mail.subject).toContain('Northfield State University');
    expect(mail.text).toContain('apply-help@northfield.example.edu');
    expect(mail.html).toContain('<html');
    const code = codeFrom(mail);

    const early = await post(app, '/public/login', { username: email, password: STRONG_PASSWORD });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({ code: 'ACCOUNT_NOT_CONFIRMED' });

    const confirm = await post(app, '/public/confirm', { username: email, code });
    expect(confirm.statusCode).toBe(200);
    const reuse = await post(app, '/public/confirm', { username: email, code });
    expect(reuse.statusCode).toBe(400);

    const login = await post(app, '/public/login', {
      username: email.toUpperCase(),
      password: STRONG_PASSWORD,
    });
    expect(login.statusCode).toBe(200);
    const session = login.cookies.find((c) => c.name === 'tp_session');
    const marker = login.cookies.find((c) => c.name === 'tp_signed_in');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(session?.value.length).toBeGreaterThanOrEqual(43);
    expect(marker).toMatchObject({ value: '1', path: '/' });
    expect(marker?.httpOnly).toBeFalsy();

    const profile = await app.inject({
      url: '/api/profile',
      headers: { cookie: cookieHeader(login) },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({
      username: email,
      answer: {},
      document_answer: {},
      last_page: null,
      web_status: [],
    });
    expect(profile.json().successful_login).toHaveLength(1);
  });

  it('refuses invalid sign-ups with every message and creates nothing', async () => {
    const before = await count('accounts');
    const response = await post(app, '/public/signup', {
      username: 'not-an-email',
      password: 'short',
    });
    expect(response.statusCode).toBe(400);
    const { errors } = response.json();
    expect(errors.username).toEqual(['Your email address must be valid.']);
    expect(errors.password).toEqual(
      expect.arrayContaining([
        'is at least 12 characters',
        'contains at least one uppercase letter',
        'contains at least one number',
        'contains at least one special character',
      ]),
    );
    const extra = await post(app, '/public/signup', {
      username: newEmail(),
      password: STRONG_PASSWORD,
      admin: true,
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().errors).toEqual({ admin: [UNKNOWN_FIELD_MESSAGE] });
    const wrongType = await post(app, '/public/signup', { username: 42, password: ['x'] });
    expect(wrongType.statusCode).toBe(400);
    const malformed = await app.inject({
      method: 'POST',
      url: '/public/signup',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(malformed.statusCode).toBe(400);
    const huge = await post(app, '/public/signup', {
      username: newEmail(),
      password: 'A1!'.repeat(300_000),
    });
    expect(huge.statusCode).toBe(413);
    expect(await count('accounts')).toBe(before);
  });

  it('accepts a 256-character password without truncating it and refuses 257', async () => {
    const email = newEmail();
    const long = `Aa1!${'x'.repeat(252)}`;
    expect(long).toHaveLength(256);
    expect(
      (await post(app, '/public/signup', { username: email, password: `${long}y` })).statusCode,
    ).toBe(400);
    expect(
      (await post(app, '/public/signup', { username: email, password: long })).statusCode,
    ).toBe(200);
    const code = codeFrom(await waitForMail(app, email, /confirmation code/));
    await post(app, '/public/confirm', { username: email, code });
    const truncated = await post(app, '/public/login', {
      username: email,
      password: long.slice(0, 72),
    });
    expect(truncated.statusCode).toBe(400);
    expect((await post(app, '/public/login', { username: email, password: long })).statusCode).toBe(
      200,
    );
  });

  it('kills a code after 5 wrong tries and after it expires; resend replaces it', async () => {
    const email = newEmail();
    await post(app, '/public/signup', { username: email, password: STRONG_PASSWORD });
    const code = codeFrom(await waitForMail(app, email, /confirmation code/));
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 4; attempt++) {
      const wrong = await post(app, '/public/confirm', { username: email, code: wrongCode });
      expect(wrong.json().message).toContain('not correct');
    }
    const fifth = await post(app, '/public/confirm', { username: email, code: wrongCode });
    expect(fifth.json().message).toContain('Request a new code');
    const tooLate = await post(app, '/public/confirm', { username: email, code });
    expect(tooLate.statusCode).toBe(400);
    expect(tooLate.json().message).toContain('Request a new code');

    const resend = await post(app, '/public/resend-confirm', { username: email });
    expect(resend.statusCode).toBe(200);
    const fresh = codeFrom(await waitForMail(app, email, /confirmation code/, 1));
    await post(app, '/public/resend-confirm', { username: email });
    const newest = codeFrom(await waitForMail(app, email, /confirmation code/, 2));
    if (fresh !== newest) {
      expect(
        (await post(app, '/public/confirm', { username: email, code: fresh })).statusCode,
      ).toBe(400);
    }
    await testDatabaseOf(app).execute(
      sql`update confirmation_codes set expires_at = now() - interval '1 second'`,
    );
    const expired = await post(app, '/public/confirm', { username: email, code: newest });
    expect(expired.json().message).toContain('expired');
  });

  it('answers sign-up of a confirmed address as for a new one, and mails the owner', async () => {
    const email = newEmail();
    await signedInApplicant(app, email);
    const again = await post(app, '/public/signup', {
      username: email,
      password: 'Another-pass-99',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toBe(
      `We sent a confirmation code to ${email}. Enter it to finish creating your account.`,
    );
    const notice = await waitForMail(app, email, /application account/);
    expect(notice.text).toContain('an account already exists');
    expect(
      (await post(app, '/public/login', { username: email, password: 'Another-pass-99' }))
        .statusCode,
    ).toBe(400);
  });

  it('rotates the session at log-in and revokes it at log-out', async () => {
    const email = newEmail();
    const first = await signedInApplicant(app, email);
    const second = await post(
      app,
      '/public/login',
      { username: email, password: STRONG_PASSWORD },
      first,
    );
    const secondCookies = cookieHeader(second);
    expect(secondCookies).not.toBe(first);
    expect((await app.inject({ url: '/api/profile', headers: { cookie: first } })).statusCode).toBe(
      401,
    );
    expect(
      (await app.inject({ url: '/api/profile', headers: { cookie: secondCookies } })).json()
        .successful_login,
    ).toHaveLength(2);

    const logout = await app.inject({ url: '/api/logout', headers: { cookie: secondCookies } });
    expect(logout.statusCode).toBe(200);
    expect(logout.cookies.find((c) => c.name === 'tp_session')?.value).toBe('');
    const after = await app.inject({ url: '/api/profile', headers: { cookie: secondCookies } });
    expect(after.statusCode).toBe(401);
  });

  it('ends a session idle for more than 15 minutes', async () => {
    const email = newEmail();
    const cookies = await signedInApplicant(app, email);
    expect(
      (await app.inject({ url: '/api/profile', headers: { cookie: cookies } })).statusCode,
    ).toBe(200);
    await testDatabaseOf(app).execute(
      sql`update sessions set last_seen_at = now() - interval '16 minutes' where account_id = (select id from accounts where email = ${email})`,
    );
    const idle = await app.inject({ url: '/api/profile', headers: { cookie: cookies } });
    expect(idle.statusCode).toBe(401);
    expect(idle.json()).toEqual({ message: 'Your session has ended. Please log in again.' });
  });

  it('resets a password once through the emailed link, ending every session', async () => {
    const email = newEmail();
    const cookies = await signedInApplicant(app, email);
    const known = await post(app, '/public/forgot-password', { username: email });
    const unknown = await post(app, '/public/forgot-password', { username: `nobody.${email}` });
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.json().message.replace(email, 'X')).toBe(
      unknown.json().message.replace(`nobody.${email}`, 'X'),
    );

    const mail = await waitForMail(app, email, /Reset your/);
    const link = new URL(/https?:\/\/\S+\/reset\?\S+/.exec(mail.text)?.[0] ?? '');
    expect(link.pathname).toBe('/reset');
    expect(link.searchParams.get('username')).toBe(email);
    const id = link.searchParams.get('id') ?? '';
    expect(Buffer.from(id, 'base64url').length).toBeGreaterThanOrEqual(16);

    const newPassword = 'Brand-new-pass-7';
    const mismatch = await post(app, '/public/reset-password', {
      username: email,
      id,
      password: newPassword,
      confirm_password: 'other',
    });
    expect(mismatch.json().errors.confirm_password).toEqual(['passwords must match']);
    const reset = await post(app, '/public/reset-password', {
      username: email,
      id,
      password: newPassword,
      confirm_password: newPassword,
    });
    expect(reset.statusCode).toBe(200);
    const again = await post(app, '/public/reset-password', {
      username: email,
      id,
      password: newPassword,
      confirm_password: newPassword,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toContain('already been used');

    expect(
      (await app.inject({ url: '/api/profile', headers: { cookie: cookies } })).statusCode,
    ).toBe(401);
    expect(
      (await post(app, '/public/login', { username: email, password: STRONG_PASSWORD })).statusCode,
    ).toBe(400);
    expect(
      (await post(app, '/public/login', { username: email, password: newPassword })).statusCode,
    ).toBe(200);
  });

  it('refuses a reset link used for another address', async () => {
    const owner = newEmail();
    const other = newEmail();
    await signedInApplicant(app, owner);
    await signedInApplicant(app, other);
    await post(app, '/public/forgot-password', { username: owner });
    const mail = await waitForMail(app, owner, /Reset your/);
    const id = new URL(/https?:\/\/\S+/.exec(mail.text)?.[0] ?? '').searchParams.get('id');
    const stolen = await post(app, '/public/reset-password', {
      username: other,
      id,
      password: 'Hijacked-pass-1',
      confirm_password: 'Hijacked-pass-1',
    });
    expect(stolen.statusCode).toBe(400);
  });

  it('limits log-in attempts per address and account with 429 and Retry-After', async () => {
    const email = newEmail();
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await post(app, '/public/login', {
        username: email,
        password: 'Wrong-password-1',
      });
      expect(response.statusCode, `attempt ${attempt}`).toBe(400);
    }
    const limited = await post(app, '/public/login', {
      username: email,
      password: 'Wrong-password-1',
    });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().message).toMatch(
      /^Too many attempts\. Please wait \d+ minutes? and try again\.$/,
    );
  });

  it('lets the applicant log in past 50 wrong passwords from other addresses, while guessing stays capped', async () => {
    holdClock();
    const email = newEmail();
    await signedInApplicant(app, email);
    const logIn = (remoteAddress: string, password: string) =>
      app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { username: email, password },
        remoteAddress,
      });
    for (let n = 1; n <= 50; n++) {
      const guess = await logIn(`203.0.113.${n}`, 'Wrong-password-1');
      expect(guess.statusCode, `guess from address ${n}`).toBe(400);
      expect(guess.json().message).toBe('The email address or password is incorrect.');
    }
    // With the account's failures past the ceiling, an address that has guessed wrong three
    // times is not given a fourth check, whatever it sends.
    for (let again = 0; again < 2; again++) {
      expect((await logIn('203.0.113.1', 'Wrong-password-1')).statusCode).toBe(400);
    }
    const capped = await logIn('203.0.113.1', STRONG_PASSWORD);
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);

    const owner = await logIn('198.51.100.7', STRONG_PASSWORD);
    expect(owner.statusCode).toBe(200);
    const profile = await app.inject({
      url: '/api/profile',
      headers: { cookie: cookieHeader(owner) },
      remoteAddress: '198.51.100.7',
    });
    expect(profile.json().username).toBe(email);
  });

  it('limits guesses at an address without an account as at one with an account', async () => {
    holdClock();
    const email = newEmail();
    const statuses: number[] = [];
    for (let n = 1; n <= 11; n++) {
      const guess = await app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { username: email, password: 'Wrong-password-1' },
        remoteAddress: `203.0.113.${n}`,
      });
      statuses.push(guess.statusCode);
    }
    for (let again = 0; again < 3; again++) {
      const guess = await app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { username: email, password: 'Wrong-password-1' },
        remoteAddress: '203.0.113.1',
      });
      statuses.push(guess.statusCode);
    }
    expect(statuses).toEqual([...Array(13).fill(400), 429]);
  });

  it('counts an IPv6 client by its /64 network, not by each of its addresses', async () => {
    holdClock();
    const email = newEmail();
    await signedInApplicant(app, email);
    const logIn = (remoteAddress: string) =>
      app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { username: email, password: 'Wrong-password-1' },
        remoteAddress,
      });
    for (let n = 1; n <= 10; n++) {
      expect((await logIn(`2001:db8:0:12::${n.toString(16)}`)).statusCode).toBe(400);
    }
    expect((await logIn('2001:db8:0:12:ffff::1')).statusCode).toBe(429);
    expect((await logIn('2001:db8:0:13::1')).statusCode).toBe(400);
  });

  it('limits forgot-password per account', async () => {
    const email = newEmail();
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await post(app, '/public/forgot-password', { username: email })).statusCode).toBe(
        200,
      );
    }
    expect((await post(app, '/public/forgot-password', { username: email })).statusCode).toBe(429);
  });

  it('refuses state-changing requests from another origin', async () => {
    const email = newEmail();
    const crossSite = await app.inject({
      method: 'POST',
      url: '/public/signup',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: { username: email, password: STRONG_PASSWORD },
    });
    expect(crossSite.statusCode).toBe(403);
    const fetchMetadata = await app.inject({
      method: 'POST',
      url: '/public/signup',
      headers: { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      payload: { username: email, password: STRONG_PASSWORD },
    });
    expect(fetchMetadata.statusCode).toBe(403);
    const sameOrigin = await app.inject({
      method: 'POST',
      url: '/public/signup',
      headers: { origin: 'http://localhost:80', 'content-type': 'application/json' },
      payload: { username: email, password: STRONG_PASSWORD },
    });
    expect(sameOrigin.statusCode).toBe(200);
    const logout = await app.inject({
      url: '/api/logout',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(logout.statusCode).toBe(403);
  });

  it('refuses addresses with bidi overrides, control or invisible characters, storing nothing', async () => {
    const before = await count('accounts');
    for (const username of [
      `\u202Eevil.exe.${kind}@example.edu`,
      `zero\u200Bwidth.${kind}@example.edu`,
      `tab\tin.${kind}@example.edu`,
      `bell\u0007.${kind}@example.edu`,
    ]) {
      const response = await post(app, '/public/signup', { username, password: STRONG_PASSWORD });
      expect(response.statusCode, JSON.stringify(username)).toBe(400);
      expect(response.json().errors.username).toEqual(['Your email address must be valid.']);
    }
    expect(await count('accounts')).toBe(before);
  });

  it('stores addresses in NFC, so either way of writing an accent reaches one account', async () => {
    const decomposed = `jose\u0301.${kind}@example.edu`;
    const composed = `jos\u00e9.${kind}@example.edu`;
    expect(
      (await post(app, '/public/signup', { username: decomposed, password: STRONG_PASSWORD }))
        .statusCode,
    ).toBe(200);
    const code = codeFrom(await waitForMail(app, composed, /confirmation code/));
    expect((await post(app, '/public/confirm', { username: composed, code })).statusCode).toBe(200);
    const login = await post(app, '/public/login', {
      username: decomposed.toUpperCase(),
      password: STRONG_PASSWORD,
    });
    expect(login.statusCode).toBe(200);
    const [stored] = rowsOf<{ email: string }>(
      await testDatabaseOf(app).execute(
        sql`select email from accounts where email like ${`jos%.${kind}@example.edu`}`,
      ),
    );
    expect(stored?.email).toBe(composed);
  });

  it('keeps every requirement message in the shared rules', () => {
    expect(PASSWORD_REQUIREMENTS.map((r) => r.message)).toHaveLength(6);
  });
});

describe('the outbox in production', () => {
  it('answers 404', async () => {
    const app = await buildTestApp('pglite', {
      env: { NODE_ENV: 'production', PUBLIC_URL: 'https://apply.example.edu' },
    });
    try {
      expect((await app.inject('/dev/mail')).statusCode).toBe(404);
      expect((await app.inject('/dev/mail.json')).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
