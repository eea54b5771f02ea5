// PUT /api/answer through the whole server against the same upsert sent straight to the database,
// side by side in one run, on the embedded database and (with DATABASE_URL) on PostgreSQL.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadEnv } from '../src/server/config/env';
import { loadTenantConfig } from '../src/server/config/tenant';
import { applications } from '../src/server/db/schema';
import { signedInApplicant } from '../src/server/test/accounts-helpers';
import { sampleTenantFile } from '../src/server/test/test-app';
import { createTestDatabase, type DatabaseKind } from '../src/server/test/test-database';
import { applicationModel } from '../src/shared/application/application-model';
import { answerKeySpecs } from '../src/shared/form/answer-keys';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 100;

function twentyKeyPatch(): Record<string, string> {
  const keys = [...answerKeySpecs(applicationModel).entries()]
    .filter(
      ([key, spec]) => spec.type === 'string' && spec.maxLength >= 20 && !key.endsWith('_desc'),
    )
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
  ratio: number;
  profileP50Ms: number;
  profileP99Ms: number;
}

export async function benchAnswerSave(kind: DatabaseKind): Promise<AnswerSaveResult> {
  const database = await createTestDatabase(kind);
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_POOL_SIZE: '10' });
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

    // The same statement the route sends, straight to the database, at the same concurrency.
    const [row] = await database.db
      .select({ id: applications.accountId })
      .from(applications)
      .limit(1);
    const accountId = row?.id ?? '';
    let done = 0;
    const until = Date.now() + DURATION_SECONDS * 1000;
    const worker = async () => {
      while (Date.now() < until) {
        await database.db.execute(sql`
          update ${applications} set answers = ${applications.answers} || ${body}::jsonb, updated_at = now()
          where ${applications.accountId} = ${accountId} and ${applications.submittedAt} is null returning 1`);
        done++;
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
    const directRate = done / DURATION_SECONDS;
    return {
      database: kind,
      apiRate: api.requests.average,
      apiP99Ms: api.latency.p99,
      directRate,
      ratio: api.requests.average / directRate,
      profileP50Ms: profile.latency.p50,
      profileP99Ms: profile.latency.p99,
    };
  } finally {
    await app.close();
  }
}
