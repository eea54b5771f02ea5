import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModel } from '../../shared/test/fixture-model';
import { accounts, documentAnswers, documentUploads } from '../db/schema';
import { localDiskStorage } from '../storage/local-disk';
import { signedInApplicant } from '../test/accounts-helpers';
import { makePng } from '../test/sample-files';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { removeExpiredUploads, startUploadCleanup } from './upload-cleanup';

const KEY = 'statement_doc';
const SECRET = 'cleanup-upload-secret-of-at-least-32-chars';
const silentLog = { warn: () => {}, error: () => {} };

describe.each(databaseKinds)('removing expired uploads on %s', (kind) => {
  let app: FastifyInstance;
  let dataDir: string;
  let counter = 0;
  const storage = () => localDiskStorage({ root: path.join(dataDir, 'uploads'), secret: SECRET });
  const db = () => testDatabaseOf(app);

  /** A key issued to a new applicant, its file uploaded, expiring at `expiresAt` (SQL). */
  async function issuedKey(expiresAt: ReturnType<typeof sql>) {
    const email = `cleanup${++counter}.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    const presigned = await app.inject({
      method: 'POST',
      url: '/api/presigned-url',
      headers: { cookie },
      payload: { answer_key: KEY },
    });
    const { fields } = presigned.json() as { fields: { key: string } };
    await storage().put(fields.key, makePng({ width: 3, height: 3 }));
    await db()
      .update(documentUploads)
      .set({ expiresAt: expiresAt })
      .where(eq(documentUploads.fileKey, fields.key));
    const [account] = await db()
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    return { fileKey: fields.key, accountId: account?.id as string };
  }
  const rowsLeft = async (keys: string[]) =>
    (
      await db()
        .select({ fileKey: documentUploads.fileKey })
        .from(documentUploads)
        .where(inArray(documentUploads.fileKey, keys))
    )
      .map((row) => row.fileKey)
      .sort();

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-cleanup-'));
    app = await buildTestApp(kind, {
      model: fixtureModel,
      env: { DATA_DIR: dataDir, UPLOAD_SIGNING_SECRET: SECRET },
    });
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('removes keys expired over an hour ago and their files, and nothing else', async () => {
    const stale = await issuedKey(sql`now() - interval '2 hours'`);
    const justExpired = await issuedKey(sql`now() - interval '10 minutes'`);
    const valid = await issuedKey(sql`now() + interval '1 hour'`);
    const inUse = await issuedKey(sql`now() - interval '3 hours'`);
    await db().insert(documentAnswers).values({
      accountId: inUse.accountId,
      answerKey: KEY,
      fileKey: inUse.fileKey,
      fileName: 'kept.png',
      fileSize: 10,
      status: 'COMPLETED',
    });

    expect(await removeExpiredUploads(db(), storage())).toBe(1);
    expect(await storage().get(stale.fileKey)).toBeNull();
    const kept = [justExpired, valid, inUse].map((key) => key.fileKey);
    expect(await rowsLeft([stale.fileKey, ...kept])).toEqual([...kept].sort());
    for (const key of kept) expect(await storage().size(key)).not.toBeNull();
    expect(await removeExpiredUploads(db(), storage())).toBe(0);
  });

  it('runs on a timer until stopped', async () => {
    const stale = await issuedKey(sql`now() - interval '5 hours'`);
    const cleanup = startUploadCleanup({
      db: db(),
      storage: storage(),
      log: silentLog,
      intervalMs: 20,
    });
    try {
      for (let i = 0; i < 500 && (await rowsLeft([stale.fileKey])).length > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await rowsLeft([stale.fileKey])).toEqual([]);
      expect(await storage().get(stale.fileKey)).toBeNull();
    } finally {
      await cleanup.stop();
    }
  });

  it('logs a failing run and keeps running', async () => {
    const stale = await issuedKey(sql`now() - interval '5 hours'`);
    const errors: unknown[] = [];
    let failures = 1;
    const flaky = {
      ...storage(),
      async delete(key: string) {
        if (failures-- > 0) throw new Error('storage is down');
        await storage().delete(key);
      },
    };
    const cleanup = startUploadCleanup({
      db: db(),
      storage: flaky,
      log: { warn: () => {}, error: (...args: unknown[]) => errors.push(args) },
      intervalMs: 20,
    });
    try {
      for (let i = 0; i < 500 && (await rowsLeft([stale.fileKey])).length > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await rowsLeft([stale.fileKey])).toEqual([]);
      expect(errors.length).toBeGreaterThanOrEqual(1);
    } finally {
      await cleanup.stop();
    }
  });
});
