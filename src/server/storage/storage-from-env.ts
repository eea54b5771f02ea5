import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../config/env';
import { lazy } from '../runtime/lazy';
import { localDiskStorage } from './local-disk';
import type { StorageDriver } from './storage';

/** The AWS SDK (many megabytes) loads only on servers that use S3. */
const s3 = lazy(() => import('./s3'));

/** S3 when S3_BUCKET is set (env.ts has checked the rest), else local disk under DATA_DIR. */
export async function storageFromEnv(
  env: Env,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<StorageDriver> {
  if (env.S3_BUCKET) {
    return (await s3()).s3Storage({
      bucket: env.S3_BUCKET,
      region: env.S3_REGION ?? '',
      endpoint: env.S3_ENDPOINT,
      accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    });
  }
  // Upload policies are signed with UPLOAD_SIGNING_SECRET. Without it each process makes its own,
  // which is fine for one embedded server; several servers behind a balancer need a shared one.
  const secret = env.UPLOAD_SIGNING_SECRET;
  if (!secret && env.DATABASE_URL) {
    log.warn('UPLOAD_SIGNING_SECRET is not set: uploads only work on the server that signed them');
  }
  return localDiskStorage({ root: path.join(env.DATA_DIR, 'uploads'), secret });
}
