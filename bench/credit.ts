// Transfer credit: mapping 200 courses through an equivalency table (pure, beside the totals of
// the same courses), and the evaluator's calls on a 30-course application through the production
// server, beside the application's own page call in the same run.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomToken, sha256 } from '../src/server/accounts/secrets';
import { type DatabaseHandle, openDatabase } from '../src/server/db/database';
import {
  accounts,
  applications,
  equivalencies,
  staffMembers,
  staffSessions,
} from '../src/server/db/schema';
import { STAFF_SESSION_ABSOLUTE_HOURS, staffCookieName } from '../src/server/staff/staff-sessions';
import type { DatabaseKind } from '../src/server/test/test-database';
import { collegeCourseworkOf } from '../src/shared/coursework/coursework-answer';
import { DEFAULT_COURSEWORK_RULES } from '../src/shared/coursework/coursework-rules';
import { computeCourseworkTotals } from '../src/shared/coursework/coursework-totals';
import { creditUrls } from '../src/shared/credit/credit-api';
import { evaluateCredit } from '../src/shared/credit/credit-evaluation';
import type { Requirement } from '../src/shared/credit/credit-requirements';
import { type Equivalency, equivalencyKey } from '../src/shared/credit/equivalency';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { sampleGrid, timePure } from './coursework-save';
import { buildServer, scratchPostgres, startProductionServer } from './production-server';
import { percentile } from './timing';

const CEEB = '5074';
const TABLE_ROWS = 20_000;
const REQUESTS = Number(process.env.BENCH_CREDIT_REQUESTS ?? 300);
const PORT = 3393;

/** A table of `rows` rows for 100 colleges; the sample grid's courses are in CEEB 5074's. */
export function sampleTable(rows: number): Equivalency[] {
  const table: Equivalency[] = [];
  for (let index = 0; index < rows; index++) {
    const college = index % 100 === 0 ? CEEB : String(6000 + (index % 100));
    const number = String(100 + Math.floor(index / 100));
    const subject = ['MATH', 'ENGL', 'CHEM', 'HIST', 'PSYC'][Math.floor(index / 100) % 5] ?? 'MATH';
    table.push({
      sendingCeeb: college,
      subject,
      number,
      title: `Course ${subject} ${number}`,
      units: 3,
      localCourse: index % 7 === 0 ? `${subject} 1XX` : `${subject} ${number}`,
      localUnits: 3,
      kind: index % 7 === 0 ? 'elective' : index % 31 === 0 ? 'no_credit' : 'course',
      satisfies: index % 11 === 0 ? ['GE-B4'] : [],
    });
  }
  return table;
}

const REQUIREMENTS: Requirement[] = [
  { id: 'units', label: 'Units', kind: 'min_units', units: 60, show_to_applicant: false },
  { id: 'gpa', label: 'GPA', kind: 'min_gpa', gpa: 2, show_to_applicant: false },
  {
    id: 'ge',
    label: 'GE',
    kind: 'courses',
    codes: ['GE-B4'],
    min_grade: 'C',
    show_to_applicant: false,
  },
];

/** Mapping 200 courses (evaluateCredit, table and requirements) beside their totals alone. */
export function benchCreditMapping() {
  const answer = sampleGrid(200);
  const tables = new Map<string, Map<string, Equivalency>>();
  for (const row of sampleTable(TABLE_ROWS)) {
    const table = tables.get(row.sendingCeeb) ?? new Map<string, Equivalency>();
    table.set(equivalencyKey(row.subject, row.number), row);
    tables.set(row.sendingCeeb, table);
  }
  const grids = [{ key: 'college_coursework', ceeb: CEEB, name: 'Broward College', answer }];
  const evaluate = () =>
    evaluateCredit({
      grids,
      tables,
      reviews: new Map(),
      rules: DEFAULT_COURSEWORK_RULES,
      requirements: REQUIREMENTS,
      answers: {},
    });
  const mapping = timePure(evaluate);
  const totals = timePure(() =>
    computeCourseworkTotals([collegeCourseworkOf(CEEB, answer)], DEFAULT_COURSEWORK_RULES),
  );
  const evaluation = evaluate();
  return {
    mapping,
    totals,
    mapped: evaluation.summary.mapped,
    courses: evaluation.summary.courses,
  };
}

/** The 20,000 rows, a submitted 30-course application and an evaluator's session. */
export async function seedCreditBench(
  database: DatabaseHandle,
): Promise<{ id: string; token: string; cookie: string }> {
  const { db } = database;
  const rows = sampleTable(TABLE_ROWS);
  for (let start = 0; start < rows.length; start += 1000) {
    await db.insert(equivalencies).values(
      rows.slice(start, start + 1000).map((row, offset) => ({
        sendingCeeb: row.sendingCeeb,
        courseKey: equivalencyKey(row.subject, row.number),
        subject: row.subject,
        number: row.number,
        title: row.title,
        units: String(row.units),
        localCourse: row.localCourse,
        localUnits: String(row.localUnits),
        kind: row.kind,
        satisfies: row.satisfies,
        line: start + offset + 2,
      })),
    );
  }
  const [account] = await db
    .insert(accounts)
    .values({ email: 'bench-credit@example.edu', confirmedAt: new Date() })
    .returning({ id: accounts.id });
  const id = account?.id as string;
  await db.insert(applications).values({
    accountId: id,
    answers: {
      ...validApplicationAnswers(),
      college_ceeb: CEEB,
      college_coursework: JSON.stringify(sampleGrid(30)),
    } as Record<string, string | boolean>,
    submittedAt: new Date(),
  });
  const [member] = await db
    .insert(staffMembers)
    .values({ email: 'bench-evaluator@staff.example.edu', role: 'evaluator', displayName: 'Bench' })
    .returning({ id: staffMembers.id });
  const token = randomToken();
  await db.insert(staffSessions).values({
    tokenHash: sha256(token),
    staffId: member?.id as string,
    stage: 'signed_in',
    method: 'password',
    secondFactorAt: new Date(),
    expiresAt: new Date(Date.now() + STAFF_SESSION_ABSOLUTE_HOURS * 3_600_000),
  });
  return { id, token, cookie: `${staffCookieName(true)}=${token}` };
}

export interface EvaluatorCallsResult {
  database: DatabaseKind;
  requests: number;
  applicationP50Ms: number;
  applicationP95Ms: number;
  creditP50Ms: number;
  creditP95Ms: number;
  reviewP50Ms: number;
  reviewP95Ms: number;
}

/** The application's page call and the evaluator's calls, taking turns, on one server. */
export async function benchEvaluatorCalls(kind: DatabaseKind): Promise<EvaluatorCallsResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-credit-'));
  const scratch =
    kind === 'postgres' && process.env.DATABASE_URL
      ? await scratchPostgres(process.env.DATABASE_URL, 'portal_bench_credit')
      : null;
  const database = await openDatabase(
    scratch ? { kind: 'postgres', url: scratch.url, poolSize: 2 } : { kind: 'pglite', dataDir },
  );
  const { id, cookie } = await seedCreditBench(database);
  await database.close();
  const server = await startProductionServer(PORT, {
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: scratch?.url,
  });
  try {
    const headers = { cookie, origin: server.base, 'content-type': 'application/json' };
    const call = async (url: string, init: RequestInit = {}) => {
      const start = performance.now();
      const response = await fetch(`${server.base}${url}`, { headers, ...init });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      return performance.now() - start;
    };
    const first = (await (
      await fetch(`${server.base}${creditUrls.evaluation(id)}`, { headers })
    ).json()) as { courses: Array<{ ref: string }> };
    const refs = first.courses.map((course) => course.ref);
    const times = { application: [] as number[], credit: [] as number[], review: [] as number[] };
    for (let round = 0; round < REQUESTS + 20; round++) {
      const application = await call(`/staff/api/applications/${id}`);
      const credit = await call(creditUrls.evaluation(id));
      const review = await call(creditUrls.review(id), {
        method: 'PUT',
        body: JSON.stringify({ course_ref: refs[round % refs.length], status: 'verified' }),
      });
      if (round < 20) continue;
      times.application.push(application);
      times.credit.push(credit);
      times.review.push(review);
    }
    for (const list of Object.values(times)) list.sort((a, b) => a - b);
    const ms = (list: number[], fraction: number) => Number(percentile(list, fraction).toFixed(1));
    return {
      database: kind,
      requests: REQUESTS,
      applicationP50Ms: ms(times.application, 0.5),
      applicationP95Ms: ms(times.application, 0.95),
      creditP50Ms: ms(times.credit, 0.5),
      creditP95Ms: ms(times.credit, 0.95),
      reviewP50Ms: ms(times.review, 0.5),
      reviewP95Ms: ms(times.review, 0.95),
    };
  } finally {
    await server.stop();
    await scratch?.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(benchCreditMapping());
  buildServer();
  for (const kind of process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : ['pglite']) {
    console.log(await benchEvaluatorCalls(kind as DatabaseKind));
  }
}
