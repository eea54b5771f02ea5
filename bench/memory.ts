// The server's memory: the resident set of the compiled server's process in production mode at
// rest, during a mixed load (answer saves, school searches, the staff list, application PDFs)
// and after it, on each database. On the embedded database PGlite runs on a thread of the same
// process, so the process's figure holds it. Growth is what this is for: the slope of the last
// half of the load's samples says whether memory still climbs when the caches are warm.
// Run alone with `npm run bench -- memory`; BENCH_MEMORY_MINUTES sets the load (default 30).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomToken, sha256 } from '../src/server/accounts/secrets';
import { sessionCookieName } from '../src/server/accounts/sessions';
import { type DatabaseHandle, openDatabase } from '../src/server/db/database';
import {
  accounts,
  applications,
  sessions,
  staffMembers,
  staffSessions,
  webStatuses,
} from '../src/server/db/schema';
import { readDefaultList } from '../src/server/lookup/default-lists';
import { readLookupList } from '../src/server/lookup/lookup-import';
import { STAFF_SESSION_ABSOLUTE_HOURS, staffCookieName } from '../src/server/staff/staff-sessions';
import type { DatabaseKind } from '../src/server/test/test-database';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { buildServer, scratchPostgres, startProductionServer } from './production-server';

const PORT = 3401;
const LOAD_MINUTES = Number(process.env.BENCH_MEMORY_MINUTES ?? 30);
/** Quiet time after /readyz and after the load, before the figure "at rest" is taken. */
const SETTLE_SECONDS = Number(process.env.BENCH_MEMORY_SETTLE_SECONDS ?? 30);
const SAMPLE_SECONDS = 10;
/** Requests in flight at once: a busy afternoon, not a flood (the machine is shared). */
const CONCURRENCY = Number(process.env.BENCH_MEMORY_CONCURRENCY ?? 4);
/** Applicants saving answers, each with a session of their own. */
const APPLICANTS = 50;
/** Submitted applications whose PDFs staff open. */
const SUBMITTED = 20;

/** VmRSS and VmHWM of a process, in MB. */
export interface MemorySample {
  rssMb: number;
  hwmMb: number;
}

export function memoryOf(pid: number): MemorySample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(status.match(new RegExp(`${field}:\\s+(\\d+) kB`))?.[1]);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

/** The least-squares slope of `values` taken every `intervalSeconds`, per minute. */
export function slopePerMinute(values: readonly number[], intervalSeconds: number): number {
  const n = values.length;
  if (n < 2) return 0;
  const meanX = ((n - 1) * intervalSeconds) / 2;
  const meanY = values.reduce((sum, value) => sum + value, 0) / n;
  let covariance = 0;
  let variance = 0;
  values.forEach((value, index) => {
    const x = index * intervalSeconds - meanX;
    covariance += x * (value - meanY);
    variance += x * x;
  });
  return (covariance / variance) * 60;
}

export interface MemoryResult {
  database: DatabaseKind;
  /** At rest after the first start on a new database, which imports the school lists. */
  firstStart: MemorySample;
  /** After /readyz on a database already set up and SETTLE_SECONDS of quiet. */
  rest: MemorySample;
  /** The samples during the load, every SAMPLE_SECONDS. */
  during: number[];
  duringMaxMb: number;
  /** SETTLE_SECONDS after the load stopped. */
  after: MemorySample;
  /** Growth over the second half of the load (MB per minute). */
  lastHalfSlopeMbPerMinute: number;
  requests: Record<string, number>;
  failures: number;
  minutes: number;
  loadBefore: number[];
  loadAfter: number[];
}

interface Seeded {
  applicantCookies: string[];
  staffCookie: string;
  submittedIds: string[];
}

async function seed(database: DatabaseHandle): Promise<Seeded> {
  const { db } = database;
  const rows = await db
    .insert(accounts)
    .values(
      Array.from({ length: APPLICANTS + SUBMITTED }, (_, index) => ({
        email: `bench-memory-${index}@example.edu`,
        confirmedAt: new Date(),
      })),
    )
    .returning({ id: accounts.id });
  const saving = rows.slice(0, APPLICANTS);
  const submitted = rows.slice(APPLICANTS);
  await db.insert(applications).values(saving.map((row) => ({ accountId: row.id })));
  const base = Date.now() - SUBMITTED * 60_000;
  await db.insert(applications).values(
    submitted.map((row, index) => ({
      accountId: row.id,
      answers: {
        ...validApplicationAnswers(),
        first_name: `Ana${index}`,
        last_name: 'Reyes',
      } as Record<string, string | boolean>,
      submittedAt: new Date(base + index * 60_000),
    })),
  );
  await db.insert(webStatuses).values(
    submitted.flatMap((row) =>
      (['started', 'validating', 'submitted'] as const).map((webStatus) => ({
        accountId: row.id,
        webStatus,
      })),
    ),
  );
  const expiresAt = new Date(Date.now() + (LOAD_MINUTES + 30) * 60_000);
  const applicantTokens = saving.map(() => randomToken());
  await db.insert(sessions).values(
    saving.map((row, index) => ({
      tokenHash: sha256(applicantTokens[index] as string),
      accountId: row.id,
      expiresAt,
    })),
  );
  const [admin] = await db
    .insert(staffMembers)
    .values({ email: 'bench-memory-admin@staff.example.edu', role: 'admin', displayName: 'Admin' })
    .returning({ id: staffMembers.id });
  if (!admin) throw new Error('no staff member inserted');
  const staffToken = randomToken();
  await db.insert(staffSessions).values({
    tokenHash: sha256(staffToken),
    staffId: admin.id,
    stage: 'signed_in',
    method: 'password',
    secondFactorAt: new Date(),
    expiresAt: new Date(Date.now() + STAFF_SESSION_ABSOLUTE_HOURS * 3_600_000),
  });
  return {
    applicantCookies: applicantTokens.map((token) => `${sessionCookieName(true)}=${token}`),
    staffCookie: `${staffCookieName(true)}=${staffToken}`,
    // An application is known by its account's id.
    submittedIds: submitted.map((row) => row.id),
  };
}

/** What the load sends, in turn: mostly saves, as a day of applicants, then the others. */
const MIX = ['save', 'save', 'search', 'save', 'list', 'save', 'search', 'save', 'pdf'] as const;
type RequestKind = (typeof MIX)[number];

let addresses = 0;
/** Each search from an address of its own, so the per-address limit never refuses. */
const nextAddress = () => {
  addresses++;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

function mixedLoad(base: string, seeded: Seeded) {
  const schools = readLookupList(readDefaultList('hs_ceeb')).rows;
  let turn = 0;
  return async function send(kind: RequestKind): Promise<Response> {
    const n = turn++;
    switch (kind) {
      case 'save': {
        const cookie = seeded.applicantCookies[n % seeded.applicantCookies.length] as string;
        return fetch(`${base}/api/answer`, {
          method: 'PUT',
          headers: { cookie, origin: base, 'content-type': 'application/json' },
          body: JSON.stringify({ middle_name: `M${n}`, preferred_name: `Name ${n}` }),
        });
      }
      case 'search': {
        const school = schools[(n * 7_919) % schools.length];
        const name = school?.name ?? 'Lincoln';
        const text = n % 2 === 0 ? name.slice(0, 3 + (n % 5)) : name;
        const params = new URLSearchParams({ text, category: 'hs_ceeb', max_results: '5' });
        return fetch(`${base}/lookup/find?${params}`, {
          headers: { 'x-forwarded-for': nextAddress() },
        });
      }
      case 'list':
        return fetch(`${base}/staff/api/applications?sort=${n % 2 ? 'name' : 'submitted_at'}`, {
          headers: { cookie: seeded.staffCookie },
        });
      case 'pdf': {
        const id = seeded.submittedIds[n % seeded.submittedIds.length];
        return fetch(`${base}/staff/api/applications/${id}/pdf`, {
          headers: { cookie: seeded.staffCookie, origin: base },
        });
      }
    }
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number) => Math.round(value);

export async function benchMemory(kind: DatabaseKind): Promise<MemoryResult> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-memory-'));
  const adminUrl = process.env.DATABASE_URL;
  if (kind === 'postgres' && !adminUrl) throw new Error('DATABASE_URL is needed for PostgreSQL');
  const scratch =
    kind === 'postgres' && adminUrl ? await scratchPostgres(adminUrl, 'portal_bench_memory') : null;
  try {
    const database = await openDatabase(
      scratch ? { kind: 'postgres', url: scratch.url, poolSize: 2 } : { kind: 'pglite', dataDir },
    );
    const seeded = await seed(database).finally(() => database.close());
    const loadBefore = os.loadavg();
    const start = () =>
      startProductionServer(PORT, {
        DATA_DIR: dataDir,
        DATABASE_URL: scratch?.url,
        // The searchers' addresses come through X-Forwarded-For, as behind a load balancer.
        TRUST_PROXY: '127.0.0.1',
        LOG_LEVEL: 'warn',
      });
    // The first start on a new database imports the school lists that ship with the project.
    const first = await start();
    let firstStart: MemorySample;
    try {
      await sleep(SETTLE_SECONDS * 1000);
      firstStart = memoryOf(first.child.pid as number);
    } finally {
      await first.stop();
    }
    console.log(
      `${kind}: first start, at rest ${round(firstStart.rssMb)} MB (high-water ${round(firstStart.hwmMb)} MB)`,
    );
    // Then as every later start finds it, and as a server at rest is most of its life.
    const server = await start();
    try {
      const pid = server.child.pid as number;
      await sleep(SETTLE_SECONDS * 1000);
      const rest = memoryOf(pid);
      console.log(`${kind}: at rest ${round(rest.rssMb)} MB (high-water ${round(rest.hwmMb)} MB)`);

      const send = mixedLoad(server.base, seeded);
      const requests: Record<string, number> = {};
      let failures = 0;
      const until = Date.now() + LOAD_MINUTES * 60_000;
      const during: number[] = [];
      const sampler = setInterval(() => {
        const sample = memoryOf(pid);
        during.push(sample.rssMb);
        console.log(`${kind}: ${during.length * SAMPLE_SECONDS} s, ${round(sample.rssMb)} MB`);
      }, SAMPLE_SECONDS * 1000);
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (Date.now() < until) {
            const what = MIX[next++ % MIX.length] as RequestKind;
            const response = await send(what);
            await response.arrayBuffer();
            requests[what] = (requests[what] ?? 0) + 1;
            if (!response.ok) {
              failures++;
              if (failures <= 5) console.error(`${what} answered ${response.status}`);
            }
          }
        }),
      );
      clearInterval(sampler);
      await sleep(SETTLE_SECONDS * 1000);
      const after = memoryOf(pid);
      const lastHalf = during.slice(Math.floor(during.length / 2));
      return {
        database: kind,
        firstStart,
        rest,
        during,
        duringMaxMb: during.length > 0 ? Math.max(...during) : after.rssMb,
        after,
        lastHalfSlopeMbPerMinute: slopePerMinute(lastHalf, SAMPLE_SECONDS),
        requests,
        failures,
        minutes: LOAD_MINUTES,
        loadBefore,
        loadAfter: os.loadavg(),
      };
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildServer();
  for (const kind of process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : ['pglite']) {
    console.log(await benchMemory(kind as DatabaseKind));
  }
}
