// PUT /api/answer through the compiled server in production mode against the same statement sent
// straight to the database from this process, side by side in one run, on the embedded database
// and (with DATABASE_URL) on PostgreSQL. The direct rate is measured before and after the server's,
// and the two are averaged, so a machine getting busier or quieter during the run shows in both.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type autocannon from 'autocannon';
import { randomToken, sha256 } from '../src/server/accounts/secrets';
import { createSessions, sessionCookieName } from '../src/server/accounts/sessions';
import { createApplicationsStore } from '../src/server/application/applications-store';
import { type DatabaseHandle, openDatabase } from '../src/server/db/database';
import { accounts, applications, sessions } from '../src/server/db/schema';
import type { DatabaseKind } from '../src/server/test/test-database';
import { applicationModel } from '../src/shared/application/application-model';
import { answerKeySpecs } from '../src/shared/form/answer-keys';
import { buildServer, scratchPostgres, startProductionServer } from './production-server';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = 100;
const PORT = 3395;
/** The server's default pool (DATABASE_POOL_SIZE); the direct statements get the same. */
const POOL_SIZE = 10;
const IDLE_MS = 30 * 60_000;

function twentyKeyPatch(): Record<string, string> {
  const keys = [...answerKeySpecs(applicationModel).entries()]
    // Free text only: a choice, a date or a label takes only what the model allows.
    .filter(([, spec]) => spec.type === 'string' && spec.maxLength >= 20 && !spec.values)
    .slice(0, 20)
    .map(([key]) => key);
  return Object.fromEntries(keys.map((key, i) => [key, `answer ${i}`]));
}

/**
 * autocannon in a process of its own, as a load balancer's clients would be: in this process it
 * would compete with the direct statements' bookkeeping. With `cookies`, each connection is
 * another applicant: it sends the cookie of its own (round the list).
 */
export function loadFromAnotherProcess(
  options: autocannon.Options,
  cookies: readonly string[] = [],
): Promise<autocannon.Result> {
  const autocannonPath = createRequire(import.meta.url).resolve('autocannon');
  // The client set-up is a function, which autocannon's command line cannot take: a script runs
  // its programmatic interface instead, with the options as its argument.
  const script = `
    const autocannon = require(${JSON.stringify(autocannonPath)});
    const { options, cookies } = JSON.parse(process.argv[1]);
    let next = 0;
    const setupClient = cookies.length === 0 ? undefined : (client) => {
      client.setHeaders({ ...options.headers, cookie: cookies[next++ % cookies.length] });
    };
    autocannon({ ...options, setupClient }, (error, result) => {
      if (error) { console.error(error); process.exit(1); }
      process.stdout.write(JSON.stringify(result));
    });`;
  const args = ['-e', script, JSON.stringify({ options, cookies })];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`autocannon exited ${code}`)),
    );
  });
}

export interface AnswerSaveResult {
  database: DatabaseKind;
  apiRate: number;
  apiP50Ms: number;
  apiP99Ms: number;
  /** Requests autocannon gave up on after its 10 s timeout. */
  timeouts: number;
  /** Statements per second sent straight to the database, before and after the server's run. */
  directRates: [number, number];
  /** API rate over the mean direct rate (goal: 0.9 or more on both databases). */
  ratio: number;
  profileP50Ms: number;
  profileP99Ms: number;
  loadBefore: number[];
  loadAfter: number[];
}

/** Sends `run` from CONNECTIONS concurrent loops (`run` is told which) for the duration. */
async function statementsPerSecond(run: (loop: number) => Promise<void>): Promise<number> {
  let done = 0;
  const until = Date.now() + DURATION_SECONDS * 1000;
  const loop = async (_: unknown, n: number) => {
    while (Date.now() < until) {
      await run(n);
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  return done / DURATION_SECONDS;
}

/** An applicant with an application and a live session, made in the database: the token. */
async function seedApplicant(
  database: DatabaseHandle,
  kind: DatabaseKind,
  n: number,
): Promise<string> {
  const token = randomToken();
  const [account] = await database.db
    .insert(accounts)
    .values({ email: `bench.save.${n}.${kind}@example.edu`, confirmedAt: new Date() })
    .returning({ id: accounts.id });
  if (!account) throw new Error('no account inserted');
  await database.db.insert(applications).values({ accountId: account.id });
  await database.db.insert(sessions).values({
    tokenHash: sha256(token),
    accountId: account.id,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return token;
}

/** The route's own store call, straight to the database at the API's concurrency. */
async function directRate(
  open: () => Promise<DatabaseHandle>,
  tokens: readonly string[],
  patch: Record<string, string>,
): Promise<number> {
  const database = await open();
  try {
    const liveSessions = createSessions(database.db, {
      idleMs: IDLE_MS,
      absoluteMs: 3_600_000,
      secureCookies: true,
    });
    const store = createApplicationsStore(database.db);
    return await statementsPerSecond(async (loop) => {
      const token = tokens[loop % tokens.length] as string;
      const saved = await store.saveAnswers(liveSessions, token, patch, false);
      if (!saved) throw new Error('the direct save updated no row');
    });
  } finally {
    await database.close();
  }
}

export async function benchAnswerSave(kind: DatabaseKind): Promise<AnswerSaveResult> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-answer-'));
  const adminUrl = process.env.DATABASE_URL;
  if (kind === 'postgres' && !adminUrl) throw new Error('DATABASE_URL is needed for PostgreSQL');
  const scratch =
    kind === 'postgres' && adminUrl ? await scratchPostgres(adminUrl, 'portal_bench_answer') : null;
  const open = () =>
    scratch
      ? openDatabase({ kind: 'postgres', url: scratch.url, poolSize: POOL_SIZE })
      : openDatabase({ kind: 'pglite', dataDir });
  try {
    const seeded = await open();
    // Each connection is an applicant of its own, saving one answer after another.
    const tokens: string[] = [];
    try {
      for (let n = 0; n < CONNECTIONS; n++) tokens.push(await seedApplicant(seeded, kind, n));
    } finally {
      await seeded.close();
    }
    const cookies = tokens.map((token) => `${sessionCookieName(true)}=${token}`);
    const patch = twentyKeyPatch();

    const loadBefore = os.loadavg();
    const before = await directRate(open, tokens, patch);
    const server = await startProductionServer(PORT, {
      DATA_DIR: dataDir,
      DATABASE_URL: scratch?.url,
      // Production's default logging, whatever this shell sets.
      LOG_LEVEL: undefined,
      // Saves need no school lists; importing them at the first start of a busy machine's
      // embedded database outlasted the server's 10 s start-up limit.
      LOOKUP_DEFAULT_LISTS: 'false',
    });
    let api: autocannon.Result;
    let profile: autocannon.Result;
    try {
      api = await loadFromAnotherProcess(
        {
          url: `${server.base}/api/answer`,
          method: 'PUT',
          connections: CONNECTIONS,
          duration: DURATION_SECONDS,
          headers: { origin: server.base, 'content-type': 'application/json' },
          body: JSON.stringify(patch),
        },
        cookies,
      );
      profile = await loadFromAnotherProcess({
        url: `${server.base}/api/profile`,
        connections: 1,
        duration: Math.min(5, DURATION_SECONDS),
        headers: { cookie: cookies[0] as string },
      });
    } finally {
      await server.stop();
    }
    if (api.non2xx > 0 || api.errors > 0) {
      console.error(JSON.stringify({ statusCodeStats: api.statusCodeStats, latency: api.latency }));
      throw new Error(`answer saves failed: ${api.non2xx} non-2xx, ${api.errors} errors`);
    }
    const after = await directRate(open, tokens, patch);
    const loadAfter = os.loadavg();
    return {
      database: kind,
      apiRate: api.requests.average,
      apiP50Ms: api.latency.p50,
      apiP99Ms: api.latency.p99,
      timeouts: api.timeouts,
      directRates: [before, after],
      ratio: api.requests.average / ((before + after) / 2),
      profileP50Ms: profile.latency.p50,
      profileP99Ms: profile.latency.p99,
      loadBefore,
      loadAfter,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildServer();
  for (const kind of process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : ['pglite']) {
    console.log(await benchAnswerSave(kind as DatabaseKind));
  }
}
