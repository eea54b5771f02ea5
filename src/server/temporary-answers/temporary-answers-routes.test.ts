import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEMPORARY_ANSWERS_EXPIRED_MESSAGE,
  TEMPORARY_ANSWERS_UNKNOWN_MESSAGE,
  temporaryAnswerSetSchema,
  temporaryAnswersUrl,
} from '../../shared/api/temporary-answers';
import { sha256 } from '../accounts/secrets';
import { temporaryAnswerSets } from '../db/schema';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { mintTemporaryAnswerSet } from './temporary-answer-sets';

const DAY_MS = 86_400_000;

describe.each(databaseKinds)('GET /public/tmp on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });
  const db = () => testDatabaseOf(app);

  it('answers the set to whoever holds the token, without a session, never cached', async () => {
    const answers = { first_name: 'Maria', gender: 'F', gender_desc: 'Female' };
    const { token, expiresAt } = await mintTemporaryAnswerSet(db(), {
      answers,
      label: 'Draft for Maria',
      ttlMs: DAY_MS,
    });
    const response = await app.inject(temporaryAnswersUrl(token));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(temporaryAnswerSetSchema.parse(response.json())).toEqual({
      answer: answers,
      label: 'Draft for Maria',
      expires_at: expiresAt.toISOString(),
    });
    // Loading does not use it up: the student may open the link again.
    expect((await app.inject(temporaryAnswersUrl(token))).statusCode).toBe(200);
  });

  it('stores only the hash, and the hash loads nothing', async () => {
    const { token } = await mintTemporaryAnswerSet(db(), {
      answers: { first_name: 'Ana' },
      label: null,
      ttlMs: DAY_MS,
    });
    const rows = await db()
      .select()
      .from(temporaryAnswerSets)
      .where(eq(temporaryAnswerSets.tokenHash, sha256(token)));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    const leaked = await app.inject(temporaryAnswersUrl(sha256(token)));
    expect(leaked.statusCode).toBe(404);
    expect(leaked.json()).toEqual({ message: TEMPORARY_ANSWERS_UNKNOWN_MESSAGE });
  });

  it('says clearly when a token is unknown or expired, and answers no answers', async () => {
    for (const url of [
      '/public/tmp',
      '/public/tmp?token=',
      '/public/tmp?token=a&token=b',
      `/public/tmp?token=${'x'.repeat(300)}`,
      temporaryAnswersUrl('never-minted'),
    ]) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({ message: TEMPORARY_ANSWERS_UNKNOWN_MESSAGE });
    }
    const { token } = await mintTemporaryAnswerSet(db(), {
      answers: { first_name: 'Late' },
      label: null,
      ttlMs: DAY_MS,
    });
    await db()
      .update(temporaryAnswerSets)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(temporaryAnswerSets.tokenHash, sha256(token)));
    const expired = await app.inject(temporaryAnswersUrl(token));
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toEqual({ message: TEMPORARY_ANSWERS_EXPIRED_MESSAGE });
    expect(expired.body).not.toContain('Late');
  });

  it('leaves out answers the form no longer accepts', async () => {
    const token = 'a-set-written-before-the-form-changed';
    await db()
      .insert(temporaryAnswerSets)
      .values({
        tokenHash: sha256(token),
        answers: { first_name: 'Maria', retired_question: 'x', last_name: 'y'.repeat(500) },
        expiresAt: sql`now() + interval '1 day'`,
      });
    const response = await app.inject(temporaryAnswersUrl(token));
    expect(response.json().answer).toEqual({ first_name: 'Maria' });
  });

  it('deletes sets long expired when a new one is minted', async () => {
    const old = 'a-set-expired-long-ago';
    await db()
      .insert(temporaryAnswerSets)
      .values({
        tokenHash: sha256(old),
        answers: { first_name: 'Old' },
        expiresAt: sql`now() - interval '31 days'`,
      });
    await mintTemporaryAnswerSet(db(), {
      answers: { first_name: 'New' },
      label: null,
      ttlMs: DAY_MS,
    });
    const rows = await db()
      .select()
      .from(temporaryAnswerSets)
      .where(eq(temporaryAnswerSets.tokenHash, sha256(old)));
    expect(rows).toEqual([]);
  });

  it('offers no way to write a set over HTTP', async () => {
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const response = await app.inject({ method, url: '/public/tmp', payload: {} });
      expect(response.statusCode, method).toBe(404);
    }
  });
});
