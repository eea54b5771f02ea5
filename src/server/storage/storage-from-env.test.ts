import { describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from '../config/env';
import { receivesUploads } from './storage';
import { storageFromEnv } from './storage-from-env';

const s3 = {
  S3_BUCKET: 'admissions-uploads',
  S3_REGION: 'eu-west-1',
  S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
  S3_SECRET_ACCESS_KEY: 'secret-example',
};
const quiet = { warn: () => {} };

function configError(source: Record<string, string>): string {
  try {
    loadEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the environment was accepted');
}

describe('storage and job settings', () => {
  it('needs the region and both keys with S3_BUCKET, naming each one missing', () => {
    const message = configError({ S3_BUCKET: 'uploads' });
    expect(message).toContain('S3_REGION: is required when S3_BUCKET is set');
    expect(message).toContain('S3_ACCESS_KEY_ID: is required when S3_BUCKET is set');
    expect(message).toContain('S3_SECRET_ACCESS_KEY: is required when S3_BUCKET is set');
  });

  it('refuses S3 settings without a bucket, a malformed endpoint and unclear flags', () => {
    expect(configError({ S3_REGION: 'eu-west-1' })).toContain('S3_REGION: is set but S3_BUCKET');
    expect(configError({ ...s3, S3_ENDPOINT: 'minio:9000' })).toContain('S3_ENDPOINT');
    expect(configError({ ...s3, S3_FORCE_PATH_STYLE: 'yes' })).toContain(
      'S3_FORCE_PATH_STYLE: must be true or false',
    );
    expect(configError({ RUN_JOBS: '0' })).toContain('RUN_JOBS: must be true or false');
  });

  it('lets a server run no jobs only on PostgreSQL', () => {
    expect(configError({ RUN_JOBS: 'false' })).toContain('RUN_JOBS: can only be false');
    const env = loadEnv({ RUN_JOBS: 'false', DATABASE_URL: 'postgres://db/portal' });
    expect(env.RUN_JOBS).toBe(false);
    expect(loadEnv({}).RUN_JOBS).toBe(true);
  });

  it('uses S3 when S3_BUCKET is set, and local disk otherwise', async () => {
    const aws = await storageFromEnv(loadEnv(s3), quiet);
    expect(receivesUploads(aws)).toBe(false);
    expect(aws.uploadOrigin).toBe('https://admissions-uploads.s3.eu-west-1.amazonaws.com');

    const compatible = await storageFromEnv(
      loadEnv({ ...s3, S3_ENDPOINT: 'https://files.example.edu', S3_FORCE_PATH_STYLE: 'true' }),
      quiet,
    );
    expect(compatible.uploadOrigin).toBe('https://files.example.edu');

    const local = await storageFromEnv(loadEnv({ DATA_DIR: '/tmp/portal-unused' }), quiet);
    expect(receivesUploads(local)).toBe(true);
    expect(local.uploadOrigin).toBeUndefined();
  });

  it('warns that several servers need a shared signing secret for local uploads', async () => {
    const warnings: unknown[] = [];
    await storageFromEnv(loadEnv({ DATABASE_URL: 'postgres://db/portal' }), {
      warn: (...args: unknown[]) => warnings.push(args),
    });
    expect(warnings).toHaveLength(1);
  });
});
