// The server's memory: the resident set of the compiled server's process in production mode,
// started as `npm start` starts it, at rest, during a mixed load (answer saves, school searches,
// the staff list, application PDFs) and after it, on each database. On the embedded database
// PGlite runs on a thread of the same process, so the process's figure holds it. Growth is what
// this is for, read from the lows: the resident set climbs between garbage collections and falls
// at each, so the highs, or a slope through every sample, say where a fall landed; the lowest
// sample of each window of the load, once the caches are warm, says where memory stands.
// On PGlite each sample also prints the database thread's parts (its young generation, its heap,
// PostgreSQL's WebAssembly memory) from the server's /metrics, one scrape a sample.
// Run alone with `npm run bench -- memory`; BENCH_MEMORY_MINUTES sets the load (default 30).
import { randomBytes } from 'node:crypto';
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

/** A port for each database, so the two can be measured by runs going on at once. */
const PORTS: Record<DatabaseKind, number> = { pglite: 3401, postgres: 3402 };
/** As production starts it: `npm start` runs the compiled server through this launcher. */
const LAUNCHER = ['scripts/run-built.mjs'];
const LOAD_MINUTES = Number(process.env.BENCH_MEMORY_MINUTES ?? 30);
/** Quiet time after /readyz and after the load, before the figure "at rest" is taken. */
const SETTLE_SECONDS = Number(process.env.BENCH_MEMORY_SETTLE_SECONDS ?? 30);
const SAMPLE_SECONDS = 10;
/**
 * Requests sent a second, at a fixed pace: a busy afternoon, not a flood. Growth is about memory,
 * not speed, and a load that took every core for half an hour would disturb other measurements.
 */
const RATE = Number(process.env.BENCH_MEMORY_RATE ?? 20);
/** At most this many in flight: a request due while they are all out is skipped and counted. */
const CONCURRENCY = Number(process.env.BENCH_MEMORY_CONCURRENCY ?? 4);
/** The load is read in this many windows of equal length; the first is its warm-up. */
const WINDOWS = 6;
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

/** The embedded database thread's memory as /metrics reports it, in MB. */
export interface DatabaseThreadSample {
  youngGenerationMb: number;
  heapMb: number;
  wasmMb: number;
}

/** The database thread's parts from a /metrics body; null where it has none (PostgreSQL). */
export function databaseThreadOf(metricsBody: string): DatabaseThreadSample | null {
  const part = (name: string) => {
    const series = `portal_embedded_db_memory_bytes{part="${name}"} `;
    const line = metricsBody.split('\n').find((candidate) => candidate.startsWith(series));
    return line === undefined ? null : Number(line.slice(series.length)) / 1024 / 1024;
  };
  const [youngGenerationMb, heapMb, wasmMb] = ['young_generation', 'heap', 'wasm'].map(part);
  if (youngGenerationMb == null || heapMb == null || wasmMb == null) return null;
  return { youngGenerationMb, heapMb, wasmMb };
}

/** A sample's time from the load's start, in seconds, and its value. */
export interface TimedValue {
  seconds: number;
  value: number;
}

/** The least-squares slope of `points`, per minute. */
export function slopePerMinute(points: readonly TimedValue[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const meanX = points.reduce((sum, point) => sum + point.seconds, 0) / n;
  const meanY = points.reduce((sum, point) => sum + point.value, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const point of points) {
    covariance += (point.seconds - meanX) * (point.value - meanY);
    variance += (point.seconds - meanX) ** 2;
  }
  return variance === 0 ? 0 : (covariance / variance) * 60;
}

/**
 * The lowest of `values` (taken every `intervalSeconds`) in each of `windows` windows of equal
 * length, the first left out: where memory stands once collected, which is what grows if
 * anything is kept. A window has at least one sample; fewer samples than windows, fewer lows.
 */
export function windowLows(
  values: readonly number[],
  intervalSeconds: number,
  windows: number,
): TimedValue[] {
  const size = Math.max(1, Math.floor(values.length / windows));
  const lows: TimedValue[] = [];
  for (let start = size; start + size <= values.length; start += size) {
    let lowest = start;
    for (let index = start; index < start + size; index++) {
      if ((values[index] as number) < (values[lowest] as number)) lowest = index;
    }
    lows.push({ seconds: (lowest + 1) * intervalSeconds, value: values[lowest] as number });
  }
  return lows;
}

export interface MemoryResult {
  database: DatabaseKind;
  /** At rest after the first start on a new database, which imports the school lists. */
  firstStart: MemorySample;
  /** After /readyz on a database already set up and SETTLE_SECONDS of quiet. */
  rest: MemorySample;
  /** The same, started as `node dist/server/main.js` rather than through `npm start`'s launcher. */
  restPlainNode: MemorySample;
  /** The samples during the load, every SAMPLE_SECONDS. */
  during: number[];
  /** PGlite: the database thread's memory at the last sample of the load (from /metrics). */
  databaseThreadAtEnd: DatabaseThreadSample | null;
  duringMaxMb: number;
  /** SETTLE_SECONDS after the load stopped. */
  after: MemorySample;
  /** The lowest sample of each window of the load but the first. */
  lows: TimedValue[];
  /** The slope fitted to the lows (MB per minute): growth once collected. */
  lowsSlopeMbPerMinute: number;
  requests: Record<string, number>;
  /** Requests due while CONCURRENCY were still out, not sent. */
  skipped: number;
  failures: number;
  minutes: number;
  /** Requests a second asked for, and sent. */
  rate: number;
  sentRate: number;
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
    const metricsToken = randomBytes(24).toString('hex');
    const startOnce = (args: readonly string[]) =>
      startProductionServer(
        PORTS[kind],
        {
          DATA_DIR: dataDir,
          DATABASE_URL: scratch?.url,
          // The searchers' addresses come through X-Forwarded-For, as behind a load balancer.
          TRUST_PROXY: '127.0.0.1',
          LOG_LEVEL: 'warn',
          // /metrics tells the database thread's memory apart from the process's.
          METRICS_TOKEN: metricsToken,
          // The allocator's settings are the launcher's to make (or not, when started without it).
          MALLOC_TRIM_THRESHOLD_: undefined,
        },
        undefined,
        args,
      );
    // On a machine this busy a start can outlast the server's own start-up timeout (the first
    // one imports the school lists, and a later one finds whatever is still missing): one more
    // try measures the same thing.
    const start = (args = LAUNCHER) =>
      startOnce(args).catch((error) => {
        console.error(`${kind}: the start failed (${error}), starting again`);
        return startOnce(args);
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
    // The compiled server started by node itself, without the launcher's allocator setting.
    const plain = await start(['dist/server/main.js']);
    let restPlainNode: MemorySample;
    try {
      await sleep(SETTLE_SECONDS * 1000);
      restPlainNode = memoryOf(plain.child.pid as number);
    } finally {
      await plain.stop();
    }
    console.log(`${kind}: at rest on plain node ${round(restPlainNode.rssMb)} MB`);
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
      let databaseThreadAtEnd: DatabaseThreadSample | null = null;
      const sampler = setInterval(async () => {
        const sample = memoryOf(pid);
        during.push(sample.rssMb);
        const at = `${kind}: ${during.length * SAMPLE_SECONDS} s, ${round(sample.rssMb)} MB`;
        const thread = await fetch(`${server.base}/metrics`, {
          headers: { authorization: `Bearer ${metricsToken}` },
        })
          .then(async (response) => databaseThreadOf(await response.text()))
          .catch(() => null);
        if (thread) databaseThreadAtEnd = thread;
        console.log(
          thread
            ? `${at} (database thread: young generation ${round(thread.youngGenerationMb)} MB, heap ${round(thread.heapMb)} MB, WebAssembly ${round(thread.wasmMb)} MB)`
            : at,
        );
      }, SAMPLE_SECONDS * 1000);
      // Paced: request n is due n / RATE seconds after the start, whether or not the ones before
      // it have answered, so a slow moment does not make a burst after it.
      let skipped = 0;
      const loadStart = Date.now();
      const inFlight = new Set<Promise<void>>();
      for (let n = 0; loadStart + (n * 1000) / RATE < until; n++) {
        const due = loadStart + (n * 1000) / RATE;
        if (due > Date.now()) await sleep(due - Date.now());
        if (inFlight.size >= CONCURRENCY) {
          skipped++;
          continue;
        }
        const what = MIX[n % MIX.length] as RequestKind;
        const request = (async () => {
          try {
            const response = await send(what);
            await response.arrayBuffer();
            requests[what] = (requests[what] ?? 0) + 1;
            if (!response.ok) {
              failures++;
              if (failures <= 5) console.error(`${what} answered ${response.status}`);
            }
          } catch (error) {
            // A refused connection is a failure to count, not a reason to lose half an hour.
            failures++;
            if (failures <= 5) console.error(`${what} failed: ${error}`);
          }
        })();
        inFlight.add(request);
        void request.then(() => inFlight.delete(request));
      }
      await Promise.all(inFlight);
      const loadSeconds = (Date.now() - loadStart) / 1000;
      clearInterval(sampler);
      await sleep(SETTLE_SECONDS * 1000);
      const after = memoryOf(pid);
      const lows = windowLows(during, SAMPLE_SECONDS, WINDOWS);
      const sent = Object.values(requests).reduce((sum, count) => sum + count, 0);
      return {
        database: kind,
        firstStart,
        rest,
        restPlainNode,
        during,
        databaseThreadAtEnd,
        duringMaxMb: during.length > 0 ? Math.max(...during) : after.rssMb,
        after,
        lows,
        lowsSlopeMbPerMinute: slopePerMinute(lows),
        requests,
        skipped,
        failures,
        minutes: LOAD_MINUTES,
        rate: RATE,
        sentRate: sent / loadSeconds,
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
