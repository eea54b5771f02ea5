import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModel } from '../../shared/test/fixture-model';
import { buildApp } from '../app';
import { loadEnv } from '../config/env';
import { loadTenantConfig } from '../config/tenant';
import { type DatabaseHandle, openDatabase, rowsOf } from '../db/database';
import { accounts, documentAnswers } from '../db/schema';
import { localDiskStorage } from '../storage/local-disk';
import { newObjectKey } from '../storage/storage';
import { signedInApplicant } from '../test/accounts-helpers';
import { makePng } from '../test/sample-files';
import { sampleTenantFile, TEST_DEV_TOOLS_KEY } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { CONVERSION_JOB } from './conversion-jobs';

const KEY = 'statement_doc';
const SECRET = 'shared-upload-secret-of-at-least-32-chars';

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * Several servers on one PostgreSQL database: a web server that runs no jobs (RUN_JOBS=false)
 * and a worker, sharing the database and the upload folder as they would share S3.
 */
describe.runIf(databaseKinds.includes('postgres'))('conversion jobs shared through pg-boss', () => {
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  let url: string;
  let dataDir: string;
  const apps: FastifyInstance[] = [];
  let web: FastifyInstance;
  let probe: DatabaseHandle;

  async function server(runJobs: boolean): Promise<FastifyInstance> {
    const env = loadEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      UPLOAD_SIGNING_SECRET: SECRET,
      RUN_JOBS: String(runJobs),
      DEV_TOOLS_KEY: TEST_DEV_TOOLS_KEY,
    });
    const app = await buildApp({
      env,
      tenant: await loadTenantConfig(sampleTenantFile),
      database: await openDatabase({ kind: 'postgres', url, poolSize: 5 }),
      logger: false,
      model: fixtureModel,
    });
    await app.ready();
    apps.push(app);
    return app;
  }

  const call = (cookie: string, method: 'GET' | 'POST', route: string, payload?: object) =>
    web.inject({ method, url: route, headers: { cookie }, ...(payload ? { payload } : {}) });
  async function settled(cookie: string) {
    for (let i = 0; i < 2000; i++) {
      const status = (await call(cookie, 'GET', `/api/pdf/document-answer/${KEY}`)).json();
      if (status.status !== 'UNPROCESSED' && status.status !== 'IN_PROGRESS') return status;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('conversion did not settle');
  }
  const jobStates = async () =>
    rowsOf<{ state: string }>(
      await probe.db.execute(
        sql`select state from pgboss.job where name = ${CONVERSION_JOB} order by created_on`,
      ),
    ).map((row) => row.state);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-shared-'));
    await admin((client) => client.query(`create database "${name}"`));
    const target = new URL(process.env.DATABASE_URL as string);
    target.pathname = `/${name}`;
    url = target.toString();
    web = await server(false);
    probe = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await probe?.close();
    await admin((client) => client.query(`drop database if exists "${name}" with (force)`));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('converts on a worker an upload started on a web server that runs no jobs', async () => {
    const cookie = await signedInApplicant(web, 'shared.queue@example.edu');
    const presigned = (
      await call(cookie, 'POST', '/api/presigned-url', { answer_key: KEY })
    ).json();
    const png = makePng({ width: 20, height: 20 });
    const form = new FormData();
    for (const [field, value] of Object.entries(presigned.fields as Record<string, string>)) {
      form.append(field, value);
    }
    form.append('file', new Blob([Buffer.from(png)]), 'scan.png');
    const body = new Request('http://upload', { method: 'POST', body: form });
    const upload = await web.inject({
      method: 'POST',
      url: presigned.url,
      headers: { 'content-type': body.headers.get('content-type') as string },
      payload: Buffer.from(await body.arrayBuffer()),
    });
    expect(upload.statusCode).toBe(204);
    const started = await call(cookie, 'POST', `/api/pdf/document-answer/${KEY}`, {
      file_key: presigned.fields.key,
      file_name: 'scan.png',
    });
    expect(started.statusCode).toBe(202);

    // Queued in PostgreSQL, and nobody takes it until a worker starts.
    expect(await jobStates()).toEqual(['created']);
    const worker = await server(true);
    expect(await settled(cookie)).toMatchObject({ status: 'COMPLETED' });
    await worker.close();
    // The worker's start-up recovery may have queued the row again while the job ran; that
    // second job found the row finished and did nothing.
    const states = await jobStates();
    expect(states[0]).toBe('completed');
    expect(states.every((state) => state === 'completed')).toBe(true);
    const pdf = await call(cookie, 'GET', `/api/document/${KEY}/pdf`);
    expect(pdf.statusCode).toBe(200);
  });

  it('finishes a conversion a stopped server left IN_PROGRESS when a server starts', async () => {
    const email = 'left.behind@example.edu';
    const cookie = await signedInApplicant(web, email);
    const [account] = await probe.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    const accountId = account?.id as string;
    const fileKey = newObjectKey(accountId);
    const png = makePng({ width: 7, height: 7 });
    await localDiskStorage({ root: path.join(dataDir, 'uploads') }).put(fileKey, png);
    await probe.db.insert(documentAnswers).values({
      accountId,
      answerKey: KEY,
      fileKey,
      fileName: 'left.png',
      fileSize: png.length,
      status: 'IN_PROGRESS',
    });
    await server(true);
    expect(await settled(cookie)).toMatchObject({ status: 'COMPLETED' });
  });
});
