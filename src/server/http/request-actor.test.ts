import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceViewUrl } from '../../shared/api/service';
import { accounts } from '../db/schema';
import { findApplicant, mintServiceToken, serviceTokenId } from '../service/service-tokens';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { appLoggerOptions } from './logger-options';

interface LogLine {
  reqId?: string;
  msg?: string;
  accountId?: string;
  serviceTokenId?: string;
}

describe.each(databaseKinds)('request logs on %s', (kind) => {
  let app: FastifyInstance;
  const lines: string[] = [];
  /** Every line logged for one request, found by the id the response carries. */
  const linesOf = (requestId: unknown) =>
    lines.filter((line) => (JSON.parse(line) as LogLine).reqId === requestId);

  beforeAll(async () => {
    app = await buildTestApp(kind, {
      // The server's own settings, so the test sees what production would log.
      logger: appLoggerOptions('info', { write: (line: string) => lines.push(line) }),
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it("carry the signed-in applicant's account id and never the address", async () => {
    const email = `logged.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    const [account] = await testDatabaseOf(app)
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    const response = await callAs(app, cookie, 'GET', '/api/profile');
    expect(response.statusCode).toBe(200);
    const logged = linesOf(response.headers['x-request-id']);
    const completed = logged.map((line) => JSON.parse(line) as LogLine);
    expect(completed.find((line) => line.msg === 'request completed')?.accountId).toBe(account?.id);
    expect(logged.join('\n')).not.toContain(email);
    expect(logged.join('\n')).not.toContain('@');
  });

  it('carry the account id of an answer save, the quickest signed-in route', async () => {
    const cookie = await signedInApplicant(app, `saving.${kind}@example.edu`);
    const response = await callAs(app, cookie, 'PUT', '/api/answer', {});
    const completed = linesOf(response.headers['x-request-id'])
      .map((line) => JSON.parse(line) as LogLine)
      .find((line) => line.msg === 'request completed');
    expect(completed?.accountId).toEqual(expect.any(String));
  });

  it('carry no account for a request without a session', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/profile' });
    expect(response.statusCode).toBe(401);
    expect(linesOf(response.headers['x-request-id']).join('\n')).not.toContain('accountId');
  });

  it("name a staff link by its token's row, never the token", async () => {
    const email = `reviewed.${kind}@example.edu`;
    await signedInApplicant(app, email);
    const owner = await findApplicant(testDatabaseOf(app), email);
    const { token } = await mintServiceToken(testDatabaseOf(app), owner?.accountId ?? '', 60_000);
    const response = await app.inject({ method: 'GET', url: serviceViewUrl(token) });
    expect(response.statusCode).toBe(200);
    const logged = linesOf(response.headers['x-request-id']);
    const completed = logged
      .map((line) => JSON.parse(line) as LogLine)
      .find((line) => line.msg === 'request completed');
    expect(completed?.serviceTokenId).toBe(serviceTokenId(token));
    expect(logged.join('\n')).not.toContain(token);
  });
});
