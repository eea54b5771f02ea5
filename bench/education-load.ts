// First load of /education on a phone for an applicant with 200 courses (issue 27: "the
// /education page's first load with 200 courses on a phone"), side by side with the same page for
// an applicant with the same answers and no coursework. The app is built and run as production
// runs it (`node dist/server/main.js`, NODE_ENV=production, default logging, the embedded
// database in a scratch directory); the two applicants, their applications and their sessions are
// written straight into the database beforehand, as bench/answer-save.ts does. Chromium opens
// each applicant's /education in a fresh context (no cache, no storage, the session only)
// on a 390 x 844 mobile viewport with the CPU slowed 4x, in turns, and times each to "ready" (see
// READY_PROBE) from its navigation's start.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from '@playwright/test';
import { randomToken, sha256 } from '../src/server/accounts/secrets';
import { sessionCookieName } from '../src/server/accounts/sessions';
import { type DatabaseHandle, openDatabase } from '../src/server/db/database';
import { accounts, applications, sessions } from '../src/server/db/schema';
import { LOGGED_IN_MARKER_COOKIE } from '../src/shared/accounts/session-cookies';
import { sampleGrid } from './coursework-save';
import {
  type Comparison,
  compare,
  PROBE_SOURCE,
  type RunTimes,
  SETTLE_MS,
  TEXT,
  typeRun,
} from './keystroke-app';
import { buildServer, type RunningServer, startProductionServer } from './production-server';
import { percentile } from './timing';

const projectRoot = path.resolve(import.meta.dirname, '..');
const PORT = 3533;
const RUNS = Number(process.env.BENCH_EDUCATION_RUNS ?? 7);
const CPU_SLOWDOWN = 4;
const PHONE = { width: 390, height: 844 };
/** 200 courses over three colleges, in terms of at most seven: 10 + 10 + 9 = 29 terms. */
const COURSES_PER_COLLEGE = [70, 70, 60] as const;
const GRID_KEYS = ['college_coursework', 'college_2_coursework', 'college_3_coursework'];

/** The answers both applicants share: three colleges, named (which shows their grids). */
const SHARED_ANSWERS: Record<string, string> = {
  college_name: 'Broward College',
  college_2_name: 'Miami Dade College',
  college_3_name: 'Palm Beach State College',
};

/** The id of the grade input of a grid's last course (see cellFocus in coursework-term.tsx). */
function lastGradeId(key: string, courses: number): string {
  const lastTerm = Math.floor((courses - 1) / 7);
  const lastCourse = (courses - 1) % 7;
  return `${key}-t${lastTerm}-c${lastCourse}-grade`;
}

/**
 * Ready: in one animation frame (after style and layout, before the paint), the first text-entry
 * field in <main> has a box inside the viewport and takes typing (as bench/first-load.ts), and
 * every element named in `window.__readyIds` is in the document with a box of its own (laid out,
 * not hidden: it would show once scrolled to). For the page with coursework that is the third
 * college's name and the last course's grade input in each of the three grids (so every grid is
 * drawn to its last row); for the page without, the third college's name (so the page is drawn to
 * the same last college). Also kept: the long tasks (over 50 ms) the page ran, from a buffered
 * observer.
 */
const READY_PROBE = `(() => {
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const hasBox = (element) => {
    if (!element) return false;
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const check = () => {
    const field = document.querySelector('main input:not([type=hidden]), main select, main textarea');
    if (field && !field.disabled && !field.readOnly && hasBox(field)) {
      const box = field.getBoundingClientRect();
      const ids = window.__readyIds || [];
      if (box.top < innerHeight && box.bottom > 0 &&
          ids.every((id) => hasBox(document.getElementById(id)))) {
        window.__ready = performance.now();
        return;
      }
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

export interface EducationLoadResult {
  runs: number;
  cpuSlowdown: number;
  courses: number;
  withReadyMs: number[];
  withoutReadyMs: number[];
  withMedianMs: number;
  withoutMedianMs: number;
  /** With coursework over without, medians (goal ≤ 1.5). */
  ratio: number;
  /** Main-thread long tasks before ready, median per visit: count and summed milliseconds. */
  withLongTasks: { count: number; ms: number; longestMs: number };
  withoutLongTasks: { count: number; ms: number; longestMs: number };
  /** Every script either page fetched until the network was idle, gzipped, in KB. */
  withGzipKb: number;
  withoutGzipKb: number;
  /** The GET of the application (its answers) as the page received it, in KB uncompressed. */
  withAnswersKb: number;
  withoutAnswersKb: number;
  scripts: { file: string; gzipKb: number }[];
  /** Three more visits of each page, traced, not timed: where the main thread's time went. */
  withBreakdown: Breakdown;
  withoutBreakdown: Breakdown;
  loadBefore: number[];
  loadAfter: number[];
}

interface Visit {
  readyMs: number;
  scripts: string[];
  longTasks: { count: number; ms: number; longestMs: number };
  answersKb: number;
  breakdown?: Breakdown;
}

/** Main-thread time before ready by trace event, self time (children left out), in ms. */
type Breakdown = { event: string; ms: number }[];

const TRACED_VISITS = 3;

/** Each event's median self time over the traced visits (0 where a visit had none of it). */
function medianBreakdown(visits: Visit[]): Breakdown {
  const names = new Set(visits.flatMap((one) => (one.breakdown ?? []).map((entry) => entry.event)));
  return [...names]
    .map((event) => ({
      event,
      ms: median(
        visits.map((one) => one.breakdown?.find((entry) => entry.event === event)?.ms ?? 0),
      ),
    }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 8);
}

const TRACE_CATEGORIES = ['devtools.timeline', 'blink.user_timing', 'v8', 'loading'];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { functionName?: string; url?: string } };
}

/**
 * The renderer's main thread from the navigation's start to ready: each complete event's self
 * time (its duration less that of the events inside it), summed by name; a script's compile and
 * run counts under its own name. Times are the throttled CPU's (4x slower).
 */
function mainThreadBreakdown(trace: Buffer, readyMs: number): Breakdown {
  const { traceEvents } = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] };
  // The navigation to /education: its renderer's main thread, from its start.
  const navigation = traceEvents.find(
    (event) =>
      event.name === 'navigationStart' && JSON.stringify(event.args ?? {}).includes('/education'),
  );
  if (!navigation) return [];
  const onMain = traceEvents.filter(
    (event) => event.pid === navigation.pid && event.tid === navigation.tid && event.ph === 'X',
  );
  const start: number | undefined = navigation.ts;
  const from = start ?? 0;
  const until = start === undefined ? Number.POSITIVE_INFINITY : start + readyMs * 1000;
  const events = onMain
    .filter((event) => event.ts >= from && event.ts <= until)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const stack: { end: number; key: string }[] = [];
  for (const event of events) {
    const duration = event.dur ?? 0;
    while (stack.length > 0 && (stack.at(-1)?.end ?? 0) <= event.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent.key, (self.get(parent.key) ?? 0) - duration);
    const key = event.name;
    self.set(key, (self.get(key) ?? 0) + duration);
    stack.push({ end: event.ts + duration, key });
  }
  return [...self]
    .map(([event, micros]) => ({ event, ms: Math.round(micros / 1000) }))
    .filter((entry) => entry.ms >= 5)
    .sort((a, b) => b.ms - a.ms);
}

async function seedApplicant(
  database: DatabaseHandle,
  email: string,
  answers: Record<string, string>,
): Promise<string> {
  const token = randomToken();
  const [account] = await database.db
    .insert(accounts)
    .values({ email, confirmedAt: new Date() })
    .returning({ id: accounts.id });
  if (!account) throw new Error('no account inserted');
  await database.db
    .insert(applications)
    .values({ accountId: account.id, answers, addAnother: { colleges: 3 } });
  await database.db.insert(sessions).values({
    tokenHash: sha256(token),
    accountId: account.id,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return token;
}

/** One visit as a returning applicant on a new phone: a fresh context with the session only. */
async function visit(
  browser: Browser,
  base: string,
  token: string,
  readyIds: string[],
  expectedGrades: number,
  trace = false,
): Promise<Visit> {
  const context = await browser.newContext({
    viewport: PHONE,
    screen: PHONE,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 3,
  });
  try {
    // The cookies a log-in sets: the session, and the marker by which the page knows it is
    // signed in. (Given the address instead of the host, Chromium refuses the Secure one on http.)
    const host = new URL(base).hostname;
    await context.addCookies([
      {
        name: sessionCookieName(true),
        value: token,
        domain: host,
        path: '/',
        secure: true,
        httpOnly: true,
        sameSite: 'Lax',
      },
      { name: LOGGED_IN_MARKER_COOKIE, value: '1', domain: host, path: '/', secure: true },
    ]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.addInitScript(`window.__readyIds = ${JSON.stringify(readyIds)};`);
    await page.addInitScript(READY_PROBE);
    const logged: string[] = [];
    page.on('console', (message) => logged.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => logged.push(`pageerror: ${error.message}`));
    let answersBytes = 0;
    page.on('response', async (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/api/') && response.request().method() === 'GET') {
        const body = await response.body().catch(() => Buffer.alloc(0));
        if (body.includes('college_name')) answersBytes = body.length;
      }
    });
    if (trace) await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    await page.goto(`${base}/education`);
    await page
      .waitForFunction(() => (window as { __ready?: number }).__ready !== undefined, null, {
        timeout: Number(process.env.BENCH_EDUCATION_TIMEOUT ?? 120_000),
      })
      .catch(async (error) => {
        // What was there instead, to tell why: the page, and which of the probe's ids exist.
        const seen = await page.evaluate(
          (ids) =>
            `${location.pathname}; ${ids.map((id) => `${id}: ${document.getElementById(id) ? 'yes' : 'no'}`).join(', ')}`,
          readyIds,
        );
        throw new Error(`not ready (${seen}) ${logged.join(' | ')}`, { cause: error });
      });
    await page.waitForLoadState('networkidle');
    const traced = trace ? await browser.stopTracing() : null;
    const measured = await page.evaluate(() => {
      const w = window as unknown as {
        __ready: number;
        __longTasks: { start: number; duration: number }[];
      };
      return {
        readyMs: w.__ready,
        longTasks: w.__longTasks.filter((task) => task.start < w.__ready),
        scripts: performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname)
          .filter((file) => file.endsWith('.js')),
        grades: document.querySelectorAll('main fieldset[id$="coursework"] input[id$="-grade"]')
          .length,
        path: location.pathname,
      };
    });
    // Not timed: the page is the applicant's /education with every grid row drawn.
    if (measured.path !== '/education') throw new Error(`ended on ${measured.path}`);
    if (measured.grades !== expectedGrades)
      throw new Error(`${measured.grades} grade inputs, expected ${expectedGrades}`);
    return {
      readyMs: measured.readyMs,
      scripts: measured.scripts,
      longTasks: {
        count: measured.longTasks.length,
        ms: measured.longTasks.reduce((sum, task) => sum + task.duration, 0),
        longestMs: Math.max(0, ...measured.longTasks.map((task) => task.duration)),
      },
      answersKb: answersBytes / 1024,
      breakdown: traced ? mainThreadBreakdown(traced, measured.readyMs) : undefined,
    };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

function medianLongTasks(visits: Visit[]) {
  const round = (value: number) => Math.round(value);
  return {
    count: median(visits.map((one) => one.longTasks.count)),
    ms: round(median(visits.map((one) => one.longTasks.ms))),
    longestMs: round(median(visits.map((one) => one.longTasks.longestMs))),
  };
}

async function gzipKbOf(files: Iterable<string>): Promise<number> {
  let total = 0;
  for (const file of files)
    total += gzipSync(await readFile(path.join(projectRoot, 'dist/web', file))).length / 1024;
  return total;
}

interface Applicants {
  server: RunningServer;
  browser: Browser;
  withToken: string;
  withoutToken: string;
  close(): Promise<void>;
}

/** Builds the app, writes the two applicants, starts the server and Chromium. */
async function startApplicants(): Promise<Applicants> {
  buildServer();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-education-load-'));
  const grids = Object.fromEntries(
    GRID_KEYS.map((key, index) => [
      key,
      JSON.stringify(sampleGrid(COURSES_PER_COLLEGE[index] ?? 0)),
    ]),
  );
  const database = await openDatabase({ kind: 'pglite', dataDir });
  let withToken: string;
  let withoutToken: string;
  try {
    withToken = await seedApplicant(database, 'bench.education.with@example.edu', {
      ...SHARED_ANSWERS,
      ...grids,
    });
    withoutToken = await seedApplicant(
      database,
      'bench.education.without@example.edu',
      SHARED_ANSWERS,
    );
  } finally {
    await database.close();
  }
  const server = await startProductionServer(PORT, {
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    LOG_LEVEL: undefined,
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  return {
    server,
    browser,
    withToken,
    withoutToken,
    async close() {
      await browser.close();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function benchEducationLoad(): Promise<EducationLoadResult> {
  const { server, browser, withToken, withoutToken, close } = await startApplicants();
  const courses = COURSES_PER_COLLEGE.reduce((sum, count) => sum + count, 0);
  const withIds = [
    'college_3_name-input',
    ...GRID_KEYS.map((key, index) => lastGradeId(key, COURSES_PER_COLLEGE[index] ?? 0)),
  ];
  // The grids are shown, empty, on the page without coursework: the third is checked for.
  const withoutIds = ['college_3_name-input', 'college_3_coursework'];
  const withVisit = () => visit(browser, server.base, withToken, withIds, courses);
  const withoutVisit = () => visit(browser, server.base, withoutToken, withoutIds, 0);
  try {
    // Warm-up, not counted: the server's first requests and Chromium's first pages.
    await withVisit();
    await withoutVisit();
    const loadBefore = os.loadavg();
    const withVisits: Visit[] = [];
    const withoutVisits: Visit[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Taking turns, and changing who goes first, so a busy moment falls on both.
      if (run % 2 === 0) {
        withVisits.push(await withVisit());
        withoutVisits.push(await withoutVisit());
      } else {
        withoutVisits.push(await withoutVisit());
        withVisits.push(await withVisit());
      }
    }
    const loadAfter = os.loadavg();
    const withTraced: Visit[] = [];
    const withoutTraced: Visit[] = [];
    for (let run = 0; run < TRACED_VISITS; run++) {
      withTraced.push(await visit(browser, server.base, withToken, withIds, courses, true));
      withoutTraced.push(await visit(browser, server.base, withoutToken, withoutIds, 0, true));
    }
    const withScripts = new Set(withVisits.flatMap((one) => one.scripts));
    const withoutScripts = new Set(withoutVisits.flatMap((one) => one.scripts));
    const scripts = [];
    for (const file of new Set([...withScripts, ...withoutScripts]))
      scripts.push({ file, gzipKb: await gzipKbOf([file]) });
    scripts.sort((a, b) => b.gzipKb - a.gzipKb);
    const withReadyMs = withVisits.map((one) => one.readyMs);
    const withoutReadyMs = withoutVisits.map((one) => one.readyMs);
    const withMedianMs = median(withReadyMs);
    const withoutMedianMs = median(withoutReadyMs);
    return {
      runs: RUNS,
      cpuSlowdown: CPU_SLOWDOWN,
      courses,
      withReadyMs,
      withoutReadyMs,
      withMedianMs,
      withoutMedianMs,
      ratio: withMedianMs / withoutMedianMs,
      withLongTasks: medianLongTasks(withVisits),
      withoutLongTasks: medianLongTasks(withoutVisits),
      withGzipKb: await gzipKbOf(withScripts),
      withoutGzipKb: await gzipKbOf(withoutScripts),
      withAnswersKb: median(withVisits.map((one) => one.answersKb)),
      withoutAnswersKb: median(withoutVisits.map((one) => one.answersKb)),
      scripts,
      withBreakdown: medianBreakdown(withTraced),
      withoutBreakdown: medianBreakdown(withoutTraced),
      loadBefore,
      loadAfter,
    };
  } finally {
    await close();
  }
}

const KEYSTROKE_ROUNDS = Number(process.env.BENCH_KEYSTROKE_ROUNDS ?? 6);
const KEYSTROKE_WARM_UPS = 2;

export interface EducationKeystrokeResult {
  rounds: number;
  text: string;
  keystrokes: number;
  /** A course title in the 200-course grid against the street address on the page without. */
  grid: Record<'frame' | 'handled' | 'work', Comparison>;
  /** The street address on the 200-course page against the same on the page without. */
  field: Record<'frame' | 'handled' | 'work', Comparison>;
  loadBefore: number[];
  loadAfter: number[];
}

/** A signed-in applicant's /education, with bench/keystroke-app.ts's probe, on a desktop. */
async function openEducation(browser: Browser, base: string, token: string): Promise<Page> {
  const context = await browser.newContext();
  const host = new URL(base).hostname;
  await context.addCookies([
    { name: sessionCookieName(true), value: token, domain: host, path: '/', secure: true },
    { name: LOGGED_IN_MARKER_COOKIE, value: '1', domain: host, path: '/', secure: true },
  ]);
  await context.addInitScript(`(${PROBE_SOURCE})()`);
  const page = await context.newPage();
  await page.goto(`${base}/education`);
  return page;
}

/**
 * Typing on /education (issue 31: "the work of a keystroke on the coursework grid with 200
 * courses"): bench/keystroke-app.ts's probe and typing, into the title of the last course of the
 * third college's grid on the 200-course page, into the third college's street address on the same
 * page, and into the same street address on the page without coursework, in turns, CPU not slowed.
 */
export async function benchEducationKeystroke(): Promise<EducationKeystrokeResult> {
  const { server, browser, withToken, withoutToken, close } = await startApplicants();
  try {
    const withPage = await openEducation(browser, server.base, withToken);
    const withoutPage = await openEducation(browser, server.base, withoutToken);
    const cell = `[id="${lastGradeId('college_3_coursework', COURSES_PER_COLLEGE[2]).replace(/grade$/, 'title')}"]`;
    const address = '[id="college_3_address_line_1-input"]';
    await withPage.locator(cell).waitFor();
    await withoutPage.locator(address).waitFor();
    const empty = (): RunTimes => ({ frame: [], handled: [], work: [] });
    const runs = { grid: empty(), withField: empty(), withoutField: empty() };
    const loadBefore = os.loadavg();
    for (let round = 0; round < KEYSTROKE_WARM_UPS + KEYSTROKE_ROUNDS; round++) {
      const grid = await typeRun(withPage, cell);
      await withPage.waitForTimeout(SETTLE_MS);
      const withField = await typeRun(withPage, address);
      await withPage.waitForTimeout(SETTLE_MS);
      const withoutField = await typeRun(withoutPage, address);
      await withoutPage.waitForTimeout(SETTLE_MS);
      if (round < KEYSTROKE_WARM_UPS) continue;
      for (const measure of ['frame', 'handled', 'work'] as const) {
        runs.grid[measure].push(...grid[measure]);
        runs.withField[measure].push(...withField[measure]);
        runs.withoutField[measure].push(...withoutField[measure]);
      }
    }
    const against = (times: RunTimes) => ({
      frame: compare(times.frame, runs.withoutField.frame),
      handled: compare(times.handled, runs.withoutField.handled),
      work: compare(times.work, runs.withoutField.work),
    });
    return {
      rounds: KEYSTROKE_ROUNDS,
      text: TEXT,
      keystrokes: runs.grid.frame.length,
      grid: against(runs.grid),
      field: against(runs.withField),
      loadBefore,
      loadAfter: os.loadavg(),
    };
  } finally {
    await close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('keystroke'))
    console.log(JSON.stringify(await benchEducationKeystroke(), null, 2));
  else console.log(JSON.stringify(await benchEducationLoad(), null, 2));
}
