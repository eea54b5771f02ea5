import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessions } from '../accounts/sessions';
import { applications } from '../db/schema';
import {
  callAs,
  cookieHeader,
  post,
  STRONG_PASSWORD,
  sessionTokenOf,
  signedInApplicant,
} from '../test/accounts-helpers';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { createApplicationsStore } from './applications-store';

describe.each(databaseKinds)('saves sent together in one statement on %s', (kind) => {
  let app: FastifyInstance;
  let counter = 0;
  const db = () => testDatabaseOf(app);
  const sessions = () =>
    createSessions(db(), { idleMs: 900_000, absoluteMs: 3_600_000, secureCookies: false });
  const store = () => createApplicationsStore(db());

  /** A signed-in applicant with an application row: its session token and account. */
  async function applicant(): Promise<{ email: string; token: string; accountId: string }> {
    const email = `together${++counter}.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    expect(
      (await callAs(app, cookie, 'PUT', '/api/answer', { first_name: 'Ada' })).statusCode,
    ).toBe(200);
    const token = sessionTokenOf(cookie);
    const read = await store().readForSubmit(sessions(), token);
    if (!read) throw new Error('no live session');
    return { email, token, accountId: read.accountId };
  }

  async function answersOf(accountId: string) {
    const [row] = await db()
      .select({ answers: applications.answers })
      .from(applications)
      .where(eq(applications.accountId, accountId));
    return row?.answers;
  }

  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  it("applies each applicant's patch and answers each token, keeping answers where asked", async () => {
    const [first, second, third] = [await applicant(), await applicant(), await applicant()];
    const saved = await store().saveAnswersTogether(sessions(), [
      { token: first.token, patch: { last_name: 'Lovelace' }, keepExisting: false },
      { token: second.token, patch: { first_name: 'Grace' }, keepExisting: false },
      // Answers carried in from before sign-up never overwrite what the account holds.
      { token: third.token, patch: { first_name: 'Kept?', city: 'Fresno' }, keepExisting: true },
    ]);
    expect([...saved.keys()].sort()).toEqual([first.token, second.token, third.token].sort());
    expect(saved.get(first.token)?.accountId).toBe(first.accountId);
    expect(saved.get(first.token)?.lastSeenAt).toBeInstanceOf(Date);
    expect(await answersOf(first.accountId)).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    expect((await answersOf(second.accountId))?.first_name).toBe('Grace');
    expect(await answersOf(third.accountId)).toMatchObject({ first_name: 'Ada', city: 'Fresno' });
  });

  it('leaves out a token without a live session and a submitted application, and applies the rest', async () => {
    const [live, submitted] = [await applicant(), await applicant()];
    await db()
      .update(applications)
      .set({ submittedAt: new Date() })
      .where(eq(applications.accountId, submitted.accountId));
    const saved = await store().saveAnswersTogether(sessions(), [
      { token: 'no-such-session', patch: { first_name: 'Mallory' }, keepExisting: false },
      { token: submitted.token, patch: { first_name: 'Late' }, keepExisting: false },
      { token: live.token, patch: { first_name: 'On time' }, keepExisting: false },
    ]);
    expect([...saved.keys()]).toEqual([live.token]);
    expect((await answersOf(live.accountId))?.first_name).toBe('On time');
    expect((await answersOf(submitted.accountId))?.first_name).toBe('Ada');
  });

  it('applies one of two sessions of one account and leaves the other out, for its route to apply', async () => {
    const { email, token, accountId } = await applicant();
    const login = await post(app, '/public/login', { username: email, password: STRONG_PASSWORD });
    const otherToken = sessionTokenOf(cookieHeader(login));
    const saved = await store().saveAnswersTogether(sessions(), [
      { token, patch: { middle_name: 'from one tab' }, keepExisting: false },
      { token: otherToken, patch: { city: 'from another device' }, keepExisting: false },
    ]);
    expect(saved.size).toBe(1);
    const answers = await answersOf(accountId);
    const applied = saved.has(token) ? 'middle_name' : 'city';
    const leftOut = applied === 'middle_name' ? 'city' : 'middle_name';
    expect(answers?.[applied]).toBeDefined();
    expect(answers?.[leftOut]).toBeUndefined();
  });

  it('saves sent at once through the route all land, whichever statement carried them', async () => {
    const cookies = await Promise.all(
      Array.from({ length: 6 }, (_, n) => signedInApplicant(app, `route${n}.${kind}@example.edu`)),
    );
    const responses = await Promise.all(
      cookies.flatMap((cookie, n) => [
        callAs(app, cookie, 'PUT', '/api/answer', { first_name: `First ${n}` }),
        callAs(app, cookie, 'PUT', '/api/answer', { last_name: `Last ${n}` }),
      ]),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(responses.map(() => 200));
    for (const [n, cookie] of cookies.entries()) {
      const profile = await callAs(app, cookie, 'GET', '/api/profile');
      expect(profile.json().answer).toMatchObject({
        first_name: `First ${n}`,
        last_name: `Last ${n}`,
      });
    }
  });
});
