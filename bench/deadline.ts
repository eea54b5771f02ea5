// Deadline night: two servers and their job workers on one PostgreSQL, bursts of applicants
// finishing their application at once (profile, five saves, submit), the build of today against
// the build of the baseline commit in the same run, bursts taking turns.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { Answers } from '../src/shared/form/model';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import {
  BASELINE_COMMIT,
  buildBaseline,
  buildServer,
  type RunningServer,
  scratchPostgres,
  startProductionServer,
} from './production-server';
import { percentile } from './timing';

const root = path.resolve(import.meta.dirname, '..');
const APPLICANTS = Number(process.env.BENCH_DEADLINE_APPLICANTS ?? 200);
const BURSTS = Number(process.env.BENCH_DEADLINE_BURSTS ?? 3);
const WARM_UP_APPLICANTS = Number(process.env.BENCH_DEADLINE_WARM_UP ?? 20);
/** Accounts made at once before a burst (set-up, not measured). */
const SETUP_CONCURRENCY = 8;
const PDF_WAIT_MS = 600_000;
const PASSWORD = 'Deadline-Night-2026';
const UPLOAD_SECRET = 'deadline-bench-upload-signing-secret-0123456789';

/** The last page's answers, sent by the burst; everything else is there before it. */
const FINAL_PAGE_KEYS = [
  'fee_waiver',
  'covid_question',
  'conviction',
  'protective',
  'currently_incarcerated',
  'professional_licensure',
  'continuing_duty_disclosure',
  'counselor_waiver_request',
  'legal_agree',
];
/** Free-text answers each save revises with a value of its own, so a lost save shows. */
const REVISED_KEYS = ['preferred_name', 'middle_name', 'hs_name', 'college_name', 'city'];
const SAVES = REVISED_KEYS.length;

export type Way = 'baseline' | 'current';

interface Applicant {
  email: string;
  address: string;
  cookie: string;
  server: RunningServer;
  /** The last value the server acknowledged (2xx) for each key the burst saved. */
  acknowledged: Map<string, unknown>;
}

interface Side {
  way: Way;
  servers: RunningServer[];
  pool: pg.Pool;
  stop(): Promise<void>;
}

interface BurstResult {
  ms: number;
  saveMs: number[];
  submitMs: number[];
  profileMs: number[];
  errors: number;
  errorSamples: string[];
  submitted: number;
  /** Application PDFs made per minute, from the first submit to the last PDF. */
  pdfsPerMinute: number;
  /** Seconds from the burst's end until every PDF was made. */
  pdfsDoneAfterS: number;
}

export interface DeadlineWayResult {
  way: Way;
  bursts: number;
  applicantsPerBurst: number;
  burstMedianMs: number;
  burstMs: number[];
  savesPerSecond: number;
  submitsPerSecond: number;
  saveP50Ms: number;
  saveP99Ms: number;
  submitP50Ms: number;
  submitP99Ms: number;
  /** Submit p99 over save p99 (goal: 1 or less). */
  submitToSaveP99: number;
  profileP99Ms: number;
  errors: number;
  errorSamples: string[];
  /** Saves acknowledged with 2xx whose value is not in the database afterwards (must be 0). */
  lost: number;
  pdfsPerMinute: number;
  pdfsDoneAfterS: number;
}

export interface DeadlineResult {
  baseline: DeadlineWayResult;
  current: DeadlineWayResult;
  /** Median burst of today's build over the baseline's (goal: 0.5 or less). */
  burstRatio: number;
  baselineCommit: string;
  loadBefore: number[];
  loadAfter: number[];
}

async function startSide(
  way: Way,
  cwd: string,
  ports: { web: [number, number]; jobs: number },
): Promise<Side> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('the deadline benchmark needs DATABASE_URL (PostgreSQL)');
  const scratch = await scratchPostgres(adminUrl, `portal_bench_deadline_${way}`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `portal-bench-deadline-${way}-`));
  const servers: RunningServer[] = [];
  let jobs: RunningServer | null = null;
  const pool = new pg.Pool({ connectionString: scratch.url, max: 4 });
  const stop = async () => {
    await Promise.all([...servers, ...(jobs ? [jobs] : [])].map((server) => server.stop()));
    await pool.end();
    await scratch.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  const start = (port: number, runJobs: boolean) =>
    startProductionServer(
      port,
      {
        DATABASE_URL: scratch.url,
        // All share the uploads and PDFs, as servers behind a balancer share a bucket.
        DATA_DIR: dataDir,
        UPLOAD_SIGNING_SECRET: UPLOAD_SECRET,
        RUN_JOBS: String(runJobs),
        // Each applicant's address comes through X-Forwarded-For, as behind a load balancer.
        TRUST_PROXY: '127.0.0.1',
        LOG_LEVEL: undefined,
        SMTP_URL: undefined,
      },
      cwd,
    );
  try {
    // One after the other: the first migrates the database and imports the lists. The two that
    // answer applicants only enqueue; a third, which takes no traffic, works the jobs (PDFs,
    // mail), as a deployment expecting deadline night runs them.
    jobs = await start(ports.jobs, true);
    for (const port of ports.web) servers.push(await start(port, false));
  } catch (error) {
    await stop();
    throw error;
  }
  return { way, servers, pool, stop };
}

let addresses = 0;
const nextAddress = () => {
  addresses++;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

async function send(
  server: RunningServer,
  method: string,
  url: string,
  address: string,
  body?: unknown,
  cookie?: string,
): Promise<Response> {
  const headers: Record<string, string> = { 'x-forwarded-for': address, origin: server.base };
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${server.base}${url}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function expectOk(response: Response, what: string): Promise<void> {
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${what}: ${response.status} ${text}`);
}

/** The application as it stands before the burst: every answer but the last page's. */
function prefilled(): Answers {
  const answers = validApplicationAnswers();
  for (const key of Object.keys(answers)) {
    if (FINAL_PAGE_KEYS.some((final) => key === final || key === `${final}_desc`))
      delete answers[key];
  }
  return answers;
}

/** The five saves of the last page, each with a revision of one free-text answer. */
function burstSaves(tag: string): Answers[] {
  const all = validApplicationAnswers();
  return REVISED_KEYS.map((revised, i) => {
    const save: Answers = { [revised]: `${String(all[revised] ?? '')} ${tag}${i}`.trim() };
    // A choice travels with its label, as the widgets send them.
    for (const key of FINAL_PAGE_KEYS.filter((_, n) => n % SAVES === i))
      for (const sent of [key, `${key}_desc`])
        if (all[sent] !== undefined) save[sent] = all[sent] as string | boolean;
    return save;
  });
}

/** Letters only (names refuse digits): a tag of its own for each applicant. */
function tagOf(n: number): string {
  let tag = '';
  let rest = n;
  do {
    tag = String.fromCharCode(97 + (rest % 26)) + tag;
    rest = Math.floor(rest / 26);
  } while (rest > 0);
  return tag;
}

let applicantCount = 0;
let tagCount = 0;

/** Signs up (the code read from the outbox, as SMTP_URL is unset), confirms, logs in, prefills. */
async function makeApplicant(side: Side, server: RunningServer): Promise<Applicant> {
  const n = ++applicantCount;
  const email = `deadline${n}.${side.way}.${Date.now().toString(36)}@example.edu`;
  const address = nextAddress();
  const credentials = { username: email, password: PASSWORD };
  await expectOk(await send(server, 'POST', '/public/signup', address, credentials), 'sign-up');
  let code: string | undefined;
  for (let tries = 0; !code; tries++) {
    const { rows } = await side.pool.query<{ text: string }>(
      `select text from outbox where "to" = $1 and subject ilike '%confirmation code%' order by id desc limit 1`,
      [email],
    );
    code = /confirmation code is (\d{6})/.exec(rows[0]?.text ?? '')?.[1];
    if (!code) {
      if (tries > 400) throw new Error(`no confirmation code for ${email}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  await expectOk(
    await send(server, 'POST', '/public/confirm', address, { username: email, code }),
    'confirm',
  );
  const login = await send(server, 'POST', '/public/login', address, credentials);
  const cookie = cookieOf(login);
  await expectOk(login, 'log-in');
  await expectOk(await send(server, 'PUT', '/api/answer', address, prefilled(), cookie), 'prefill');
  return { email, address, cookie, server, acknowledged: new Map() };
}

async function makeApplicants(side: Side, count: number): Promise<Applicant[]> {
  const made: Applicant[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: SETUP_CONCURRENCY }, async () => {
      while (next < count) {
        const n = next++;
        made[n] = await makeApplicant(side, side.servers[n % side.servers.length] as RunningServer);
      }
    }),
  );
  return made;
}

/** All applicants at once, each sending its requests one after another. */
async function burst(side: Side, applicants: Applicant[]): Promise<BurstResult> {
  const saveMs: number[] = [];
  const submitMs: number[] = [];
  const profileMs: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  let submitted = 0;
  const timed = async (
    times: number[],
    call: () => Promise<Response>,
    what: string,
  ): Promise<boolean> => {
    const start = performance.now();
    try {
      const response = await call();
      const text = await response.text();
      times.push(performance.now() - start);
      if (response.status < 300) return true;
      errors++;
      if (errorSamples.length < 5)
        errorSamples.push(`${what}: ${response.status} ${text.slice(0, 300)}`);
    } catch (error) {
      times.push(performance.now() - start);
      errors++;
      if (errorSamples.length < 5) errorSamples.push(`${what}: ${String(error)}`);
    }
    return false;
  };
  const started = performance.now();
  const startedAt = new Date();
  await Promise.all(
    applicants.map(async (applicant) => {
      const { server, address, cookie } = applicant;
      await timed(
        profileMs,
        () => send(server, 'GET', '/api/profile', address, undefined, cookie),
        'profile',
      );
      for (const save of burstSaves(tagOf(tagCount++))) {
        if (
          await timed(
            saveMs,
            () => send(server, 'PUT', '/api/answer', address, save, cookie),
            'save',
          )
        )
          for (const [key, value] of Object.entries(save)) applicant.acknowledged.set(key, value);
      }
      if (
        await timed(
          submitMs,
          () => send(server, 'POST', '/api/submit', address, undefined, cookie),
          'submit',
        )
      )
        submitted++;
    }),
  );
  const ms = performance.now() - started;
  const ended = Date.now();

  // The job workers of both servers make the application PDFs; the burst is over when all exist.
  const emails = applicants.map((applicant) => applicant.email);
  const deadline = Date.now() + PDF_WAIT_MS;
  for (;;) {
    const { rows } = await side.pool.query<{ settled: string }>(
      `select count(*) as settled from application_pdfs p join accounts a on a.id = p.account_id
       where a.email = any($1) and p.status in ('COMPLETED', 'FAILED')
         and p.source_updated_at is not distinct from
           (select updated_at from applications where account_id = p.account_id)`,
      [emails],
    );
    if (Number(rows[0]?.settled) >= submitted) break;
    if (Date.now() > deadline) throw new Error('the application PDFs were not all made in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const pdfsDoneAfterS = (Date.now() - ended) / 1000;
  const { rows } = await side.pool.query<{ made: string; seconds: number | null }>(
    `select count(*) filter (where p.status = 'COMPLETED') as made,
            extract(epoch from max(p.updated_at) - $2::timestamptz)::float8 as seconds
     from application_pdfs p join accounts a on a.id = p.account_id where a.email = any($1)`,
    [emails, startedAt.toISOString()],
  );
  const made = Number(rows[0]?.made ?? 0);
  const seconds = rows[0]?.seconds ?? 0;
  return {
    ms,
    saveMs,
    submitMs,
    profileMs,
    errors,
    errorSamples,
    submitted,
    pdfsPerMinute: seconds > 0 ? (made / seconds) * 60 : 0,
    pdfsDoneAfterS,
  };
}

/** Every save acknowledged with 2xx, read back from the database after the bursts. */
async function lostAnswers(side: Side, applicants: Applicant[]): Promise<number> {
  const { rows } = await side.pool.query<{ email: string; answers: Answers }>(
    `select a.email, p.answers from applications p join accounts a on a.id = p.account_id
     where a.email = any($1)`,
    [applicants.map((applicant) => applicant.email)],
  );
  const stored = new Map(rows.map((row) => [row.email, row.answers]));
  let lost = 0;
  for (const applicant of applicants) {
    const answers = stored.get(applicant.email) ?? {};
    for (const [key, value] of applicant.acknowledged) if (answers[key] !== value) lost++;
  }
  return lost;
}

function summarise(
  way: Way,
  results: BurstResult[],
  lost: number,
  applicantsPerBurst: number,
): DeadlineWayResult {
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const saves = sorted(results.flatMap((result) => result.saveMs));
  const submits = sorted(results.flatMap((result) => result.submitMs));
  const profiles = sorted(results.flatMap((result) => result.profileMs));
  const burstMs = results.map((result) => result.ms);
  const totalSeconds = burstMs.reduce((sum, ms) => sum + ms, 0) / 1000;
  const round1 = (value: number) => Math.round(value * 10) / 10;
  const median = (values: number[]) => percentile(sorted(values), 0.5);
  return {
    way,
    bursts: results.length,
    applicantsPerBurst,
    burstMedianMs: Math.round(median(burstMs)),
    burstMs: burstMs.map(Math.round),
    savesPerSecond: round1(saves.length / totalSeconds),
    submitsPerSecond: round1(
      results.reduce((sum, result) => sum + result.submitted, 0) / totalSeconds,
    ),
    saveP50Ms: round1(percentile(saves, 0.5)),
    saveP99Ms: round1(percentile(saves, 0.99)),
    submitP50Ms: round1(percentile(submits, 0.5)),
    submitP99Ms: round1(percentile(submits, 0.99)),
    submitToSaveP99: Math.round((percentile(submits, 0.99) / percentile(saves, 0.99)) * 100) / 100,
    profileP99Ms: round1(percentile(profiles, 0.99)),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    errorSamples: results.flatMap((result) => result.errorSamples).slice(0, 5),
    lost,
    pdfsPerMinute: Math.round(median(results.map((result) => result.pdfsPerMinute))),
    pdfsDoneAfterS: round1(median(results.map((result) => result.pdfsDoneAfterS))),
  };
}

export async function benchDeadline(): Promise<DeadlineResult> {
  buildServer();
  const baselineDir = buildBaseline();
  const sides: Side[] = [];
  try {
    sides.push(await startSide('baseline', baselineDir, { web: [3710, 3711], jobs: 3712 }));
    sides.push(await startSide('current', root, { web: [3720, 3721], jobs: 3722 }));
    const [baseline, current] = sides as [Side, Side];

    // A small burst on each first: plans, JIT and pools warm, the PDF renderer loaded.
    for (const side of sides) await burst(side, await makeApplicants(side, WARM_UP_APPLICANTS));

    const results = new Map<Way, BurstResult[]>([
      ['baseline', []],
      ['current', []],
    ]);
    const everyone = new Map<Way, Applicant[]>([
      ['baseline', []],
      ['current', []],
    ]);
    const loadBefore = os.loadavg();
    for (let round = 0; round < BURSTS; round++) {
      // Turns alternate which goes first, so neither always follows the other's PDFs.
      const order = round % 2 === 0 ? [baseline, current] : [current, baseline];
      for (const side of order) {
        const applicants = await makeApplicants(side, APPLICANTS);
        const result = await burst(side, applicants);
        console.log(
          `${side.way} burst ${round + 1}: ${Math.round(result.ms)} ms, ${result.errors} errors, load ${os
            .loadavg()
            .map((value) => value.toFixed(2))
            .join(' / ')}`,
        );
        results.get(side.way)?.push(result);
        everyone.get(side.way)?.push(...applicants);
      }
    }
    const loadAfter = os.loadavg();
    const summary = async (side: Side) =>
      summarise(
        side.way,
        results.get(side.way) ?? [],
        await lostAnswers(side, everyone.get(side.way) ?? []),
        APPLICANTS,
      );
    const baselineResult = await summary(baseline);
    const currentResult = await summary(current);
    return {
      baseline: baselineResult,
      current: currentResult,
      burstRatio:
        Math.round((currentResult.burstMedianMs / baselineResult.burstMedianMs) * 100) / 100,
      baselineCommit: BASELINE_COMMIT,
      loadBefore,
      loadAfter,
    };
  } finally {
    for (const side of sides) await side.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchDeadline(), null, 2));
}
