import { randomUUID } from 'node:crypto';

/** A browser upload form: POST multipart to `url` with `fields` first, then the `file` part. */
export interface UploadPolicy {
  url: string;
  fields: { key: string; policy: string; signature: string };
}

export interface UploadPolicyOptions {
  maxBytes: number;
  expiresInSeconds: number;
}

export type PolicyCheck =
  | { ok: true; key: string; maxBytes: number }
  | { ok: false; statusCode: 400 | 403; message: string };

/**
 * Where uploaded files and converted PDFs live. Keys are made by the server only
 * (`newObjectKey`); no text from a request ever becomes part of a path or object name.
 * The local-disk driver is the only one today; an S3 driver would keep the same shape, its
 * presigned POST replacing `createUploadPolicy` and `/public/upload`.
 */
export interface StorageDriver {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or null when there is no such object. */
  get(key: string): Promise<Uint8Array | null>;
  /** Size in bytes, or null when there is no such object. */
  size(key: string): Promise<number | null>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  createUploadPolicy(key: string, options: UploadPolicyOptions): UploadPolicy;
  verifyUploadPolicy(fields: { key?: string; policy?: string; signature?: string }): PolicyCheck;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const OBJECT_KEY = new RegExp(`^(${UUID})/(${UUID})$`);

/** A fresh object key in the account's own namespace. */
export function newObjectKey(accountId: string): string {
  return `${accountId}/${randomUUID()}`;
}

/** Whether `key` has the server's shape (`{uuid}/{uuid}`); anything else is refused. */
export function isObjectKey(key: string): boolean {
  return OBJECT_KEY.test(key);
}

/** The account an object key belongs to, or null for a malformed key. */
export function ownerOfKey(key: string): string | null {
  return OBJECT_KEY.exec(key)?.[1] ?? null;
}
