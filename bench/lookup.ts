import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readDefaultList } from '../src/server/lookup/default-lists';
import { readLookupList } from '../src/server/lookup/lookup-import';
import type { DatabaseKind } from '../src/server/test/test-database';
import type { LookupResult } from '../src/shared/lookup/lookup-schemas';
import {
  buildServer,
  type RunningServer,
  scratchPostgres,
  startProductionServer,
} from './production-server';
import { percentile } from './timing';

const _root = path.resolve(import.meta.dirname, '..');
const SCHOOLS_SAMPLED = Number(process.env.BENCH_LOOKUP_SCHOOLS ?? 60);
const CONCURRENCY = Number(process.env.BENCH_LOOKUP_CONCURRENCY ?? 20);
const ROUNDS = Number(process.env.BENCH_LOOKUP_ROUNDS ?? 5);
const PORTS = { current: 3394, baseline: 3396 } as const;

/** Today's build, or the previous implementation (the school search in SQL) built beside it. */
export type LookupWay = keyof typeof PORTS;

export interface LookupBenchResult {
  database: DatabaseKind;
  way: LookupWay;
  schools: number;
  /** Searches measured (each query once per round). */
  searches: number;
  searchP50Ms: number;
  searchP99Ms: number;
  healthP50Ms: number;
  healthP99Ms: number;
  /** GET /lookup/find p99 over GET /healthz p99 (goal: 3 or less). */
  ratio: number;
  /** Share of searches for a whole or misspelled name that list the school in the first five. */
  found: number;
  /** Build and first search of the index: the slowest warm-up search. */
  firstSearchMs: number;
  loadBefore: number[];
  loadAfter: number[];
}

interface Query {
  text: string;
  /** The CEEB code of the school meant, when the search should list it. */
  wanted?: string;
}

/** A small seeded generator, so every run types the same things. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * What applicants type, for a sample of schools: the first three letters, the first word and a
 * bit, the whole name, the name with two letters swapped, and the start of the CEEB code.
 */
function queriesFor(schools: ReadonlyArray<{ name: string; ceeb: string }>): Query[] {
  const next = random(20_261_122);
  const queries: Query[] = [];
  for (let i = 0; i < SCHOOLS_SAMPLED; i++) {
    const school = schools[Math.floor(next() * schools.length)];
    if (!school) continue;
    const { name, ceeb } = school;
    const [first = '', second = ''] = name.split(' ');
    const middle = Math.max(1, Math.floor(name.length / 2));
    const swapped = `${name.slice(0, middle - 1)}${name[middle]}${name[middle - 1]}${name.slice(middle + 1)}`;
    queries.push(
      { text: name.slice(0, 3) },
      { text: `${first} ${second.slice(0, 3)}`.trim() },
      { text: name, wanted: ceeb },
      { text: swapped, wanted: ceeb },
      { text: ceeb.slice(0, 4) },
    );
  }
  return queries;
}

let addresses = 0;
/** Each search from an address of its own, as applicants are: the per-address limit never refuses. */
const nextAddress = () => {
  addresses++;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

async function search(base: string, query: Query): Promise<LookupResult[]> {
  const params = new URLSearchParams({ text: query.text, category: 'hs_ceeb', max_results: '5' });
  const response = await fetch(`${base}/lookup/find?${params}`, {
    headers: { 'x-forwarded-for': nextAddress() },
  });
  if (response.status !== 200) throw new Error(`lookup answered ${response.status}`);
  return (await response.json()) as LookupResult[];
}

async function health(base: string): Promise<void> {
  const response = await fetch(`${base}/healthz`);
  if (response.status !== 200) throw new Error(`healthz answered ${response.status}`);
  await response.arrayBuffer();
}

/** Runs `count` calls with CONCURRENCY in flight, timing each. */
async function underLoad(count: number, call: (n: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let taken = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (taken < count) {
        const n = taken++;
        const start = performance.now();
        await call(n);
        times.push(performance.now() - start);
      }
    }),
  );
  return times;
}

export async function benchLookup(
  kind: DatabaseKind,
  way: LookupWay = 'current',
  cwd?: string,
): Promise<LookupBenchResult> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-lookup-'));
  const adminUrl = process.env.DATABASE_URL;
  if (kind === 'postgres' && !adminUrl) throw new Error('DATABASE_URL is needed for PostgreSQL');
  const scratch =
    kind === 'postgres' && adminUrl ? await scratchPostgres(adminUrl, 'portal_bench_lookup') : null;
  let server: RunningServer | null = null;
  try {
    server = await startProductionServer(
      PORTS[way],
      {
        DATA_DIR: dataDir,
        // The searchers' addresses come through X-Forwarded-For, as behind a load balancer.
        TRUST_PROXY: '127.0.0.1',
        // Production's default logging, whatever this shell sets.
        LOG_LEVEL: undefined,
        DATABASE_URL: scratch?.url,
      },
      cwd,
    );
    const base = server.base;

    const list = readLookupList(readDefaultList('hs_ceeb'));
    const queries = queriesFor(list.rows);
    // One pass to build the index and warm caches and plans.
    let firstSearchMs = 0;
    for (const query of queries) {
      const start = performance.now();
      await search(base, query);
      firstSearchMs = Math.max(firstSearchMs, performance.now() - start);
    }

    const loadBefore = os.loadavg();
    const healthTimes: number[] = [];
    const searchTimes: number[] = [];
    let wanted = 0;
    let found = 0;
    for (let round = 0; round < ROUNDS; round++) {
      healthTimes.push(...(await underLoad(queries.length, () => health(base))));
      searchTimes.push(
        ...(await underLoad(queries.length, async (n) => {
          const query = queries[n] as Query;
          const results = await search(base, query);
          if (query.wanted) {
            wanted++;
            if (results.some((result) => result.sub_text.endsWith(`CEEB ${query.wanted}`))) found++;
          }
        })),
      );
    }
    const loadAfter = os.loadavg();
    const sorted = (times: number[]) => times.sort((a, b) => a - b);
    sorted(healthTimes);
    sorted(searchTimes);
    const round1 = (value: number) => Math.round(value * 10) / 10;
    const searchP99 = percentile(searchTimes, 0.99);
    const healthP99 = percentile(healthTimes, 0.99);
    return {
      database: kind,
      way,
      schools: list.rows.length,
      searches: searchTimes.length,
      searchP50Ms: round1(percentile(searchTimes, 0.5)),
      searchP99Ms: round1(searchP99),
      healthP50Ms: round1(percentile(healthTimes, 0.5)),
      healthP99Ms: round1(healthP99),
      ratio: Math.round((searchP99 / healthP99) * 100) / 100,
      found: found / wanted,
      firstSearchMs: Math.round(firstSearchMs),
      loadBefore,
      loadAfter,
    };
  } finally {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildServer();
  for (const kind of process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : ['pglite']) {
    console.log(await benchLookup(kind as DatabaseKind));
  }
}
