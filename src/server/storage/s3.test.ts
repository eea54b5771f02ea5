import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_MAX_BYTES } from '../../shared/constants';
import { fixtureModel } from '../../shared/test/fixture-model';
import { UPLOAD_POLICY_SECONDS } from '../documents/document-routes';
import { signedInApplicant } from '../test/accounts-helpers';
import { makePng } from '../test/sample-files';
import { buildTestApp } from '../test/test-app';
import { s3Storage } from './s3';
import { newObjectKey, receivesUploads, type StorageDriver, type UploadPolicy } from './storage';

// s3rver's built-in account.
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';
const BUCKET = 'portal-uploads';
const REGION = 'us-east-1';
const ACCOUNT = '9b2f3c1e-7a4d-4e8b-9c6f-1d2e3f4a5b6c';

/** Posts a presigned form as a browser would: every field in order, then the file. */
async function postForm(policy: UploadPolicy, file: Uint8Array) {
  const form = new FormData();
  for (const [name, value] of Object.entries(policy.fields)) form.append(name, value);
  form.append('file', new Blob([Buffer.from(file)]), 'upload.png');
  return fetch(policy.url, { method: 'POST', body: form });
}

/** The signature AWS computes for a POST policy (Signature Version 4). */
function expectedSignature(policy: string, credential: string) {
  const [, date, region, service] = credential.split('/') as [string, string, string, string];
  let key: Buffer = createHmac('sha256', `AWS4${SECRET_KEY}`).update(date).digest();
  for (const part of [region, service, 'aws4_request']) {
    key = createHmac('sha256', key).update(part).digest();
  }
  return createHmac('sha256', key).update(policy).digest('hex');
}

/** An S3-compatible server on a free port, with the test bucket, storing under a new folder. */
async function startS3rver(
  folderPrefix: string,
): Promise<{ server: S3rver; directory: string; endpoint: string }> {
  const directory = await mkdtemp(path.join(tmpdir(), folderPrefix));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  return { server, directory, endpoint: `http://127.0.0.1:${port}` };
}

describe('S3 storage against s3rver', () => {
  let server: S3rver;
  let directory: string;
  let endpoint: string;
  let storage: StorageDriver;

  beforeAll(async () => {
    ({ server, directory, endpoint } = await startS3rver('portal-s3-'));
    storage = await s3Storage({
      bucket: BUCKET,
      region: REGION,
      endpoint,
      accessKeyId: ACCESS_KEY,
      secretAccessKey: SECRET_KEY,
      forcePathStyle: true,
    });
  });
  afterAll(async () => {
    await server.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('puts, gets, sizes and deletes objects; a missing one is null', async () => {
    const key = newObjectKey(ACCOUNT);
    const bytes = makePng({ width: 9, height: 4 });
    expect(await storage.get(key)).toBeNull();
    expect(await storage.size(key)).toBeNull();
    await storage.put(key, bytes);
    expect(await storage.size(key)).toBe(bytes.length);
    expect(Buffer.from((await storage.get(key)) as Uint8Array).equals(Buffer.from(bytes))).toBe(
      true,
    );
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('stores a file from disk and reads it back as a stream', async () => {
    const key = newObjectKey(ACCOUNT);
    const bytes = makePng({ width: 40, height: 30 });
    const folder = await mkdtemp(path.join(tmpdir(), 'portal-s3-file-'));
    const file = path.join(folder, 'streamed.bin');
    await writeFile(file, bytes);
    await storage.putFile?.(key, file, bytes.length);
    expect(await storage.size(key)).toBe(bytes.length);
    const stream = await storage.getStream?.(key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream ?? []) chunks.push(Buffer.from(chunk as Uint8Array));
    expect(Buffer.concat(chunks).equals(Buffer.from(bytes))).toBe(true);
    await storage.delete(key);
    expect(await storage.getStream?.(key)).toBeNull();
    await rm(folder, { recursive: true, force: true });
  });

  it('refuses keys the server did not make', async () => {
    await expect(storage.put('../etc/passwd', new Uint8Array([1]))).rejects.toThrow(/key/);
    await expect(storage.get(`${ACCOUNT}/name.png`)).rejects.toThrow(/key/);
    await expect(
      storage.createUploadPolicy('any/key', { maxBytes: 10, expiresInSeconds: 60 }),
    ).rejects.toThrow(/key/);
  });

  it('has no upload route of its own and names the origin browsers post to', () => {
    expect(receivesUploads(storage)).toBe(false);
    expect(storage.uploadOrigin).toBe(endpoint);
  });

  it('makes a presigned POST for one exact key, 1 byte to 1 MB, for 5 minutes', async () => {
    const key = newObjectKey(ACCOUNT);
    const before = Date.now();
    const policy = await storage.createUploadPolicy(key, {
      maxBytes: FILE_MAX_BYTES,
      expiresInSeconds: UPLOAD_POLICY_SECONDS,
    });
    expect(policy.url).toBe(`${endpoint}/${BUCKET}`);
    expect(Object.keys(policy.fields)[0]).toBe('key');
    expect(policy.fields.key).toBe(key);
    const { Policy, 'X-Amz-Signature': signature, 'X-Amz-Credential': credential } = policy.fields;
    const document = JSON.parse(Buffer.from(Policy as string, 'base64').toString('utf8')) as {
      expiration: string;
      conditions: unknown[];
    };
    expect(document.conditions).toEqual(
      expect.arrayContaining([
        { key },
        { bucket: BUCKET },
        ['content-length-range', 1, FILE_MAX_BYTES],
      ]),
    );
    expect(document.conditions).not.toContainEqual(expect.arrayContaining(['starts-with']));
    const expiresIn = Date.parse(document.expiration) - before;
    expect(expiresIn).toBeGreaterThan((UPLOAD_POLICY_SECONDS - 5) * 1000);
    expect(expiresIn).toBeLessThanOrEqual((UPLOAD_POLICY_SECONDS + 1) * 1000);
    expect(signature).toBe(expectedSignature(Policy as string, credential as string));
  });

  it('takes a real file posted with the presigned form', async () => {
    const key = newObjectKey(ACCOUNT);
    const bytes = makePng({ width: 30, height: 20 });
    const policy = await storage.createUploadPolicy(key, {
      maxBytes: FILE_MAX_BYTES,
      expiresInSeconds: UPLOAD_POLICY_SECONDS,
    });
    const response = await postForm(policy, bytes);
    expect(response.status).toBe(204);
    expect(await storage.size(key)).toBe(bytes.length);
    expect(Buffer.from((await storage.get(key)) as Uint8Array).equals(Buffer.from(bytes))).toBe(
      true,
    );
  });
});

describe('the app on S3 storage', () => {
  let server: S3rver;
  let directory: string;
  let endpoint: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    ({ server, directory, endpoint } = await startS3rver('portal-s3-app-'));
    app = await buildTestApp('pglite', {
      model: fixtureModel,
      env: {
        S3_BUCKET: BUCKET,
        S3_REGION: REGION,
        S3_ENDPOINT: endpoint,
        S3_ACCESS_KEY_ID: ACCESS_KEY,
        S3_SECRET_ACCESS_KEY: SECRET_KEY,
        S3_FORCE_PATH_STYLE: 'true',
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await server.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('lets the browser post to the bucket and has no upload route of its own', async () => {
    const csp = (await app.inject('/healthz')).headers['content-security-policy'] as string;
    expect(csp).toContain(`connect-src 'self' ${endpoint}`);
    expect(csp).toContain(`form-action 'self' ${endpoint}`);
    const local = await app.inject({ method: 'POST', url: '/public/upload', payload: {} });
    expect(local.statusCode).toBe(404);
  });

  it('uploads to the bucket, converts the file and serves the PDF', async () => {
    const cookie = await signedInApplicant(app, 's3.flow@example.edu');
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    const presigned = await call('POST', '/api/presigned-url', { answer_key: 'statement_doc' });
    expect(presigned.statusCode).toBe(200);
    const policy = presigned.json() as UploadPolicy;
    expect(policy.url).toBe(`${endpoint}/${BUCKET}`);

    expect((await postForm(policy, makePng({ width: 16, height: 12 }))).status).toBe(204);
    const started = await call('POST', '/api/pdf/document-answer/statement_doc', {
      file_key: policy.fields.key,
      file_name: 'scan.png',
    });
    expect(started.statusCode).toBe(202);
    let status = { status: 'UNPROCESSED' };
    for (let i = 0; i < 1000 && ['UNPROCESSED', 'IN_PROGRESS'].includes(status.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = (await call('GET', '/api/pdf/document-answer/statement_doc')).json();
    }
    expect(status).toMatchObject({ status: 'COMPLETED' });
    const pdf = await call('GET', '/api/document/statement_doc/pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
