import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceViewUrl } from '../../shared/api/service';
import { temporaryAnswersUrl } from '../../shared/api/temporary-answers';
import { ANSWER_MESSAGES } from '../../shared/form/answer-keys';
import { signedInApplicant } from '../test/accounts-helpers';
import { buildTestApp, devToolsPath } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

describe.each(databaseKinds)('test-only link routes on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  const post = (url: string, payload: unknown, remoteAddress = '127.0.0.1') =>
    app.inject({
      method: 'POST',
      url: devToolsPath(url),
      payload: payload as object,
      remoteAddress,
    });

  it('mints a staff link with the command’s own functions', async () => {
    const email = `link.${kind}@example.edu`;
    await signedInApplicant(app, email);
    const minted = await post('/test/service-token', { email, ttl: '1h' });
    expect(minted.statusCode).toBe(200);
    const { token } = minted.json() as { token: string };
    expect((await app.inject(serviceViewUrl(token))).statusCode).toBe(200);

    expect((await post('/test/service-token', { email: 'nobody@example.edu' })).statusCode).toBe(
      404,
    );
    const badTtl = await post('/test/service-token', { email, ttl: 'forever' });
    expect(badTtl.statusCode).toBe(400);
    expect(badTtl.json().errors.ttl[0]).toContain('--ttl must be a number');
    expect((await post('/test/service-token', { email, role: 'admin' })).statusCode).toBe(400);
    expect((await post('/test/service-token', { email: 42 })).statusCode).toBe(400);
    const malformed = await app.inject({
      method: 'POST',
      url: devToolsPath('/test/service-token'),
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('mints a prefilled answer set only from answers a save would accept', async () => {
    const minted = await post('/test/temporary-answers', { answers: { first_name: 'Maria' } });
    expect(minted.statusCode).toBe(200);
    const loaded = await app.inject(temporaryAnswersUrl(minted.json().token));
    expect(loaded.json().answer).toEqual({ first_name: 'Maria' });

    const refused = await post('/test/temporary-answers', { answers: { nickname: 'M' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({ nickname: [ANSWER_MESSAGES.unknownKey] });
  });

  it('answers nobody without the key', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/test/temporary-answers',
      payload: { answers: { first_name: 'Maria' } },
    });
    expect(response.statusCode).toBe(404);
  });

  it('answers nobody but this machine', async () => {
    const response = await post(
      '/test/temporary-answers',
      { answers: { first_name: 'Maria' } },
      '203.0.113.9',
    );
    expect(response.statusCode).toBe(404);
  });
});

describe('outside NODE_ENV=test', () => {
  it('the test-only link routes do not exist', async () => {
    const app = await buildTestApp('pglite', { env: { NODE_ENV: 'development' } });
    try {
      for (const url of ['/test/service-token', '/test/temporary-answers']) {
        const response = await app.inject({ method: 'POST', url: devToolsPath(url), payload: {} });
        expect(response.statusCode, url).toBe(404);
      }
    } finally {
      await app.close();
    }
  });
});
