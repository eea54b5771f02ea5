import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './config/project-root';
import { lazy } from './runtime/lazy';

/** The packages a fresh process loads while it builds the app and gets it ready. */
async function packagesLoadedAtStart(env: Record<string, string> = {}): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', path.join(projectRoot, 'src/server/test/packages-loaded-at-start.ts')],
    { cwd: projectRoot, env: { ...process.env, APP_ENV: JSON.stringify(env) } },
  );
  return JSON.parse(stdout) as string[];
}

const S3_ENV = {
  S3_BUCKET: 'applications',
  S3_REGION: 'us-east-1',
  S3_ENDPOINT: 'http://127.0.0.1:9',
  S3_ACCESS_KEY_ID: 'test-key',
  S3_SECRET_ACCESS_KEY: 'test-secret',
};

describe('what a server loads at start', () => {
  it('leaves the AWS SDK, the document converters, pg-boss, the ZIP codes, the SMTP client and the staff sign-in libraries for first use', async () => {
    const loaded = await packagesLoadedAtStart();
    expect(loaded).toContain('fastify');
    for (const name of [
      '@aws-sdk/client-s3',
      '@aws-sdk/s3-presigned-post',
      'mammoth',
      'pdf-lib',
      '@cantoo/fontkit',
      'pg-boss',
      'zipcodes',
      'nodemailer',
      'otplib',
      'qrcode',
      'openid-client',
    ]) {
      expect(loaded, name).not.toContain(name);
    }
  }, 60_000);

  it('leaves openid-client for the first single sign-on, even when it is configured', async () => {
    const loaded = await packagesLoadedAtStart({
      OIDC_ISSUER: 'https://login.example.edu',
      OIDC_CLIENT_ID: 'portal',
      OIDC_CLIENT_SECRET: 'secret',
    });
    expect(loaded).not.toContain('openid-client');
    expect(loaded).not.toContain('oauth4webapi');
  }, 60_000);

  it('loads the AWS SDK when S3 stores the files', async () => {
    const loaded = await packagesLoadedAtStart(S3_ENV);
    expect(loaded).toContain('@aws-sdk/client-s3');
    expect(loaded).toContain('@aws-sdk/s3-presigned-post');
  }, 60_000);
});

describe('lazy', () => {
  it('loads once, on the first call, and shares the answer', async () => {
    let loads = 0;
    const value = lazy(async () => ++loads);
    expect(loads).toBe(0);
    expect(await Promise.all([value(), value()])).toEqual([1, 1]);
    expect(await value()).toBe(1);
    expect(loads).toBe(1);
  });

  it('tries again after a failed load', async () => {
    let loads = 0;
    const value = lazy(async () => {
      loads++;
      if (loads === 1) throw new Error('not yet');
      return 'loaded';
    });
    await expect(value()).rejects.toThrow('not yet');
    expect(await value()).toBe('loaded');
  });
});
