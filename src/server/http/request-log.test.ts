import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/test-app';
import { appLoggerOptions } from './logger-options';

interface LogLine {
  reqId?: string;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

describe('the request log', () => {
  let app: FastifyInstance;
  const lines: LogLine[] = [];
  const linesOf = (requestId: unknown) => lines.filter((line) => line.reqId === requestId);

  beforeAll(async () => {
    app = await buildTestApp('pglite', {
      logger: appLoggerOptions('info', { write: (line: string) => lines.push(JSON.parse(line)) }),
      extend(instance) {
        instance.get('/api/test-fails', async () => {
          throw new Error('an internal failure');
        });
      },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('writes one line per request with its method, address, status and time', async () => {
    const response = await app.inject('/healthz?token=secret-value');
    const logged = linesOf(response.headers['x-request-id']);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(logged[0]?.req?.url).not.toContain('secret-value');
  });

  it('never carries cookies, credentials or the cookies set', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/public/login',
      headers: { cookie: 'tp_session=secret-cookie', authorization: 'Bearer secret-bearer' },
      payload: { username: 'nobody@example.edu', password: 'secret-password' },
    });
    const logged = JSON.stringify(linesOf(response.headers['x-request-id']));
    expect(logged).toContain('request completed');
    for (const secret of ['secret-cookie', 'secret-bearer', 'secret-password', 'set-cookie']) {
      expect(logged).not.toContain(secret);
    }
  });

  it('keeps the line of a refused request and the error line of a failed one', async () => {
    const refused = await app.inject({ method: 'GET', url: '/api/profile' });
    expect(linesOf(refused.headers['x-request-id'])).toEqual([
      expect.objectContaining({ msg: 'request completed', res: { statusCode: 401 } }),
    ]);
    const failed = await app.inject('/api/test-fails');
    expect(failed.statusCode).toBe(500);
    expect(linesOf(failed.headers['x-request-id']).map((line) => line.msg)).toEqual([
      'request failed',
      'request completed',
    ]);
  });
});
