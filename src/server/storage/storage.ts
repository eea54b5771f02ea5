import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';

/**
 * A browser upload form: POST multipart to `url` with every one of `fields`, in order, then the
 * `file` part. `key` is the object's key; the other fields differ between drivers.
 */
export interface UploadPolicy {
  url: string;
  fields: { key: string } & Record<string, string>;
}

export interface UploadPolicyOptions {
  maxBytes: number;
  expiresInSeconds: number;
}

export type PolicyCheck =
  | { ok: true; key: string; maxBytes: number }
  | { ok: false; statusCode: 400 | 403; message: string };

/**
 * Where uploaded files and converted PDFs live: local disk (`local-disk.ts`) or S3-compatible
 * storage (`s3.ts`). Keys are made by the server only (`newObjectKey`); no text from a request
 * ever becomes part of a path or object name.
 */
export interface StorageDriver {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or null when there is no such object. */
  get(key: string): Promise<Uint8Array | null>;
  /** Size in bytes, or null when there is no such object. */
  size(key: string): Promise<number | null>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Stores a file from local disk of `size` bytes without holding it in memory (a large export).
   * A driver without it is given the bytes through `put`: see `putFileIn`.
   */
  putFile?(key: string, file: string, size: number): Promise<void>;
  /** The object read as it is sent, or null when there is none. See `getStreamOf`. */
  getStream?(key: string): Promise<Readable | null>;
  /** A form for one upload of exactly `key`, at most `maxBytes`, until it expires. */
  createUploadPolicy(key: string, options: UploadPolicyOptions): Promise<UploadPolicy>;
  /**
   * The origin browsers post uploads to when it is not the app's own (S3); the Content Security
   * Policy must allow it.
   */
  readonly uploadOrigin?: string;
}

/**
 * A driver whose uploads the app receives itself, at `/public/upload` (local disk); the route
 * checks each form with `verifyUploadPolicy`. With S3 the browser posts to the bucket, which
 * checks the policy, and the app has no upload route.
 */
export interface SelfReceivingStorage extends StorageDriver {
  verifyUploadPolicy(fields: { key?: string; policy?: string; signature?: string }): PolicyCheck;
}

export function receivesUploads(storage: StorageDriver): storage is SelfReceivingStorage {
  return 'verifyUploadPolicy' in storage;
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

/** Stores a file through the driver's streaming upload, or whole where it has none. */
export async function putFileIn(
  storage: StorageDriver,
  key: string,
  file: string,
  size: number,
): Promise<void> {
  if (storage.putFile) return storage.putFile(key, file, size);
  await storage.put(key, new Uint8Array(await readFile(file)));
}

/** Reads an object as a stream where the driver can, whole otherwise. */
export async function getStreamOf(storage: StorageDriver, key: string): Promise<Readable | null> {
  if (storage.getStream) return storage.getStream(key);
  const bytes = await storage.get(key);
  return bytes
    ? Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)])
    : null;
}
