import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceViewSchema, serviceViewUrl } from '../../shared/api/service';
import { applicationModel } from '../../shared/application/application-model';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { buildApp } from '../app';
import { loadEnv } from '../config/env';
import { loadTenantConfig } from '../config/tenant';
import { type DatabaseHandle, openDatabase, rowsOf } from '../db/database';
import { mintServiceToken } from '../service/service-tokens';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { makePng } from '../test/sample-files';
import { buildTestApp, sampleTenantFile, testDatabaseOf } from '../test/test-app';

const run = promisify(execFile);
const adminUrl = process.env.DATABASE_URL;
const SECRET = 'restore-drill-upload-secret-0123456789';
const DOC_KEY = 'hs_transcript';
const PNG = makePng({ width: 40, height: 30 });

/** The client tools' connection flags and environment for a database of DATABASE_URL's server. */
function clientOf(url: string) {
  const parsed = new URL(url);
  const flags = [
    '--host',
    decodeURIComponent(parsed.hostname) || 'localhost',
    '--port',
    parsed.port || '5432',
    '--username',
    decodeURIComponent(parsed.username) || 'postgres',
  ];
  const env = { ...process.env, PGPASSWORD: decodeURIComponent(parsed.password) };
  return { flags, env };
}

function urlOf(database: string): string {
  const url = new URL(adminUrl as string);
  url.pathname = `/${database}`;
  return url.toString();
}

function multipart(fields: Record<string, string>, file: Uint8Array) {
  const boundary = `----drill${randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    payload: Buffer.concat([
      Buffer.from(parts.join('')),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="transcript.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      Buffer.from(file),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Uploads the transcript through the app's own routes and waits for its conversion. */
async function uploadTranscript(app: FastifyInstance, cookie: string): Promise<void> {
  const presigned = await callAs(app, cookie, 'POST', '/api/presigned-url', {
    answer_key: DOC_KEY,
  });
  expect(presigned.statusCode, presigned.body).toBe(200);
  const { fields } = presigned.json() as { fields: Record<string, string> };
  const uploaded = await app.inject({
    method: 'POST',
    url: '/public/upload',
    ...multipart(fields, PNG),
  });
  expect(uploaded.statusCode, uploaded.body).toBe(204);
  const started = await callAs(app, cookie, 'POST', `/api/pdf/document-answer/${DOC_KEY}`, {
    file_key: fields.key,
    file_name: 'transcript.png',
  });
  expect(started.statusCode, started.body).toBe(202);
  for (let attempt = 0; attempt < 2000; attempt++) {
    const status = (
      await callAs(app, cookie, 'GET', `/api/pdf/document-answer/${DOC_KEY}`)
    ).json() as { status: string; message: string | null };
    if (status.status === 'COMPLETED') return;
    if (status.status === 'FAILED') throw new Error(`conversion failed: ${status.message}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the conversion did not finish');
}

interface Written {
  email: string;
  cookie: string;
  accountId: string;
  answers: Record<string, unknown>;
  submitted: boolean;
  document: Buffer | null;
}

/**
 * The restore drill of docs/operations.md, end to end: an app on PostgreSQL takes applications,
 * `pg_dump --format=custom` saves its database, `createdb` and `pg_restore` make a copy, and an
 * app started on the copy serves every application as it was written.
 */
describe.skipIf(!adminUrl)('restoring a PostgreSQL backup', () => {
  let dataDir: string;
  let source: FastifyInstance;
  let restored: FastifyInstance | undefined;
  let restoredHandle: DatabaseHandle | undefined;
  const restoredName = `portal_restore_${randomBytes(6).toString('hex')}`;
  const client = clientOf(adminUrl ?? 'postgres://localhost');

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-restore-'));
    source = await buildTestApp('postgres', {
      env: { DATA_DIR: dataDir, UPLOAD_SIGNING_SECRET: SECRET },
    });
  });
  afterAll(async () => {
    await restored?.close();
    await restoredHandle?.close();
    await run('dropdb', [...client.flags, '--if-exists', '--force', restoredName], {
      env: client.env,
    });
    // Closing the test app drops its database.
    await source.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('brings back every account, application, document and the job queue', async () => {
    const written: Written[] = [];
    const accountIdOf = async (email: string) => {
      const [row] = rowsOf<{ id: string }>(
        await testDatabaseOf(source).execute(sql`select id from accounts where email = ${email}`),
      );
      return row?.id as string;
    };
    for (const [index, kind] of (['saved', 'submitted', 'document', 'saved'] as const).entries()) {
      const email = `drill${index}-${kind}@example.edu`;
      const cookie = await signedInApplicant(source, email);
      const answers: Record<string, unknown> =
        kind === 'submitted'
          ? validApplicationAnswers()
          : { first_name: `Drill ${index}`, last_name: 'Restore', gender: 'F' };
      const saved = await callAs(source, cookie, 'PUT', '/api/answer', answers);
      expect(saved.statusCode, saved.body).toBe(200);
      let document: Buffer | null = null;
      if (kind === 'document') {
        await uploadTranscript(source, cookie);
        const pdf = await callAs(source, cookie, 'GET', `/api/document/${DOC_KEY}/pdf`);
        expect(pdf.statusCode).toBe(200);
        document = pdf.rawPayload;
      }
      if (kind === 'submitted') {
        const submitted = await callAs(source, cookie, 'POST', '/api/submit');
        expect(submitted.statusCode, submitted.body).toBe(200);
      }
      const profile = (await callAs(source, cookie, 'GET', '/api/profile')).json();
      written.push({
        email,
        cookie,
        accountId: await accountIdOf(email),
        answers: profile.answer,
        submitted: kind === 'submitted',
        document,
      });
      // What the app reads back is what was sent (plus a completed document's mark).
      expect(profile.answer).toMatchObject(answers);
    }
    const [{ name: sourceName } = { name: '' }] = rowsOf<{ name: string }>(
      await testDatabaseOf(source).execute(sql`select current_database() as name`),
    );
    // Finished jobs stay in pg-boss's table for days: their ids must come back with the rest.
    const jobsQuery = sql`select id::text, name, state::text from pgboss.job
      where name = 'documents.convert' and state = 'completed' order by id`;
    const sourceJobs = rowsOf<{ id: string }>(await testDatabaseOf(source).execute(jobsQuery));
    expect(sourceJobs).toHaveLength(1);

    // The drill: dump, create, restore (docs/operations.md, "Restore drill").
    const dump = path.join(dataDir, 'portal.dump');
    await run('pg_dump', [...client.flags, '--format=custom', '--file', dump, sourceName], {
      env: client.env,
    });
    await run('createdb', [...client.flags, restoredName], { env: client.env });
    await run(
      'pg_restore',
      [...client.flags, '--no-owner', '--exit-on-error', '--dbname', restoredName, dump],
      { env: client.env },
    );

    // A server started on the copy: migrations find nothing to do, pg-boss finds its schema.
    restoredHandle = await openDatabase({ kind: 'postgres', url: urlOf(restoredName) });
    const handle = restoredHandle;
    expect(rowsOf(await handle.db.execute(jobsQuery))).toEqual(sourceJobs);
    restored = await buildApp({
      env: loadEnv({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        UPLOAD_SIGNING_SECRET: SECRET,
      }),
      tenant: await loadTenantConfig(sampleTenantFile),
      database: { ...handle, close: async () => {} },
      logger: false,
      model: applicationModel,
    });
    await restored.ready();

    for (const application of written) {
      // The applicant's own session was restored with the rest.
      const profile = await callAs(restored, application.cookie, 'GET', '/api/profile');
      expect(profile.statusCode, application.email).toBe(200);
      expect(profile.json().username).toBe(application.email);
      expect(profile.json().answer, application.email).toEqual(application.answers);
      // Staff read it through a new link.
      const { token } = await mintServiceToken(handle.db, application.accountId, 3_600_000);
      const view = serviceViewSchema.parse((await restored.inject(serviceViewUrl(token))).json());
      expect(view.answer, application.email).toEqual(application.answers);
      const change = await callAs(restored, application.cookie, 'PUT', '/api/answer', {
        middle_name: 'After',
      });
      expect(change.statusCode, application.email).toBe(application.submitted ? 409 : 200);
      if (application.document) {
        const pdf = await callAs(
          restored,
          application.cookie,
          'GET',
          `/api/document/${DOC_KEY}/pdf`,
        );
        expect(pdf.statusCode).toBe(200);
        expect(pdf.rawPayload.equals(application.document)).toBe(true);
        expect(Object.keys(view.document_answer)).toEqual([DOC_KEY]);
      }
    }

    // The restored server runs jobs on the restored queue.
    const first = written[0] as Written;
    await uploadTranscript(restored, first.cookie);
  });
});
