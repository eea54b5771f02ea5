// The integrators' side: the change feed of /api/v1 read whole through its cursor beside the same
// rows read by one statement, one application's full record beside /healthz, and webhooks: a
// backlog drained beside a plain loop of the same signed POSTs, and the time from a submit to
// its first delivery attempt while applicants submit through the real route.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { randomToken, sha256 } from '../src/server/accounts/secrets';
import { sessionCookieName } from '../src/server/accounts/sessions';
import { createChecklistService } from '../src/server/checklist/checklist-service';
import { loadEnv } from '../src/server/config/env';
import { loadTenantConfig } from '../src/server/config/tenant';
import { createCourseworkUpdatesStore } from '../src/server/coursework/coursework-updates-store';
import { createCreditService } from '../src/server/credit/credit-service';
import { createCreditStore } from '../src/server/credit/credit-store';
import { createEquivalenciesStore } from '../src/server/credit/equivalencies-store';
import { type DatabaseHandle, openDatabase, rowsOf } from '../src/server/db/database';
import { sessions } from '../src/server/db/schema';
import { createApiClients } from '../src/server/integration/api-clients';
import { createApiClientsStore } from '../src/server/integration/api-clients-store';
import type { DatabaseKind } from '../src/server/test/test-database';
import { createWebhookSender } from '../src/server/webhooks/webhook-sender';
import { newWebhookSecret, signedHeaders } from '../src/server/webhooks/webhook-signing';
import { createWebhooksStore } from '../src/server/webhooks/webhooks-store';
import { applicationModel } from '../src/shared/application/application-model';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { type RunningServer, scratchPostgres, startProductionServer } from './production-server';
import { percentile } from './timing';

const FEED_APPLICATIONS = Number(process.env.BENCH_FEED_APPLICATIONS ?? 100_000);
const FEED_PAGE = Number(process.env.BENCH_FEED_PAGE ?? 1000);
const RECORD_CALLS = Number(process.env.BENCH_RECORD_CALLS ?? 300);
const WEBHOOK_BACKLOG = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 1000);
const WEBHOOK_SUBMITS = Number(process.env.BENCH_WEBHOOK_SUBMITS ?? 1000);
/** 1,000 submits in a minute. */
const SUBMITS_PER_SECOND = Number(process.env.BENCH_SUBMITS_PER_SECOND ?? 1000 / 60);
const FEED_PORT = 3411;
const WEBHOOK_PORT = 3412;
/** How long the bench waits for the last delivery before it reports what arrived. */
const DRAIN_TIMEOUT_MS = Number(process.env.BENCH_DRAIN_TIMEOUT_MS ?? 600_000);

const round1 = (value: number) => Math.round(value * 10) / 10;

interface Scratch {
  kind: DatabaseKind;
  dataDir: string;
  url: string | undefined;
  open(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}

async function scratchDatabase(kind: DatabaseKind, name: string): Promise<Scratch> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `portal-bench-${name}-`));
  const postgres =
    kind === 'postgres' && process.env.DATABASE_URL
      ? await scratchPostgres(process.env.DATABASE_URL, `portal_bench_${name}`)
      : null;
  return {
    kind,
    dataDir,
    url: postgres?.url,
    open: () =>
      openDatabase(
        postgres
          ? { kind: 'postgres', url: postgres.url, poolSize: 2 }
          : { kind: 'pglite', dataDir },
      ),
    drop: async () => {
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A literal for SQL text: the answers go in as one jsonb constant every row builds on. */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * `count` accounts numbered from `from`, each with an application of complete answers (names of
 * its own, one of two terms), submitted when `submitted`: one statement per 5,000, so the
 * triggers write their events as a submit would.
 */
async function seedApplications(
  database: DatabaseHandle,
  prefix: string,
  from: number,
  count: number,
  submitted: boolean,
): Promise<void> {
  const base = literal(JSON.stringify(validApplicationAnswers()));
  // Letters only: names refuse digits.
  const letters = (g: string) =>
    `chr(97 + (${g} % 26)) || chr(97 + ((${g} / 26) % 26)) || chr(97 + ((${g} / 676) % 26))`;
  for (let start = from; start < from + count; start += 5000) {
    const end = Math.min(from + count, start + 5000) - 1;
    await database.db.execute(
      sql.raw(`
      with made as (
        insert into accounts (email, confirmed_at)
        select '${prefix}' || g || '@example.edu', now() from generate_series(${start}, ${end}) g
        returning id, email
      )
      insert into applications (account_id, answers, submitted_at)
      select made.id,
        ${base}::jsonb || jsonb_build_object(
          'first_name', 'Ann' || ${letters('g')},
          'last_name', 'Applicant' || ${letters('(g / 17576)')}
        ),
        ${submitted ? `now() - make_interval(secs => ${from + count} - g)` : 'null'}
      from made
      join generate_series(${start}, ${end}) g on made.email = '${prefix}' || g || '@example.edu'`),
    );
  }
}

/**
 * Counts every seeded application's checklist and writes its credit summary, as submits through
 * the app would have: left undone, the server's start-up sweeps do it for every application, and
 * on the embedded database they hold its one connection while the feed is timed.
 */
async function countChecklists(database: DatabaseHandle): Promise<void> {
  const tenant = await loadTenantConfig(loadEnv({ NODE_ENV: 'test' }).TENANT_CONFIG);
  await createChecklistService({ db: database.db, model: applicationModel, tenant }).recountStale();
  await createCreditService({
    model: applicationModel,
    tenant,
    store: createCreditStore(database.db),
    coursework: createCourseworkUpdatesStore(database.db),
    equivalencies: createEquivalenciesStore(database.db),
  }).refreshOutdated();
}

/** The feed's columns for every changed application in seq order: the statement to beat. */
const FEED_STATEMENT = `
  select c.seq, c.account_id as id, a.submitted_at, c.changed_at, r.number as confirmation_number,
    nullif(a.answers->>'applied_major', '') as program_code,
    nullif(a.answers->>'applied_major_desc', '') as program_label,
    nullif(a.answers->>'entry_term', '') as entry_term,
    nullif(a.answers->>'entry_term_desc', '') as entry_term_label,
    s.sis_id
  from application_changes c
  join applications a on a.account_id = c.account_id
  left join application_receipts r on r.account_id = c.account_id
  left join application_sis_ids s on s.account_id = c.account_id
  where a.submitted_at is not null
  order by c.seq`;

async function timeStatement(database: DatabaseHandle): Promise<{ rows: number; ms: number }> {
  const started = performance.now();
  const rows = rowsOf<unknown>(await database.db.execute(sql.raw(FEED_STATEMENT)));
  return { rows: rows.length, ms: performance.now() - started };
}

async function apiClient(database: DatabaseHandle, scopes: Array<'applications:read'>) {
  const made = await createApiClients(createApiClientsStore(database.db)).create({
    name: 'Bench SIS',
    scopes,
    createdBy: 'bench',
    rateLimitPerMinute: 100_000,
  });
  return { clientId: made.client.client_id, secret: made.secret };
}

async function accessToken(
  server: RunningServer,
  client: { clientId: string; secret: string },
): Promise<string> {
  const response = await fetch(`${server.base}/api/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.secret,
    }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!response.ok || !body.access_token)
    throw new Error(`token: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

export interface FeedResult {
  database: DatabaseKind;
  applications: number;
  pages: number;
  apiRows: number;
  apiMs: number;
  apiRowsPerSecond: number;
  statementMs: number[];
  statementRowsPerSecond: number;
  ratio: number;
  slowestPageMs: number;
  recordCalls: number;
  recordP50Ms: number;
  recordP95Ms: number;
  recordP99Ms: number;
  healthP50Ms: number;
  healthP95Ms: number;
  healthP99Ms: number;
  seedSeconds: number;
  loadBefore: number[];
  loadAfter: number[];
}

/** The whole feed through the cursor, beside one statement, and one record beside /healthz. */
export async function benchChangeFeed(kind: DatabaseKind): Promise<FeedResult> {
  const scratch = await scratchDatabase(kind, 'feed');
  try {
    const seedStarted = performance.now();
    let database = await scratch.open();
    await seedApplications(database, 'feed', 1, FEED_APPLICATIONS, true);
    await countChecklists(database);
    const client = await apiClient(database, ['applications:read']);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    await database.db.execute(sql.raw('analyze'));
    await timeStatement(database);
    const before = await timeStatement(database);
    await database.close();

    const loadBefore = os.loadavg();
    const server = await startProductionServer(FEED_PORT, {
      LOG_LEVEL: 'warn',
      DATA_DIR: scratch.dataDir,
      DATABASE_URL: scratch.url,
    });
    let read: { rows: number; pages: number; ms: number; slowestPageMs: number; ids: string[] };
    const record: number[] = [];
    const health: number[] = [];
    try {
      const token = await accessToken(server, client);
      const headers = { authorization: `Bearer ${token}` };
      const page = async (cursor: string | null) => {
        const query = new URLSearchParams({ limit: String(FEED_PAGE) });
        if (cursor) query.set('cursor', cursor);
        const response = await fetch(`${server.base}/api/v1/applications?${query}`, { headers });
        const body = (await response.json()) as {
          data: Array<{ id: string }>;
          next_cursor: string | null;
          has_more: boolean;
        };
        if (!response.ok) throw new Error(`feed: ${response.status} ${JSON.stringify(body)}`);
        return body;
      };
      const readAll = async () => {
        const started = performance.now();
        let cursor: string | null = null;
        let rows = 0;
        let pages = 0;
        let slowestPageMs = 0;
        const ids: string[] = [];
        for (;;) {
          const pageStarted = performance.now();
          const body = await page(cursor);
          slowestPageMs = Math.max(slowestPageMs, performance.now() - pageStarted);
          pages++;
          rows += body.data.length;
          if (ids.length < RECORD_CALLS) ids.push(...body.data.slice(0, 5).map((row) => row.id));
          cursor = body.next_cursor;
          if (!body.has_more || !cursor) break;
        }
        return { rows, pages, ms: performance.now() - started, slowestPageMs, ids };
      };
      // A first read warms the server (plans, caches); the second is timed.
      await readAll();
      read = await readAll();

      const call = async (url: string, init?: RequestInit) => {
        const started = performance.now();
        const response = await fetch(`${server.base}${url}`, init);
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        return performance.now() - started;
      };
      for (let i = 0; i < RECORD_CALLS + 20; i++) {
        const id = read.ids[i % read.ids.length];
        const one = await call(`/api/v1/applications/${id}`, { headers });
        const healthz = await call('/healthz');
        if (i < 20) continue;
        record.push(one);
        health.push(healthz);
      }
    } finally {
      await server.stop();
    }
    const loadAfter = os.loadavg();

    database = await scratch.open();
    const after = await timeStatement(database);
    await database.close();
    if (read.rows !== before.rows)
      throw new Error(`the feed gave ${read.rows} rows, the statement ${before.rows}`);

    const statementMs = [before.ms, after.ms];
    const statementBest = Math.min(...statementMs);
    const apiRowsPerSecond = read.rows / (read.ms / 1000);
    const statementRowsPerSecond = before.rows / (statementBest / 1000);
    for (const list of [record, health]) list.sort((a, b) => a - b);
    const ms = (list: number[], fraction: number) => round1(percentile(list, fraction));
    return {
      database: kind,
      applications: FEED_APPLICATIONS,
      pages: read.pages,
      apiRows: read.rows,
      apiMs: Math.round(read.ms),
      apiRowsPerSecond: Math.round(apiRowsPerSecond),
      statementMs: statementMs.map(Math.round),
      statementRowsPerSecond: Math.round(statementRowsPerSecond),
      ratio: apiRowsPerSecond / statementRowsPerSecond,
      slowestPageMs: Math.round(read.slowestPageMs),
      recordCalls: record.length,
      recordP50Ms: ms(record, 0.5),
      recordP95Ms: ms(record, 0.95),
      recordP99Ms: ms(record, 0.99),
      healthP50Ms: ms(health, 0.5),
      healthP95Ms: ms(health, 0.95),
      healthP99Ms: ms(health, 0.99),
      seedSeconds: round1(seedSeconds),
      loadBefore,
      loadAfter,
    };
  } finally {
    await scratch.drop();
  }
}

interface Arrival {
  applicationId: string;
  webhookId: string;
  at: number;
}

/** A receiver on 127.0.0.1 answering 204 and noting when each delivery arrived. */
async function startArrivals(): Promise<{
  url: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}> {
  const arrivals: Arrival[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const at = Date.now();
      let applicationId = '';
      try {
        applicationId = String(
          (JSON.parse(body) as { data?: { application_id?: string } }).data?.application_id ?? '',
        );
      } catch {
        // the yardstick's body, or a malformed one: counted, not matched
      }
      arrivals.push({ applicationId, webhookId: String(request.headers['webhook-id']), at });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivals,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

export interface WebhooksResult {
  database: DatabaseKind;
  backlog: number;
  backlogDelivered: number;
  /** From spawning the server to the backlog's last arrival. */
  drainSeconds: number;
  /** Over drainSeconds, the server's start-up included. */
  drainPerSecond: number;
  /** From the backlog's first arrival to its last: the rate while draining. */
  drainSteadyPerSecond: number;
  yardstickPerSecond: number;
  ratio: number;
  submits: number;
  submitsFailed: number;
  submitsPerSecond: number;
  delivered: number;
  firstAttemptP50Ms: number;
  firstAttemptP95Ms: number;
  firstAttemptMaxMs: number;
  loadBefore: number[];
  loadAfter: number[];
}

/**
 * A backlog of submitted applications waiting for a subscription when the server starts, drained;
 * then applicants submitting through the real route at a steady pace, each submit's first
 * delivery timed from the submit's answer.
 */
export async function benchWebhooks(kind: DatabaseKind): Promise<WebhooksResult> {
  const scratch = await scratchDatabase(kind, 'webhooks');
  const receiver = await startArrivals();
  try {
    const database = await scratch.open();
    // The subscription first: it takes the events that come after it, the backlog among them.
    await createWebhooksStore(database.db).insertSubscription({
      url: receiver.url,
      description: 'bench receiver',
      events: ['application.submitted'],
      scopes: ['applications:read'],
      secret: newWebhookSecret(),
      apiClientId: null,
      createdByLabel: 'bench',
    });
    await seedApplications(database, 'backlog', 1, WEBHOOK_BACKLOG, true);
    await seedApplications(database, 'submit', 1, WEBHOOK_SUBMITS, false);
    await countChecklists(database);
    const applicants = rowsOf<{ id: string }>(
      await database.db.execute(
        sql.raw(`select id from accounts where email like 'submit%' order by email`),
      ),
    );
    const tokens = applicants.map(() => randomToken());
    for (let start = 0; start < applicants.length; start += 500)
      await database.db.insert(sessions).values(
        applicants.slice(start, start + 500).map((applicant, offset) => ({
          tokenHash: sha256(tokens[start + offset] as string),
          accountId: applicant.id,
          expiresAt: new Date(Date.now() + 12 * 3_600_000),
        })),
      );
    await database.close();

    // The yardstick: the same signed POSTs, one after another, from this process.
    const send = createWebhookSender({ publicOnly: false });
    const secret = newWebhookSecret();
    const yardstickStarted = performance.now();
    for (let i = 0; i < WEBHOOK_BACKLOG; i++) {
      const body = JSON.stringify({
        type: 'application.submitted',
        timestamp: new Date().toISOString(),
        data: { application_id: `yardstick-${i}` },
      });
      const outcome = await send(
        receiver.url,
        signedHeaders(secret, `msg_yardstick_${i}`, new Date(), body),
        body,
      );
      if (!outcome.delivered) throw new Error(`yardstick: ${outcome.error}`);
    }
    const yardstickPerSecond = WEBHOOK_BACKLOG / ((performance.now() - yardstickStarted) / 1000);
    receiver.arrivals.length = 0;

    const loadBefore = os.loadavg();
    // Deliveries may begin before the server answers /readyz: the drain is timed from the spawn.
    const spawned = Date.now();
    const server = await startProductionServer(WEBHOOK_PORT, {
      LOG_LEVEL: 'warn',
      DATA_DIR: scratch.dataDir,
      DATABASE_URL: scratch.url,
      RUN_JOBS: 'true',
      WEBHOOK_PRIVATE_NETWORKS: '127.0.0.0/8',
      // Each applicant's address comes through X-Forwarded-For, as behind a load balancer.
      TRUST_PROXY: '127.0.0.1',
      SMTP_URL: undefined,
    });
    try {
      const backlogIds = new Set<string>();
      const backlogArrived = () => {
        for (const arrival of receiver.arrivals) backlogIds.add(arrival.applicationId);
        return backlogIds.size >= WEBHOOK_BACKLOG;
      };
      await waitFor(backlogArrived, DRAIN_TIMEOUT_MS);
      const backlogArrivals = [...receiver.arrivals];
      const first = Math.min(...backlogArrivals.map((arrival) => arrival.at));
      const last = Math.max(...backlogArrivals.map((arrival) => arrival.at));
      const drainSeconds = (last - spawned) / 1000;
      const backlogDelivered = backlogIds.size;

      // The submits, paced: the n-th leaves at n / rate seconds, whatever the earlier took.
      const cookieName = sessionCookieName(true);
      const answeredAt = new Map<string, number>();
      let failed = 0;
      const submitsStarted = Date.now();
      const inFlight: Array<Promise<void>> = [];
      for (let n = 0; n < applicants.length; n++) {
        const due = submitsStarted + (n * 1000) / SUBMITS_PER_SECOND;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const applicant = applicants[n] as { id: string };
        inFlight.push(
          fetch(`${server.base}/api/submit`, {
            method: 'POST',
            headers: {
              cookie: `${cookieName}=${tokens[n]}`,
              origin: server.base,
              'x-forwarded-for': `10.9.${(n >> 8) & 255}.${n & 255}`,
            },
          }).then(async (response) => {
            const text = await response.text();
            if (response.ok) answeredAt.set(applicant.id, Date.now());
            else {
              failed++;
              if (failed <= 3) console.error(`submit: ${response.status} ${text.slice(0, 300)}`);
            }
          }),
        );
      }
      await Promise.all(inFlight);
      const submitsSeconds = (Date.now() - submitsStarted) / 1000;
      const firstArrival = new Map<string, number>();
      const submitArrived = () => {
        for (const arrival of receiver.arrivals)
          if (answeredAt.has(arrival.applicationId) && !firstArrival.has(arrival.applicationId))
            firstArrival.set(arrival.applicationId, arrival.at);
        return firstArrival.size >= answeredAt.size;
      };
      await waitFor(submitArrived, DRAIN_TIMEOUT_MS);
      const lags = [...firstArrival].map(([id, at]) => at - (answeredAt.get(id) as number));
      lags.sort((a, b) => a - b);
      const drainSteadyPerSecond = backlogDelivered / Math.max(0.001, (last - first) / 1000);
      return {
        database: kind,
        backlog: WEBHOOK_BACKLOG,
        backlogDelivered,
        drainSeconds: round1(drainSeconds),
        drainPerSecond: round1(backlogDelivered / drainSeconds),
        drainSteadyPerSecond: round1(drainSteadyPerSecond),
        yardstickPerSecond: round1(yardstickPerSecond),
        ratio: drainSteadyPerSecond / yardstickPerSecond,
        submits: answeredAt.size,
        submitsFailed: failed,
        submitsPerSecond: round1(answeredAt.size / submitsSeconds),
        delivered: firstArrival.size,
        firstAttemptP50Ms: Math.round(percentile(lags, 0.5)),
        firstAttemptP95Ms: Math.round(percentile(lags, 0.95)),
        firstAttemptMaxMs: Math.round(lags.at(-1) ?? Number.NaN),
        loadBefore,
        loadAfter: os.loadavg(),
      };
    } finally {
      await server.stop();
    }
  } finally {
    await receiver.close();
    await scratch.drop();
  }
}
