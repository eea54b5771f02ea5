import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { LIMITS } from '../accounts/account-policy';
import { ConfigError, loadEnv } from '../config/env';
import { rowsOf } from '../db/database';
import { LOOKUP_LIMIT } from '../lookup/lookup-routes';
import { STRONG_PASSWORD } from '../test/accounts-helpers';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

const PRODUCTION = { NODE_ENV: 'production', PUBLIC_URL: 'https://apply.example.edu' };

/** The addresses the per-address limits have counted so far. */
async function countedAddresses(app: FastifyInstance, limit: string): Promise<string[]> {
  const rows = rowsOf<{ key: string }>(
    await testDatabaseOf(app).execute(
      sql`select key from rate_limits where key like ${`${limit}:%`} order by key`,
    ),
  );
  return rows.map((row) => row.key.slice(limit.length + 1));
}

describe.each(databaseKinds)('client addresses behind proxies on %s', (kind) => {
  let counter = 0;
  const signUp = (app: FastifyInstance, headers: Record<string, string>, remoteAddress?: string) =>
    app.inject({
      method: 'POST',
      url: '/public/signup',
      payload: { username: `proxy${++counter}.${kind}@example.edu`, password: STRONG_PASSWORD },
      headers,
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  describe('in production with no TRUST_PROXY', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await buildTestApp(kind, { env: PRODUCTION });
    });
    afterAll(async () => {
      await app.close();
    });

    it('counts the connection’s address whatever X-Forwarded-For says', async () => {
      const max = LIMITS.signupPerIp.max;
      for (let attempt = 0; attempt < max; attempt++) {
        const response = await signUp(app, { 'x-forwarded-for': `198.51.100.${attempt + 1}` });
        expect(response.statusCode).toBe(200);
      }
      const over = await signUp(app, { 'x-forwarded-for': '198.51.100.200' });
      expect(over.statusCode).toBe(429);
      expect(over.headers['retry-after']).toBeDefined();
      expect(await countedAddresses(app, LIMITS.signupPerIp.name)).toEqual(['127.0.0.1']);
    });

    it('counts lookups by the connection’s address too', async () => {
      // The lookup limit counts in memory: a different X-Forwarded-For on every search still
      // reaches it, because every search comes from the one connection's address. The clock is
      // held inside one window, so that the searches of a slow machine all count in it.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 1000));
      onTestFinished(() => {
        vi.useRealTimers();
      });
      const lookup = (n: number) =>
        app.inject({
          url: '/lookup/find?category=address&text=97201',
          headers: { 'x-forwarded-for': `198.51.100.${n % 250}` },
        });
      for (let n = 0; n < LOOKUP_LIMIT.max; n++) {
        expect((await lookup(n)).statusCode).toBe(200);
      }
      expect((await lookup(LOOKUP_LIMIT.max)).statusCode).toBe(429);
    });
  });

  describe('with TRUST_PROXY=1 (one reverse proxy in front)', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await buildTestApp(kind, { env: { ...PRODUCTION, TRUST_PROXY: '1' } });
    });
    afterAll(async () => {
      await app.close();
    });

    it('counts the address the proxy saw, not what the client wrote before it', async () => {
      await signUp(app, { 'x-forwarded-for': '10.9.9.9, 203.0.113.5' });
      await signUp(app, { 'x-forwarded-for': '10.8.8.8, 203.0.113.5' });
      await signUp(app, { 'x-forwarded-for': '203.0.113.6' });
      expect(await countedAddresses(app, LIMITS.signupPerIp.name)).toEqual([
        '203.0.113.5',
        '203.0.113.6',
      ]);
    });
  });

  describe('with TRUST_PROXY naming the proxy’s address', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await buildTestApp(kind, { env: { ...PRODUCTION, TRUST_PROXY: '10.0.0.0/8' } });
    });
    afterAll(async () => {
      await app.close();
    });

    it('believes the header only when it comes from that proxy', async () => {
      await signUp(app, { 'x-forwarded-for': '203.0.113.8' }, '10.1.2.3');
      await signUp(app, { 'x-forwarded-for': '203.0.113.9' }, '192.0.2.44');
      expect(await countedAddresses(app, LIMITS.signupPerIp.name)).toEqual([
        '192.0.2.44',
        '203.0.113.8',
      ]);
    });
  });
});

describe('TRUST_PROXY', () => {
  it('is off unless set', () => {
    expect(loadEnv({}).TRUST_PROXY).toBe(false);
    expect(loadEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
  });

  it('takes a hop count or addresses and ranges', () => {
    expect(loadEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadEnv({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
    expect(loadEnv({ TRUST_PROXY: 'loopback,uniquelocal' }).TRUST_PROXY).toEqual([
      'loopback',
      'uniquelocal',
    ]);
  });

  it('refuses trusting every hop, and what is not an address', () => {
    for (const value of ['true', '0', '11', 'proxy.example.edu', '10.0.0.0/33', '1.2.3.4/8/1']) {
      expect(() => loadEnv({ TRUST_PROXY: value }), value).toThrow(ConfigError);
    }
    expect(() => loadEnv({ TRUST_PROXY: 'true' })).toThrow('TRUST_PROXY: trusting every proxy');
  });
});
