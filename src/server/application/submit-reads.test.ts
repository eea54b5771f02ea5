import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { createSessions } from '../accounts/sessions';
import { callAs, sessionTokenOf, signedInApplicant } from '../test/accounts-helpers';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { createApplicationsStore } from './applications-store';

describe.each(databaseKinds)("submit's reads on %s", (kind) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  it('reads several sessions in one statement, each as it reads alone, leaving out a dead one', async () => {
    const db = testDatabaseOf(app);
    const sessions = createSessions(db, {
      idleMs: 900_000,
      absoluteMs: 3_600_000,
      secureCookies: false,
    });
    const store = createApplicationsStore(db);
    const cookies = [
      await signedInApplicant(app, `reads.one.${kind}@example.edu`),
      await signedInApplicant(app, `reads.two.${kind}@example.edu`),
    ];
    const [first] = cookies;
    expect(
      (await callAs(app, first as string, 'PUT', '/api/answer', validApplicationAnswers()))
        .statusCode,
    ).toBe(200);
    const tokens = cookies.map(sessionTokenOf);
    const read = await store.readForSubmits(sessions, [...tokens, 'no-such-session']);
    expect([...read.keys()].sort()).toEqual([...tokens].sort());
    for (const token of tokens)
      expect(read.get(token)).toEqual(await store.readForSubmit(sessions, token));
    expect(read.get(tokens[0] as string)?.application?.answers.first_name).toBe(
      validApplicationAnswers().first_name,
    );
    expect(read.get(tokens[0] as string)?.accountId).not.toBe(
      read.get(tokens[1] as string)?.accountId,
    );
  });
});
