import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  isObjectKey,
  type PolicyCheck,
  type SelfReceivingStorage,
  type UploadPolicy,
  type UploadPolicyOptions,
} from './storage';

export const UPLOAD_URL = '/public/upload';
export const UPLOAD_REFUSED_MESSAGE = 'This upload was refused. Please try uploading again.';
export const UPLOAD_EXPIRED_MESSAGE = 'This upload link has expired. Please try uploading again.';

export interface LocalDiskOptions {
  /** The folder holding every object, e.g. DATA_DIR/uploads. */
  root: string;
  /**
   * The HMAC key of upload policies. With several servers it must be the same on all of them
   * (UPLOAD_SIGNING_SECRET), or a policy signed by one is refused by the next.
   */
  secret?: string;
  now?: () => number;
}

interface PolicyBody {
  key: string;
  max_bytes: number;
  expires_at: string;
}

/** Objects as files under `root/{accountId}/{uuid}`, and HMAC-signed upload policies. */
export function localDiskStorage(options: LocalDiskOptions): SelfReceivingStorage {
  const secret = options.secret || randomBytes(32).toString('hex');
  const now = options.now ?? Date.now;
  const root = path.resolve(options.root);

  function fileOf(key: string): string {
    if (!isObjectKey(key)) throw new Error('malformed object key');
    return path.join(root, ...key.split('/'));
  }
  const sign = (policy: string) => createHmac('sha256', secret).update(policy).digest('base64url');

  return {
    async put(key, bytes) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const partial = `${file}.${randomBytes(6).toString('hex')}.part`;
      await writeFile(partial, bytes);
      await rename(partial, file);
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(fileOf(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async putFile(key, source) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Copied, not moved: the source may be on another file system (the temporary folder).
      const partial = `${file}.${randomBytes(6).toString('hex')}.part`;
      try {
        await copyFile(source, partial);
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async getStream(key) {
      const file = fileOf(key);
      try {
        await stat(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      return createReadStream(file);
    },
    async size(key) {
      try {
        return (await stat(fileOf(key))).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    async createUploadPolicy(
      key: string,
      { maxBytes, expiresInSeconds }: UploadPolicyOptions,
    ): Promise<UploadPolicy> {
      fileOf(key);
      const body: PolicyBody = {
        key,
        max_bytes: maxBytes,
        expires_at: new Date(now() + expiresInSeconds * 1000).toISOString(),
      };
      const policy = Buffer.from(JSON.stringify(body)).toString('base64url');
      return { url: UPLOAD_URL, fields: { key, policy, signature: sign(policy) } };
    },
    verifyUploadPolicy({ key, policy, signature }): PolicyCheck {
      const refused = { ok: false, statusCode: 403, message: UPLOAD_REFUSED_MESSAGE } as const;
      if (!key || !policy || !signature) {
        return { ok: false, statusCode: 400, message: UPLOAD_REFUSED_MESSAGE };
      }
      const expected = Buffer.from(sign(policy));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return refused;
      let body: PolicyBody;
      try {
        body = JSON.parse(Buffer.from(policy, 'base64url').toString('utf8')) as PolicyBody;
      } catch {
        return refused;
      }
      if (body.key !== key || !isObjectKey(key) || typeof body.max_bytes !== 'number') {
        return refused;
      }
      const expiresAt = Date.parse(body.expires_at);
      if (!Number.isFinite(expiresAt) || expiresAt <= now()) {
        return { ok: false, statusCode: 403, message: UPLOAD_EXPIRED_MESSAGE };
      }
      return { ok: true, key, maxBytes: body.max_bytes };
    },
  };
}
