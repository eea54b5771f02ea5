import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from '../config/env';
import {
  buildTestApp,
  devToolsPath,
  TEST_AUDIT_CHAIN_KEY,
  TEST_DEV_TOOLS_KEY,
} from '../test/test-app';

describe('the development outbox', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp('pglite', { env: { NODE_ENV: 'development' } });
  });
  afterAll(async () => {
    await app.close();
  });

  const outbox = (
    options: { url?: string; remoteAddress?: string; headers?: Record<string, string> } = {},
  ) =>
    app.inject({
      url: options.url ?? devToolsPath('/dev/mail.json'),
      remoteAddress: options.remoteAddress ?? '127.0.0.1',
      headers: options.headers ?? {},
    });

  it('opens on this machine with the key', async () => {
    const response = await outbox();
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect((await outbox({ url: devToolsPath('/dev/mail') })).statusCode).toBe(200);
  });

  it('is not there without the key, or with a wrong one', async () => {
    expect((await outbox({ url: '/dev/mail.json' })).statusCode).toBe(404);
    expect((await outbox({ url: '/dev/mail' })).statusCode).toBe(404);
    const wrong = TEST_DEV_TOOLS_KEY.replace(/.$/, 'x');
    expect((await outbox({ url: `/dev/mail.json?key=${wrong}` })).statusCode).toBe(404);
  });

  it('is not there for another machine, even with the key', async () => {
    expect((await outbox({ remoteAddress: '203.0.113.9' })).statusCode).toBe(404);
  });

  it('is not there through a reverse proxy on this machine', async () => {
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host']) {
      const response = await outbox({ headers: { [header]: '203.0.113.9' } });
      expect(response.statusCode, header).toBe(404);
    }
  });

  it('is not there under another host name (DNS rebinding from a web page)', async () => {
    const response = await outbox({ headers: { host: 'attacker.example:3000' } });
    expect(response.statusCode).toBe(404);
  });
});

describe('where the outbox does not exist', () => {
  it('in production, whatever is sent', async () => {
    const app = await buildTestApp('pglite', {
      env: { NODE_ENV: 'production', PUBLIC_URL: 'https://apply.example.edu' },
    });
    try {
      for (const url of ['/dev/mail', '/dev/mail.json', devToolsPath('/dev/mail.json')]) {
        expect((await app.inject(url)).statusCode, url).toBe(404);
      }
    } finally {
      await app.close();
    }
  });

  it('when mail goes out through SMTP', async () => {
    const app = await buildTestApp('pglite', {
      env: { NODE_ENV: 'development', SMTP_URL: 'smtp://127.0.0.1:2525' },
    });
    try {
      expect((await app.inject(devToolsPath('/dev/mail.json'))).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe('a forgotten NODE_ENV fails closed', () => {
  it('listens on this machine only unless in production', () => {
    expect(loadEnv({}).HOST).toBe('127.0.0.1');
    expect(loadEnv({ NODE_ENV: 'test' }).HOST).toBe('127.0.0.1');
    expect(
      loadEnv({
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://a.example.edu',
        AUDIT_CHAIN_KEY: TEST_AUDIT_CHAIN_KEY,
      }).HOST,
    ).toBe('0.0.0.0');
    expect(loadEnv({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it('refuses a development tools key in production', () => {
    expect(() =>
      loadEnv({
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://a.example.edu',
        AUDIT_CHAIN_KEY: TEST_AUDIT_CHAIN_KEY,
        DEV_TOOLS_KEY: TEST_DEV_TOOLS_KEY,
      }),
    ).toThrow(ConfigError);
  });
});
