// School search over the 21,435 high schools of lookup-lists/: latency of the search
// statements alone and of GET /lookup/find through the whole server, for what applicants type.
import { buildApp } from '../src/server/app';
import { loadEnv } from '../src/server/config/env';
import { loadTenantConfig } from '../src/server/config/tenant';
import { readDefaultList } from '../src/server/lookup/default-lists';
import { searchList } from '../src/server/lookup/list-search';
import { readLookupList, storeLookupList } from '../src/server/lookup/lookup-import';
import { sampleTenantFile } from '../src/server/test/test-app';
import { createTestDatabase, type DatabaseKind } from '../src/server/test/test-database';
import { applicationModel } from '../src/shared/application/application-model';
import type { LookupResult } from '../src/shared/lookup/lookup-schemas';

const SCHOOLS_SAMPLED = Number(process.env.BENCH_LOOKUP_SCHOOLS ?? 60);

import { percentile } from './timing';

export interface LookupBenchResult {
  database: DatabaseKind;
  schools: number;
  queries: number;
  searchP50Ms: number;
  searchP99Ms: number;
  routeP50Ms: number;
  routeP99Ms: number;
  /** Share of searches for a whole name, a name's start or a misspelled name that list the school. */
  found: number;
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

async function timeEach(
  queries: readonly Query[],
  run: (query: Query) => Promise<LookupResult[]>,
): Promise<{ p50: number; p99: number; found: number }> {
  // One pass to warm caches and plans, then the measured pass.
  for (const query of queries) await run(query);
  const times: number[] = [];
  let wanted = 0;
  let found = 0;
  for (const query of queries) {
    const start = performance.now();
    const results = await run(query);
    times.push(performance.now() - start);
    if (query.wanted) {
      wanted++;
      if (results.some((result) => result.sub_text.endsWith(`CEEB ${query.wanted}`))) found++;
    }
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), found: found / wanted };
}

export async function benchLookup(kind: DatabaseKind): Promise<LookupBenchResult> {
  const database = await createTestDatabase(kind);
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const app = await buildApp({
    env,
    tenant: await loadTenantConfig(sampleTenantFile),
    database,
    model: applicationModel,
    logger: false,
  });
  try {
    const list = readLookupList(readDefaultList('hs_ceeb'));
    await storeLookupList(database.db, 'hs_ceeb', list);
    const queries = queriesFor(list.rows);

    const search = await timeEach(queries, (query) =>
      searchList(database.db, 'hs_ceeb', query.text, 5),
    );
    let address = 0;
    const route = await timeEach(queries, async (query) => {
      const response = await app.inject({
        url: `/lookup/find?${new URLSearchParams({ text: query.text, category: 'hs_ceeb', max_results: '5' })}`,
        // The per-address limit is part of the route; spread over addresses, it never refuses.
        remoteAddress: `10.${(++address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
      });
      if (response.statusCode !== 200) throw new Error(`lookup answered ${response.statusCode}`);
      return response.json<LookupResult[]>();
    });
    return {
      database: kind,
      schools: list.rows.length,
      queries: queries.length,
      searchP50Ms: search.p50,
      searchP99Ms: search.p99,
      routeP50Ms: route.p50,
      routeP99Ms: route.p99,
      found: search.found,
    };
  } finally {
    await app.close();
  }
}
