import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '../../shared/staff/permissions';
import { auditEvents, staffInvitations, staffMembers, staffSessions } from '../db/schema';
import {
  cookieHeader,
  mailsTo,
  post,
  STRONG_PASSWORD,
  waitForMail,
} from '../test/accounts-helpers';
import { holdClock } from '../test/held-clock';
import {
  acceptInvitation,
  enrolMember,
  inviteMember,
  signInMember,
  totpCode,
} from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { STAFF_AUTH_MESSAGES } from './staff-policy';
import { STAFF_SESSION_ENDED_MESSAGE } from './staff-sessions';

function me(app: FastifyInstance, cookie: string) {
  return app.inject({ method: 'GET', url: '/staff/api/me', headers: { cookie } });
}

describe.each(databaseKinds)('staff sign-in on %s', (kind) => {
  let app: FastifyInstance;
  let counter = 0;
  const address = (name: string) => `${name}-${++counter}@staff.example.edu`;

  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  async function actionsOf(email: string): Promise<string[]> {
    const rows = await testDatabaseOf(app)
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.actorLabel, email))
      .orderBy(auditEvents.seq);
    return rows.map((row) => row.action);
  }

  it('takes an invitee from the link to a password, an authenticator and recovery codes', async () => {
    const email = address('invitee');
    const { token } = await inviteMember(app, email, 'reader');
    const mail = await waitForMail(app, email, /invited/);
    expect(mail.text).toContain(`token=${token}`);
    expect(mail.text).toContain('expires in 72 hours');

    const checked = await post(app, '/staff/api/invitation/check', { token });
    expect(checked.json()).toEqual({ valid: true });

    const accepted = await acceptInvitation(app, token, email.toUpperCase());
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ next: 'enrol' });
    const enrolCookie = cookieHeader(accepted);
    // A password alone opens nothing but the enrolment.
    expect((await me(app, enrolCookie)).statusCode).toBe(401);

    const started = await post(app, '/staff/api/enrolment/start', {}, enrolCookie);
    const { secret, otpauth_uri, qr_data_url } = started.json();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(otpauth_uri).toContain(`secret=${secret}`);
    expect(Buffer.from(qr_data_url.split(',')[1], 'base64').toString()).toContain('<svg');

    const wrong = await post(app, '/staff/api/enrolment/finish', { code: '000000' }, enrolCookie);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.code).toEqual([STAFF_AUTH_MESSAGES.codeWrong]);

    const finished = await post(
      app,
      '/staff/api/enrolment/finish',
      { code: await totpCode(secret) },
      enrolCookie,
    );
    expect(finished.statusCode).toBe(200);
    const codes = finished.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);

    const signedIn = await me(app, cookieHeader(finished));
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    expect(signedIn.json()).toMatchObject({
      email,
      role: 'reader',
      method: 'password',
      has_authenticator: true,
      permissions: [...ROLE_PERMISSIONS.reader],
      idle_minutes: 30,
    });
    // The enrolment session was replaced: its cookie no longer works.
    expect((await post(app, '/staff/api/enrolment/start', {}, enrolCookie)).statusCode).toBe(401);
    expect(await actionsOf(email)).toEqual([
      'staff.invitation_accepted',
      'staff.second_factor_failed',
      'staff.authenticator_enrolled',
      'staff.sign_in',
    ]);
  });

  it('refuses an invitation used twice, expired, replaced or opened with another address', async () => {
    const email = address('once');
    const { token } = await inviteMember(app, email, 'reader');

    const otherAddress = await acceptInvitation(app, token, 'someone-else@example.edu');
    expect(otherAddress.statusCode).toBe(400);
    expect(otherAddress.json().errors.email).toEqual([STAFF_AUTH_MESSAGES.invitationOtherAddress]);

    expect((await acceptInvitation(app, token, email)).statusCode).toBe(200);
    const reused = await acceptInvitation(app, token, email);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe(STAFF_AUTH_MESSAGES.invitationDead);

    const late = address('late');
    const expired = await inviteMember(app, late, 'admin');
    await testDatabaseOf(app)
      .update(staffInvitations)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(staffInvitations.staffId, expired.staffId));
    expect(
      (await post(app, '/staff/api/invitation/check', { token: expired.token })).json(),
    ).toEqual({
      message: STAFF_AUTH_MESSAGES.invitationDead,
    });
    expect((await acceptInvitation(app, expired.token, late)).statusCode).toBe(400);

    const twice = address('twice');
    const first = await inviteMember(app, twice, 'reader');
    const second = await inviteMember(app, twice, 'reader');
    expect((await acceptInvitation(app, first.token, twice)).statusCode).toBe(400);
    expect((await acceptInvitation(app, second.token, twice)).statusCode).toBe(200);

    const malformed = await post(app, '/staff/api/invitation/accept', {
      token: 'short',
      email: twice,
      password: 'weak',
      confirm_password: 'other',
      extra: true,
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('never opens the authenticator set-up again with the password alone', async () => {
    const email = address('unfinished');
    const { token } = await inviteMember(app, email, 'admin');
    expect((await acceptInvitation(app, token, email)).statusCode).toBe(200);
    const later = await post(app, '/staff/api/sign-in', { email, password: STRONG_PASSWORD });
    expect(later.statusCode).toBe(400);
    expect(later.json().message).toBe(STAFF_AUTH_MESSAGES.setUpUnfinished);
    expect(cookieHeader(later)).toBe('');
    expect(await actionsOf(email)).toContain('staff.sign_in_failed');
  });

  it('keeps the role of a member who has signed in when they are invited again', async () => {
    const member = await enrolMember(app, address('reinvited'), 'reader');
    await inviteMember(app, member.email, 'admin');
    expect((await me(app, member.cookie)).json().role).toBe('reader');
    const fresh = address('never-finished');
    await inviteMember(app, fresh, 'reader');
    const { staffId } = await inviteMember(app, fresh, 'admin');
    const [row] = await testDatabaseOf(app)
      .select({ role: staffMembers.role })
      .from(staffMembers)
      .where(eq(staffMembers.id, staffId));
    expect(row?.role).toBe('admin');
  });

  it('signs in with a password and a code, and never takes the same code twice', async () => {
    const member = await enrolMember(app, address('signer'), 'admin');
    const wrongPassword = await post(app, '/staff/api/sign-in', {
      email: member.email,
      password: 'Not-the-password-1',
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().message).toBe(STAFF_AUTH_MESSAGES.signInFailed);
    const unknown = await post(app, '/staff/api/sign-in', {
      email: 'nobody@staff.example.edu',
      password: STRONG_PASSWORD,
    });
    expect(unknown.json()).toEqual(wrongPassword.json());

    const first = await post(app, '/staff/api/sign-in', {
      email: member.email,
      password: STRONG_PASSWORD,
    });
    expect(first.json()).toEqual({ next: 'second_factor' });
    const pending = cookieHeader(first);
    expect((await me(app, pending)).statusCode).toBe(401);
    const wrongCode = await post(app, '/staff/api/second-factor', { code: '123456' }, pending);
    expect(wrongCode.statusCode).toBe(400);

    const code = await totpCode(member.secret, 1);
    const second = await post(app, '/staff/api/second-factor', { code }, pending);
    expect(second.statusCode).toBe(200);
    expect((await me(app, cookieHeader(second))).statusCode).toBe(200);

    // The same code, replayed within its window on a new sign-in, is refused.
    const again = await post(app, '/staff/api/sign-in', {
      email: member.email,
      password: STRONG_PASSWORD,
    });
    const replayed = await post(app, '/staff/api/second-factor', { code }, cookieHeader(again));
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().errors.code).toEqual([STAFF_AUTH_MESSAGES.codeReused]);

    const actions = await actionsOf(member.email);
    expect(actions).toContain('staff.sign_in_failed');
    expect(actions.filter((action) => action === 'staff.second_factor_failed')).toHaveLength(2);
    const [unknownEntry] = await testDatabaseOf(app)
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.actorLabel, 'nobody@staff.example.edu'));
    expect(unknownEntry).toMatchObject({ actorType: 'anonymous', action: 'staff.sign_in_failed' });
    expect(unknownEntry?.ip).toBe('127.0.0.1');
  });

  it('accepts each recovery code once and tells the member by mail', async () => {
    const member = await enrolMember(app, address('recovery'), 'reader');
    const recoveryCode = member.recoveryCodes[0] as string;
    const signIn = () =>
      post(app, '/staff/api/sign-in', { email: member.email, password: STRONG_PASSWORD });

    const first = await signIn();
    const used = await post(
      app,
      '/staff/api/recovery-code',
      { code: recoveryCode.toLowerCase().replace('-', ' ') },
      cookieHeader(first),
    );
    expect(used.statusCode).toBe(200);
    expect(used.json()).toEqual({ next: 'signed_in', remaining: 9 });
    await waitForMail(app, member.email, /recovery code was used/);

    const second = await signIn();
    const twice = await post(
      app,
      '/staff/api/recovery-code',
      { code: recoveryCode },
      cookieHeader(second),
    );
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe(STAFF_AUTH_MESSAGES.recoveryCodeWrong);
  });

  it('mails the member after five failed attempts in a row', async () => {
    const member = await enrolMember(app, address('targeted'), 'reader');
    for (let attempt = 0; attempt < 5; attempt++) {
      await post(app, '/staff/api/sign-in', { email: member.email, password: 'Wrong-pass-99' });
    }
    const mail = await waitForMail(app, member.email, /Failed sign-in attempts/);
    expect(mail.text).toContain('5 failed attempts');
  });

  it('limits sign-in attempts per address', async () => {
    const email = address('limited');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      statuses.push(
        (await post(app, '/staff/api/sign-in', { email, password: 'Wrong-pass-99' })).statusCode,
      );
    }
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('lets the member in past 50 wrong passwords from other addresses, while guessing stays capped', async () => {
    holdClock();
    const member = await enrolMember(app, address('besieged'), 'reader');
    const signIn = (remoteAddress: string, password: string) =>
      app.inject({
        method: 'POST',
        url: '/staff/api/sign-in',
        payload: { email: member.email, password },
        remoteAddress,
      });
    for (let n = 1; n <= 50; n++) {
      const guess = await signIn(`203.0.113.${n}`, 'Wrong-pass-99');
      expect(guess.statusCode, `guess from address ${n}`).toBe(400);
      expect(guess.json().message).toBe(STAFF_AUTH_MESSAGES.signInFailed);
    }
    // With the member's failures past the ceiling, an address that has guessed wrong three
    // times is not given a fourth check, whatever it sends.
    for (let again = 0; again < 2; again++) {
      expect((await signIn('203.0.113.1', 'Wrong-pass-99')).statusCode).toBe(400);
    }
    const capped = await signIn('203.0.113.1', STRONG_PASSWORD);
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);
    expect(capped.json().message).toMatch(
      /^Too many attempts\. Please wait \d+ minutes? and try again\.$/,
    );

    const first = await signIn('198.51.100.7', STRONG_PASSWORD);
    expect(first.json()).toEqual({ next: 'second_factor' });
    const second = await app.inject({
      method: 'POST',
      url: '/staff/api/second-factor',
      payload: { code: await totpCode(member.secret, 1) },
      headers: { cookie: cookieHeader(first) },
      remoteAddress: '198.51.100.7',
    });
    expect(second.statusCode).toBe(200);
    expect((await me(app, cookieHeader(second))).statusCode).toBe(200);

    const failures = await testDatabaseOf(app)
      .select({ ip: auditEvents.ip })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.actorLabel, member.email),
          eq(auditEvents.action, 'staff.sign_in_failed'),
        ),
      );
    expect(failures).toHaveLength(52);
    expect(new Set(failures.map((row) => row.ip)).size).toBe(50);
    expect(await actionsOf(member.email)).toContain('staff.sign_in');
  });

  it('caps guesses from one address across members', async () => {
    holdClock();
    const statuses: number[] = [];
    for (let n = 1; n <= 51; n++) {
      const guess = await app.inject({
        method: 'POST',
        url: '/staff/api/sign-in',
        payload: { email: address(`sprayed-${n}`), password: 'Wrong-pass-99' },
        remoteAddress: '192.0.2.66',
      });
      statuses.push(guess.statusCode);
    }
    expect(statuses.slice(0, 50).every((status) => status === 400)).toBe(true);
    expect(statuses[50]).toBe(429);
  });

  it('mails the member about failed attempts at most once a day', async () => {
    holdClock();
    const member = await enrolMember(app, address('mailed-once'), 'reader');
    const guess = (n: number) =>
      app.inject({
        method: 'POST',
        url: '/staff/api/sign-in',
        payload: { email: member.email, password: 'Wrong-pass-99' },
        remoteAddress: `198.51.100.${n}`,
      });
    for (let n = 1; n <= 12; n++) expect((await guess(n)).statusCode).toBe(400);
    const mail = await waitForMail(app, member.email, /Failed sign-in attempts/);
    expect(mail.text).toContain('5 failed attempts');
    // Mail leaves in the background: a full sign-in afterwards gives any other one time to land.
    await signInMember(app, member, 1);
    expect(await mailsTo(app, member.email, /Failed sign-in attempts/)).toHaveLength(1);

    // A day later the next failures are mailed again.
    await testDatabaseOf(app).execute(
      sql`update rate_limits set window_start = window_start - interval '1 day' where key like ${`%${member.staffId}%`}`,
    );
    for (let n = 13; n <= 17; n++) expect((await guess(n)).statusCode).toBe(400);
    const next = await waitForMail(app, member.email, /Failed sign-in attempts/, 1);
    expect(next.text).toContain('5 failed attempts');
  });

  it('ends sessions when idle for 30 minutes, after 10 hours, and at sign-out', async () => {
    const member = await enrolMember(app, address('sessions'), 'reader');
    const db = testDatabaseOf(app);
    const idle = await signInMember(app, member, 1);
    await db
      .update(staffSessions)
      .set({ lastSeenAt: sql`now() - interval '31 minutes'` })
      .where(eq(staffSessions.staffId, member.staffId));
    const idleAnswer = await me(app, idle);
    expect(idleAnswer.statusCode).toBe(401);
    expect(idleAnswer.json().message).toBe(STAFF_SESSION_ENDED_MESSAGE);

    const [row] = await db
      .select({ createdAt: staffSessions.createdAt, expiresAt: staffSessions.expiresAt })
      .from(staffSessions)
      .where(eq(staffSessions.staffId, member.staffId))
      .orderBy(sql`${staffSessions.createdAt} desc`)
      .limit(1);
    const hours = ((row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)) / 3_600_000;
    expect(hours).toBeCloseTo(10, 1);

    // A code is good for one step either side of now: each further sign-in is another member's.
    const late = await enrolMember(app, address('late-session'), 'reader');
    await db
      .update(staffSessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(staffSessions.staffId, late.staffId));
    expect((await me(app, late.cookie)).statusCode).toBe(401);

    const leaving = await enrolMember(app, address('leaving'), 'reader');
    const out = await post(app, '/staff/api/sign-out', {}, leaving.cookie);
    expect(out.json()).toEqual({ message: STAFF_AUTH_MESSAGES.signedOut });
    expect((await me(app, leaving.cookie)).statusCode).toBe(401);
    expect(await actionsOf(leaving.email)).toContain('staff.sign_out');
  });

  it('asks for a fresh second factor before staff management, and takes a code for it', async () => {
    const admin = await enrolMember(app, address('stepper'), 'admin');
    const invite = () =>
      post(
        app,
        '/staff/api/staff/invitations',
        { email: address('newcomer'), role: 'reader' },
        admin.cookie,
      );
    // The sign-in itself was a fresh second factor.
    expect((await invite()).statusCode).toBe(200);

    await testDatabaseOf(app)
      .update(staffSessions)
      .set({ secondFactorAt: sql`now() - interval '11 minutes'` })
      .where(eq(staffSessions.staffId, admin.staffId));
    const stale = await invite();
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe('step_up_required');

    const wrong = await post(app, '/staff/api/step-up', { code: '000000' }, admin.cookie);
    expect(wrong.statusCode).toBe(400);
    const stepped = await post(
      app,
      '/staff/api/step-up',
      { code: await totpCode(admin.secret, 1) },
      admin.cookie,
    );
    expect(stepped.statusCode).toBe(200);
    expect(Date.parse(stepped.json().step_up_until)).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect((await invite()).statusCode).toBe(200);
  });

  it('revokes a member’s sessions when an admin disables them or changes their role', async () => {
    const admin = await enrolMember(app, address('boss'), 'admin');
    const reader = await enrolMember(app, address('worker'), 'reader');
    const promote = await post(
      app,
      `/staff/api/staff/${reader.staffId}/role`,
      { role: 'admin' },
      admin.cookie,
    );
    expect(promote.statusCode).toBe(200);
    expect(promote.json()).toMatchObject({ role: 'admin', status: 'active' });
    expect((await me(app, reader.cookie)).statusCode).toBe(401);

    const again = await signInMember(app, reader, 1);
    expect((await me(app, again)).json().role).toBe('admin');
    const disabled = await post(
      app,
      `/staff/api/staff/${reader.staffId}/disable`,
      {},
      admin.cookie,
    );
    expect(disabled.json().status).toBe('disabled');
    expect((await me(app, again)).statusCode).toBe(401);
    const refused = await post(app, '/staff/api/sign-in', {
      email: reader.email,
      password: STRONG_PASSWORD,
    });
    expect(refused.statusCode).toBe(400);

    const self = await post(app, `/staff/api/staff/${admin.staffId}/disable`, {}, admin.cookie);
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe(STAFF_AUTH_MESSAGES.notYourself);
    const missing = await post(
      app,
      '/staff/api/staff/00000000-0000-4000-8000-000000000000/disable',
      {},
      admin.cookie,
    );
    expect(missing.statusCode).toBe(404);
    const [stored] = await testDatabaseOf(app)
      .select({ role: staffMembers.role })
      .from(staffMembers)
      .where(eq(staffMembers.id, reader.staffId));
    expect(stored?.role).toBe('admin');
    const log = await actionsOf(admin.email);
    expect(log).toEqual(expect.arrayContaining(['staff.role_changed', 'staff.disabled']));
  });
});
