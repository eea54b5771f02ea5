// PUT /api/answer through the whole server against the same upsert sent straight to the database,
// side by side in one run, on the embedded database and (with DATABASE_URL) on PostgreSQL.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { createSessions, sessionCookieName } from '../src/server/accounts/sessions';
import { buildApp } from '../src/server/app';
import { createApplicationsStore } from '../src/server/application/applications-store';
import { loadEnv } from '../src/server/config/env';
import { loadTenantConfig } from '../src/server/config/tenant';
import { applications } from '../src/server/db/schema';
import { signedInApplicant } from '../src/server/test/accounts-helpers';
import { sampleTenantFile, TEST_DEV_TOOLS_KEY } from '../src/server/test/test-app';
import { createTestDatabase, type DatabaseKind } from '../src/server/test/test-database';
import { applicationModel } from '../src/shared/application/application-model';
import { answerKeySpecs } from '../src/shared/form/answer-keys';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 100;

function twentyKeyPatch(): Record<string, string> {
  const keys = [...answerKeySpecs(applicationModel).entries()]
    // Free text only: a choice, a date or a label takes only what the model allows.
    .filter(([, spec]) => spec.type === 'string' && spec.maxLength >= 20 && !spec.values)
    .slice(0, 20)
    .map(([key]) => key);
  return Object.fromEntries(keys.map((key, i) => [key, `answer ${i}`]));
}

/**
 * autocannon in a process of its own, as a load balancer's clients would be: in the server's
 * process it would take the event loop it is measuring.
 */
function loadFromAnotherProcess(options: autocannon.Options): Promise<autocannon.Result> {
  const cli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const args = [
    cli,
    '--json',
    '-c',
    String(options.connections),
    '-d',
    String(options.duration),
    '-m',
    options.method ?? 'GET',
  ];
  for (const [name, value] of Object.entries(options.headers ?? {}))
    args.push('-H', `${name}=${value}`);
  if (typeof options.body === 'string') args.push('-b', options.body);
  args.push(options.url);
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
  apiP99Ms: number;
  directRate: number;
  bareRate: number;
  ratio: number;
  profileP50Ms: number;
  profileP99Ms: number;
}

/** Sends `run` from CONNECTIONS concurrent loops for the measurement's duration. */
async function statementsPerSecond(run: () => Promise<void>): Promise<number> {
  let done = 0;
  const until = Date.now() + DURATION_SECONDS * 1000;
  const loop = async () => {
    while (Date.now() < until) {
      await run();
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  return done / DURATION_SECONDS;
}

export async function benchAnswerSave(kind: DatabaseKind): Promise<AnswerSaveResult> {
  const database = await createTestDatabase(kind);
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_POOL_SIZE: '10',
    DEV_TOOLS_KEY: TEST_DEV_TOOLS_KEY,
  });
  const app = await buildApp({
    env,
    tenant: await loadTenantConfig(sampleTenantFile),
    database,
    model: applicationModel,
    logger: false,
  });
  try {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const cookie = await signedInApplicant(app, `bench.${kind}@example.edu`);
    const patch = twentyKeyPatch();
    const body = JSON.stringify(patch);

    const cpuBefore = process.cpuUsage();
    const api = await loadFromAnotherProcess({
      url: `${address}/api/answer`,
      method: 'PUT',
      connections: CONNECTIONS,
      duration: DURATION_SECONDS,
      headers: { cookie, 'content-type': 'application/json' },
      body,
    });
    const cpu = process.cpuUsage(cpuBefore);
    if (process.env.BENCH_VERBOSE)
      console.log('server cpu %', ((cpu.user + cpu.system) / 1e4 / DURATION_SECONDS).toFixed(0));
    if (api.non2xx > 0 || api.errors > 0) {
      console.error(
        JSON.stringify({
          non2xx: api.non2xx,
          errors: api.errors,
          timeouts: api.timeouts,
          statusCodeStats: api.statusCodeStats,
          latency: api.latency,
        }),
      );
      throw new Error(`answer saves failed: ${api.non2xx} non-2xx, ${api.errors} errors`);
    }

    const profile = await loadFromAnotherProcess({
      url: `${address}/api/profile`,
      connections: 1,
      duration: Math.min(5, DURATION_SECONDS),
      headers: { cookie },
    });

    // The statement the route sends, through the same store call, straight to the database at the
    // same concurrency: what is left between the two rates is HTTP, the session cookie and the
    // schema parse.
    const token = new RegExp(`${sessionCookieName(false)}=([^;]+)`).exec(cookie)?.[1];
    if (!token) throw new Error('no session cookie after sign-in');
    const liveSessions = createSessions(database.db, {
      idleMs: env.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: 3_600_000,
      secureCookies: false,
    });
    const applicationsStore = createApplicationsStore(database.db);
    const directRate = await statementsPerSecond(async () => {
      const saved = await applicationsStore.saveAnswers(liveSessions, token, patch, false);
      if (!saved) throw new Error('the direct save updated no row');
    });
    // For reference: the bare keyed merge, without the session check the route needs.
    const [row] = await database.db
      .select({ id: applications.accountId })
      .from(applications)
      .limit(1);
    const accountId = row?.id ?? '';
    const bareRate = await statementsPerSecond(async () => {
      await database.db.execute(sql`
        update ${applications} set answers = ${applications.answers} || ${body}::jsonb, updated_at = now()
        where ${applications.accountId} = ${accountId} and ${applications.submittedAt} is null`);
    });
    return {
      database: kind,
      apiRate: api.requests.average,
      apiP99Ms: api.latency.p99,
      directRate,
      bareRate,
      ratio: api.requests.average / directRate,
      profileP50Ms: profile.latency.p50,
      profileP99Ms: profile.latency.p99,
    };
  } finally {
    await app.close();
  }
}
