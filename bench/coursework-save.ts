// Saving a course row against saving a plain answer, through the compiled server in production
// mode, side by side in one run: the two kinds of PUT /api/answer take turns, so a machine getting
// busier or quieter shows in both. A course row is saved as its college's whole grid (one answer),
// which the server parses and checks row by row before storing; the totals are computed where the
// applicant sees them, in the browser, and by the server at submit, so their cost is timed apart.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomToken, sha256 } from '../src/server/accounts/secrets';
import { sessionCookieName } from '../src/server/accounts/sessions';
import { type DatabaseHandle, openDatabase } from '../src/server/db/database';
import { accounts, applications, sessions } from '../src/server/db/schema';
import type { DatabaseKind } from '../src/server/test/test-database';
import { applicationModel } from '../src/shared/application/application-model';
import type { CourseworkAnswer } from '../src/shared/coursework/coursework-answer';
import { DEFAULT_COURSEWORK_RULES } from '../src/shared/coursework/coursework-rules';
import { answerKeySpecs, parseAnswerPatch } from '../src/shared/form/answer-keys';
import { courseworkTotalsOf, enteredCoursework } from '../src/shared/form/coursework-grids';
import { loadFromAnotherProcess } from './answer-save';
import { buildServer, scratchPostgres, startProductionServer } from './production-server';
import { percentile } from './timing';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = 5;
const CONNECTIONS = 50;
const PORT = 3396;
const COURSES_PER_TERM = 7;
const GRADES = ['A', 'A-', 'B+', 'B', 'C', 'P', 'W', 'F'];

/** A college's grid: `courses` courses over terms of seven, the last term in progress. */
export function sampleGrid(courses: number): CourseworkAnswer {
  const terms: CourseworkAnswer['terms'] = [];
  for (let index = 0; index < courses; index++) {
    const termIndex = Math.floor(index / COURSES_PER_TERM);
    const last = termIndex === Math.floor((courses - 1) / COURSES_PER_TERM);
    if (!terms[termIndex])
      terms.push({
        season: (['fall', 'spring'] as const)[termIndex % 2] ?? 'fall',
        year: 2000 + Math.ceil(termIndex / 2),
        status: last ? 'in_progress' : 'completed',
        courses: [],
      });
    terms[termIndex]?.courses.push({
      subject: ['MATH', 'ENGL', 'CHEM', 'HIST', 'PSYC'][index % 5] ?? 'MATH',
      number: String(100 + index),
      title: `Course number ${index + 1} of the sample transcript`,
      units: index % 3 === 0 ? '4' : '3',
      grade: last ? '' : (GRADES[index % GRADES.length] ?? 'A'),
    });
  }
  return { system: 'semester', terms };
}

async function seedApplicant(database: DatabaseHandle, kind: DatabaseKind): Promise<string> {
  const token = randomToken();
  const [account] = await database.db
    .insert(accounts)
    .values({ email: `bench.coursework.${kind}@example.edu`, confirmedAt: new Date() })
    .returning({ id: accounts.id });
  if (!account) throw new Error('no account inserted');
  await database.db
    .insert(applications)
    .values({ accountId: account.id, answers: { college_name: 'Broward College' } });
  await database.db.insert(sessions).values({
    tokenHash: sha256(token),
    accountId: account.id,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return token;
}

/** Median and p95 of a pure computation, in milliseconds, over `runs` runs after a warm-up. */
export function timePure(run: () => unknown, runs = 400): { medianMs: number; p95Ms: number } {
  for (let i = 0; i < 50; i++) run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { medianMs: percentile(times, 0.5), p95Ms: percentile(times, 0.95) };
}

export interface CourseworkSaveResult {
  database: DatabaseKind;
  /** Saves per second, one entry per round. */
  plain: number[];
  row: number[];
  rowP99Ms: number;
  plainP99Ms: number;
  /** The plain save's rate over the course row save's, the median of the rounds' (goal ≤ 1.2). */
  ratio: number;
  worstCase: number;
  worstCaseRatio: number;
}

export async function benchCourseworkSave(kind: DatabaseKind): Promise<CourseworkSaveResult> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-coursework-'));
  const adminUrl = process.env.DATABASE_URL;
  if (kind === 'postgres' && !adminUrl) throw new Error('DATABASE_URL is needed for PostgreSQL');
  const scratch =
    kind === 'postgres' && adminUrl
      ? await scratchPostgres(adminUrl, 'portal_bench_coursework')
      : null;
  try {
    const seeded = scratch
      ? await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 2 })
      : await openDatabase({ kind: 'pglite', dataDir });
    const token = await seedApplicant(seeded, kind).finally(() => seeded.close());
    const server = await startProductionServer(PORT, {
      DATA_DIR: dataDir,
      DATABASE_URL: scratch?.url,
      LOG_LEVEL: undefined,
    });
    const headers = {
      cookie: `${sessionCookieName(true)}=${token}`,
      origin: server.base,
      'content-type': 'application/json',
    };
    const save = async (body: Record<string, string>) => {
      const result = await loadFromAnotherProcess({
        url: `${server.base}/api/answer`,
        method: 'PUT',
        connections: CONNECTIONS,
        duration: SECONDS,
        headers,
        body: JSON.stringify(body),
      });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`saves failed: ${result.non2xx} non-2xx, ${result.errors} errors`);
      return result;
    };
    // A transfer applicant's usual transcript: two years, some 60 units.
    const typical = { college_coursework: JSON.stringify(sampleGrid(20)) };
    const worst = { college_coursework: JSON.stringify(sampleGrid(200)) };
    const plainBody = { middle_name: 'Plain answer' };
    const plain: number[] = [];
    const row: number[] = [];
    let plainP99 = 0;
    let rowP99 = 0;
    let worstRate = 0;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const a = await save(plainBody);
        const b = await save(typical);
        plain.push(a.requests.average);
        row.push(b.requests.average);
        plainP99 = Math.max(plainP99, a.latency.p99);
        rowP99 = Math.max(rowP99, b.latency.p99);
      }
      worstRate = (await save(worst)).requests.average;
    } finally {
      await server.stop();
    }
    // Each round's two runs follow each other, so their ratio sees the same machine; the
    // median of the rounds' ratios leaves out a round the machine's other work disturbed.
    const ratios = plain.map((rate, round) => rate / (row[round] ?? rate)).sort((a, b) => a - b);
    const plainRates = [...plain].sort((a, b) => a - b);
    return {
      database: kind,
      plain,
      row,
      plainP99Ms: plainP99,
      rowP99Ms: rowP99,
      ratio: percentile(ratios, 0.5),
      worstCase: worstRate,
      worstCaseRatio: percentile(plainRates, 0.5) / worstRate,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

/** The computations a course row's change runs, for 200 courses, in this process. */
export function benchCourseworkComputation() {
  const grid = JSON.stringify(sampleGrid(200));
  const state = {
    answers: { college_name: 'Broward College', college_coursework: grid },
    addAnother: {},
    tabs: {},
    isLoggedIn: true,
  };
  const specs = answerKeySpecs(applicationModel);
  return {
    totals: timePure(() =>
      courseworkTotalsOf(enteredCoursework(applicationModel, state), DEFAULT_COURSEWORK_RULES),
    ),
    check: timePure(() =>
      parseAnswerPatch(specs, { college_coursework: grid }, { today: '2026-11-28' }),
    ),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildServer();
  console.log(benchCourseworkComputation());
  for (const kind of process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : ['pglite']) {
    console.log(await benchCourseworkSave(kind as DatabaseKind));
  }
}
