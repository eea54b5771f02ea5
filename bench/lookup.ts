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
const ROUNDS = Number(process.env.BENCH_LOOKUP_ROUNDS ?? 10);
const PORTS = { current: 3394, baseline: 3396 } as const;

/** Today's build, or the previous implementation (the school search in SQL) built beside it. */
export type LookupWay = keyof typeof PORTS;

/** One kind of query (or all of them), timed in the same mixed load. */
export interface KindTimes {
  kind: QueryKind | 'all';
  searches: number;
  p50Ms: number;
  p99Ms: number;
  /** This kind's p99 over GET /healthz's p99 in the same run (goal: 1.5 or less). */
  ratio: number;
}

export interface LookupBenchResult {
  database: DatabaseKind;
  way: LookupWay;
  schools: number;
  /** Each kind apart, then all searches together. */
  kinds: KindTimes[];
  healthP50Ms: number;
  healthP99Ms: number;
  /** Share of searches for a whole or misspelled name that list the school in the first five. */
  found: number;
  /** Build and first search of the index: the slowest warm-up search. */
  firstSearchMs: number;
  loadBefore: number[];
  loadAfter: number[];
}

/** What applicants type, each kind reported apart. */
export const QUERY_KINDS = ['prefix', 'word', 'words', 'misspelled', 'code'] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

export const KIND_LABELS: Record<QueryKind, string> = {
  prefix: 'three letters of a word',
  word: 'one whole word',
  words: 'several words',
  misspelled: 'misspelled name',
  code: 'start of the CEEB code',
};

export interface Query {
  kind: QueryKind;
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

/** Two letters swapped in the middle of `text` ("Stuyvesnat"). */
function swapped(text: string): string {
  const middle = Math.max(1, Math.floor(text.length / 2));
  return `${text.slice(0, middle - 1)}${text[middle]}${text[middle - 1]}${text.slice(middle + 1)}`;
}

/** One letter left out of the middle of `text` ("Stuyvesnt"). */
function dropped(text: string): string {
  const middle = Math.max(1, Math.floor(text.length / 2));
  return `${text.slice(0, middle)}${text.slice(middle + 1)}`;
}

/**
 * What applicants type, for a sample of schools, in equal numbers of each kind: the first three
 * letters of one of the name's words (as typed, in lower case), one whole word of the name, several
 * words (the whole name, its first two words, or its first word and the city), the name misspelled
 * (two letters swapped or one left out, in the name or in its longest word alone), and the start of
 * the CEEB code.
 */
export function queriesFor(
  schools: ReadonlyArray<{ name: string; ceeb: string | null; city: string | null }>,
  count = SCHOOLS_SAMPLED,
): Query[] {
  const next = random(20_261_122);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const queries: Query[] = [];
  for (let i = 0; i < count; i++) {
    const { name, ceeb, city } = pick(schools);
    const words = name.split(' ').filter((word) => word !== '');
    const [first = '', second = ''] = words;
    const longest = words.reduce((a, b) => (b.length > a.length ? b : a), '');
    const several = [name, `${first} ${second}`.trim(), `${first} ${city ?? ''}`.trim()];
    const misspelled = [swapped(name), dropped(name), swapped(longest), dropped(longest)];
    queries.push(
      { kind: 'prefix', text: pick(words).slice(0, 3).toLowerCase() },
      { kind: 'word', text: pick(words) },
      {
        kind: 'words',
        text: several[i % several.length] as string,
        // The whole name should list its school; its first two words may name dozens.
        wanted: i % several.length === 0 ? (ceeb ?? undefined) : undefined,
      },
      {
        kind: 'misspelled',
        text: misspelled[i % misspelled.length] as string,
        // A misspelled word alone names many schools: only a misspelled name should find its own.
        wanted: i % misspelled.length < 2 ? (ceeb ?? undefined) : undefined,
      },
      { kind: 'code', text: (ceeb ?? '').slice(0, 4) },
    );
  }
  return queries.filter((query) => query.text !== '');
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
    const searchTimes = new Map<QueryKind, number[]>(QUERY_KINDS.map((kind) => [kind, []]));
    let wanted = 0;
    let found = 0;
    for (let round = 0; round < ROUNDS; round++) {
      healthTimes.push(...(await underLoad(queries.length, () => health(base))));
      // The kinds mixed as applicants type them, each search's time kept under its kind.
      await underLoad(queries.length, async (n) => {
        const query = queries[n] as Query;
        const start = performance.now();
        const results = await search(base, query);
        searchTimes.get(query.kind)?.push(performance.now() - start);
        if (query.wanted) {
          wanted++;
          if (results.some((result) => result.sub_text.endsWith(`CEEB ${query.wanted}`))) found++;
        }
      });
    }
    const loadAfter = os.loadavg();
    const sorted = (times: number[]) => [...times].sort((a, b) => a - b);
    const round1 = (value: number) => Math.round(value * 10) / 10;
    const healthInOrder = sorted(healthTimes);
    const healthP99 = percentile(healthInOrder, 0.99);
    const timesOf = (kind: QueryKind | 'all', times: number[]): KindTimes => {
      const inOrder = sorted(times);
      const p99 = percentile(inOrder, 0.99);
      return {
        kind,
        searches: inOrder.length,
        p50Ms: round1(percentile(inOrder, 0.5)),
        p99Ms: round1(p99),
        ratio: Math.round((p99 / healthP99) * 100) / 100,
      };
    };
    return {
      database: kind,
      way,
      schools: list.rows.length,
      kinds: [
        ...QUERY_KINDS.map((queryKind) => timesOf(queryKind, searchTimes.get(queryKind) ?? [])),
        timesOf('all', [...searchTimes.values()].flat()),
      ],
      healthP50Ms: round1(percentile(healthInOrder, 0.5)),
      healthP99Ms: round1(healthP99),
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
    console.dir(await benchLookup(kind as DatabaseKind), { depth: 3 });
  }
}
