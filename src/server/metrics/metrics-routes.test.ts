import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModel } from '../../shared/test/fixture-model';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { uploadDocument } from '../test/document-helpers';
import { makeExe, makePng } from '../test/sample-files';
import { buildTestApp } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { METRICS_PATH } from './metrics-routes';

const TOKEN = 'metrics-token-for-tests-0123456789abcdef';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

const scrape = (app: FastifyInstance, authorization?: string) =>
  app.inject({
    method: 'GET',
    url: METRICS_PATH,
    headers: authorization === undefined ? {} : { authorization },
  });

/** The value of one sample line (`name{labels} value`), or undefined when it is not there. */
function sample(body: string, series: string): number | undefined {
  const line = body.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(databaseKinds)('metrics without METRICS_TOKEN on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  it('do not exist, not even for a bearer token or a browser asking for a page', async () => {
    for (const response of [
      await scrape(app),
      await scrape(app, `Bearer ${TOKEN}`),
      await app.inject({ method: 'GET', url: METRICS_PATH, headers: { accept: 'text/html' } }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('portal_');
    }
  });
});

describe.each(databaseKinds)('metrics with METRICS_TOKEN on %s', (kind) => {
  let app: FastifyInstance;
  let counter = 0;
  const applicant = () => signedInApplicant(app, `metrics${++counter}.${kind}@example.edu`);
  const metricsText = async () => {
    const response = await scrape(app, `Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    app = await buildTestApp(kind, {
      model: fixtureModel,
      env: {
        METRICS_TOKEN: TOKEN,
        UPLOAD_SIGNING_SECRET: 'test-upload-secret-of-at-least-32-chars',
      },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuse a request without the token, with a wrong one or one of another length', async () => {
    const refusals: LightMyRequestResponse[] = [
      await scrape(app),
      await scrape(app, ''),
      await scrape(app, `Bearer ${TOKEN.slice(0, -1)}x`),
      await scrape(app, `Bearer ${TOKEN.slice(0, -1)}`),
      await scrape(app, `Bearer ${TOKEN}0`),
      await scrape(app, `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}`),
      await scrape(app, TOKEN),
    ];
    for (const response of refusals) {
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).not.toContain('portal_');
    }
  });

  it('answer the right token in the Prometheus text format, never cached', async () => {
    const response = await scrape(app, `Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain('# TYPE portal_http_requests_total counter');
    expect((await scrape(app, `bearer   ${TOKEN}`)).statusCode).toBe(200);
  });

  it('count requests by route pattern and status, never by a path holding an id', async () => {
    const cookie = await applicant();
    expect((await callAs(app, cookie, 'GET', '/api/profile')).statusCode).toBe(200);
    const id = '0b6f3c0e-8d4e-4a57-9a3c-5d2f7e1a9b42';
    await app.inject({ method: 'GET', url: `/api/document/${id}/pdf` });
    await app.inject({ method: 'GET', url: `/api/no-such-thing/${id}` });
    const body = await metricsText();
    expect(
      sample(
        body,
        'portal_http_requests_total{method="GET",route="/api/profile",status_code="200"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        body,
        'portal_http_requests_total{method="GET",route="/api/document/:key/pdf",status_code="401"}',
      ),
    ).toBe(1);
    expect(
      sample(body, 'portal_http_requests_total{method="GET",route="unmatched",status_code="404"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(body).toContain(
      'portal_http_request_duration_seconds_count{method="GET",route="/api/profile",status_code="200"}',
    );
    expect(body).not.toMatch(UUID);
    expect(body).not.toContain('example.edu');
  });

  it('count mail sent', async () => {
    const before = sample(await metricsText(), 'portal_mail_sent_total') ?? 0;
    await applicant();
    await until(
      async () => (sample(await metricsText(), 'portal_mail_sent_total') ?? 0) > before,
      'the mail counter to move',
    );
    expect(sample(await metricsText(), 'portal_mail_failed_total')).toBe(0);
  });

  it('count conversions by outcome and time each job attempt', async () => {
    const converted = await uploadDocument(
      app,
      await applicant(),
      'statement_doc',
      makePng({ width: 20, height: 20 }),
      'transcript.png',
    );
    expect(converted.status).toBe('COMPLETED');
    const refused = await uploadDocument(
      app,
      await applicant(),
      'statement_doc',
      makeExe(),
      'essay.pdf',
    );
    expect(refused.status).toBe('FAILED');
    // The attempt is timed once the job's handler returns, a moment after its row says FAILED.
    const attempts =
      'portal_job_attempt_duration_seconds_count{job="documents.convert",outcome="succeeded"}';
    await until(
      async () => sample(await metricsText(), attempts) === 2,
      'both conversion attempts to be timed',
    );
    const body = await metricsText();
    expect(sample(body, 'portal_document_conversions_total{outcome="converted"}')).toBe(1);
    expect(sample(body, 'portal_document_conversions_total{outcome="refused"}')).toBe(1);
    expect(
      sample(
        body,
        'portal_job_attempt_duration_seconds_count{job="documents.convert",outcome="succeeded"}',
      ),
    ).toBe(2);
  });

  it('report the job queue depth per job name', async () => {
    const depth = (body: string, state: string) =>
      sample(body, `portal_job_queue_jobs{job="documents.convert",state="${state}"}`);
    const first = await metricsText();
    expect(depth(first, 'waiting')).toEqual(expect.any(Number));
    expect(depth(first, 'running')).toEqual(expect.any(Number));
    // pg-boss may still be recording the last conversions of the test before: wait for it.
    await until(async () => {
      const body = await metricsText();
      return depth(body, 'waiting') === 0 && depth(body, 'running') === 0;
    }, 'the conversion queue to be empty');
  });

  it('report the database pool on PostgreSQL only', async () => {
    const body = await metricsText();
    if (kind === 'postgres') {
      expect(sample(body, 'portal_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(body, 'portal_db_pool_idle_connections')).toEqual(expect.any(Number));
      expect(sample(body, 'portal_db_pool_waiting_clients')).toBe(0);
      expect(sample(body, 'portal_db_pool_max_connections')).toBe(20);
    } else {
      expect(body).not.toContain('portal_db_pool_');
    }
  });

  it("report the embedded database thread's memory on PGlite only", async () => {
    const body = await metricsText();
    const part = (name: string) => sample(body, `portal_embedded_db_memory_bytes{part="${name}"}`);
    if (kind === 'pglite') {
      expect(part('young_generation')).toBeGreaterThan(0);
      expect(part('heap')).toBeGreaterThanOrEqual(part('heap_used') as number);
      expect(part('wasm')).toBeGreaterThan(0);
    } else {
      expect(body).not.toContain('portal_embedded_db_');
    }
  });

  it('include process memory and event-loop delay', async () => {
    const body = await metricsText();
    expect(sample(body, 'portal_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(body).toContain('portal_nodejs_eventloop_lag_seconds ');
    expect(body).toContain('portal_nodejs_eventloop_lag_p99_seconds ');
  });
});
