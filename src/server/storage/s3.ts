import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { isObjectKey, type StorageDriver, type UploadPolicy } from './storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** For S3-compatible services (MinIO, Ceph, R2...); AWS itself needs none. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key`, as many S3-compatible services need. */
  forcePathStyle?: boolean;
}

function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404;
}

function checkedKey(key: string): string {
  if (!isObjectKey(key)) throw new Error('malformed object key');
  return key;
}

/**
 * Objects in an S3 bucket. Browsers upload straight to the bucket with a presigned POST whose
 * policy names the exact key, allows 1 byte to `maxBytes` and expires; the bucket enforces it.
 */
export async function s3Storage(options: S3StorageOptions): Promise<StorageDriver> {
  const { bucket } = options;
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle ?? false,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // Checksums only where S3 requires them: several S3-compatible services refuse the SDK's
    // default trailing checksums, and AWS accepts either.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  async function presign(key: string, maxBytes: number, expiresInSeconds: number) {
    return createPresignedPost(client, {
      Bucket: bucket,
      Key: key,
      Conditions: [['content-length-range', 1, maxBytes]],
      Expires: expiresInSeconds,
    });
  }

  // The SDK decides between path and virtual-host style (bucket names with dots, endpoints...);
  // asking it for one form, which signs locally without a request, gives the exact origin.
  const uploadOrigin = new URL((await presign('origin-probe', 1, 60)).url).origin;

  return {
    uploadOrigin,
    async put(key, bytes) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: checkedKey(key),
          Body: bytes,
          ContentType: 'application/octet-stream',
        }),
      );
    },
    async get(key) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: checkedKey(key) }),
        );
        if (!object.Body) return null;
        return await object.Body.transformToByteArray();
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async putFile(key, file, size) {
      // One PUT from the file as it is read: S3 takes up to 5 GB so, with the length known.
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: checkedKey(key),
          Body: createReadStream(file),
          ContentLength: size,
          ContentType: 'application/octet-stream',
        }),
      );
    },
    async getStream(key) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: checkedKey(key) }),
        );
        if (!object.Body) return null;
        // On Node the SDK's body is a Readable already.
        return object.Body instanceof Readable
          ? object.Body
          : Readable.fromWeb(object.Body.transformToWebStream() as never);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async size(key) {
      try {
        const head = await client.send(
          new HeadObjectCommand({ Bucket: bucket, Key: checkedKey(key) }),
        );
        return head.ContentLength ?? null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: checkedKey(key) }));
    },
    async createUploadPolicy(key, { maxBytes, expiresInSeconds }): Promise<UploadPolicy> {
      const { url, fields } = await presign(checkedKey(key), maxBytes, expiresInSeconds);
      // `key` first: S3 reads the fields in order and the file must come after all of them.
      return { url, fields: { key, ...fields } };
    },
  };
}
