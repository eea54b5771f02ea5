// `npm run bench`: runs every benchmark and rewrites its table in docs/benchmarks.md.
// `npm run bench -- keystroke` runs only the named sections.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseKind } from '../src/server/test/test-database';
import { benchAnswerSave } from './answer-save';
import { benchApplicationList } from './application-list';
import { benchApplicationPdf } from './application-pdf';
import { benchCourseworkComputation, benchCourseworkSave } from './coursework-save';
import { benchCreditMapping, benchEvaluatorCalls } from './credit';
import { benchDeadline } from './deadline';
import { benchDocuments } from './documents';
import { benchEducationKeystroke, benchEducationLoad } from './education-load';
import { benchEquivalencyImport, medianOf } from './equivalency-import';
import { benchEvaluatorScreen } from './evaluator-screen';
import { benchExportZip } from './export-zip';
import { benchFirstLoad } from './first-load';
import { benchChangeFeed, benchWebhooks } from './integration';
import { benchKeystroke } from './keystroke';
import { benchKeystrokeApp } from './keystroke-app';
import { benchLookup, KIND_LABELS, type QueryKind } from './lookup';
import { benchMemory } from './memory';
import { buildServer } from './production-server';
import { benchReaderQueue } from './reader-queue';
import { benchReviewAssign } from './review-assign';
import { benchStartUp } from './start-up';
import type { TimedCase } from './timing';

const root = path.resolve(import.meta.dirname, '..');
const file = path.join(root, 'docs', 'benchmarks.md');
const machine = `${os.cpus().length} cores, Node ${process.version}`;
const today = new Date().toISOString().slice(0, 10);

/** The embedded database always; PostgreSQL too when DATABASE_URL names one. */
function databaseKinds(): readonly DatabaseKind[] {
  const kinds: DatabaseKind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  // BENCH_DATABASES=postgres (or pglite) measures one of them, e.g. to rerun one side.
  const only = process.env.BENCH_DATABASES?.split(',').map((kind) => kind.trim());
  return only ? kinds.filter((kind) => only.includes(kind)) : kinds;
}

/** The table of timed cases; a case not measured shows its note (e.g. 'not installed'). */
function timedCasesTable(rows: ReadonlyArray<TimedCase & { note?: string }>): string {
  const value = (row: { note?: string }, ms: number) => row.note ?? ms.toFixed(1);
  return [
    `Measured ${today} on ${machine}.`,
    '',
    '| case | runs | median (ms) | p95 (ms) |',
    '|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.case} | ${row.runs} | ${value(row, row.medianMs)} | ${value(row, row.p95Ms)} |`,
    ),
  ].join('\n');
}

const sections: Record<string, () => Promise<string>> = {
  'start-up': async () => {
    const rows = await benchStartUp(databaseKinds());
    console.log(rows);
    const previous = (row: (typeof rows)[number]) =>
      rows.find((other) => other.database === row.database && other.way.startsWith('previous'));
    return [
      `Measured ${today} on ${machine}, production mode, from spawning the process to the first 200 on /readyz; the three ways take turns, ${rows[0]?.runs ?? 0} starts each.`,
      '',
      '| database | way | median (ms) | p95 (ms) | median against the previous way |',
      '|---|---|---|---|---|',
      ...rows.map((row) => {
        const base = previous(row);
        const ratio = base ? (row.medianMs / base.medianMs).toFixed(2) : '';
        return `| ${row.database} | ${row.way} | ${row.medianMs} | ${row.p95Ms} | ${ratio} |`;
      }),
    ].join('\n');
  },
  lookup: async () => {
    buildServer();
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    const rows: string[] = [];
    for (const kind of databaseKinds()) {
      const result = await benchLookup(kind);
      console.dir(result, { depth: 3 });
      for (const times of result.kinds) {
        const all = times.kind === 'all';
        const what = all ? '**all kinds**' : KIND_LABELS[times.kind as QueryKind];
        rows.push(
          `| ${kind} | ${what} | ${times.searches} | ${times.p50Ms.toFixed(1)} | ${times.p99Ms.toFixed(1)} | ${result.healthP99Ms.toFixed(1)} | **${times.ratio.toFixed(2)}** | ${all ? `${(result.found * 100).toFixed(0)}%` : ''} | ${all ? result.firstSearchMs : ''} | ${all ? `${load(result.loadBefore)} → ${load(result.loadAfter)}` : ''} |`,
        );
      }
    }
    return [
      `Measured ${today} on ${machine}, the compiled server in production mode in its own process, 20 searchers at once typing the kinds mixed, GET /healthz at the same concurrency in turns with the searches.`,
      '',
      '| database | what is typed | searches | GET /lookup/find p50 (ms) | p99 (ms) | GET /healthz p99 (ms) | p99 ratio (goal ≤ 1.5) | school in the first five (whole or misspelled name) | slowest warm-up search (ms) | load average 1 / 5 / 15 min, before → after |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  },
  'answer-save': async () => {
    buildServer();
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    const results = [];
    for (const kind of databaseKinds()) {
      const result = await benchAnswerSave(kind);
      console.log(result);
      results.push(result);
    }
    const postgresP99 = results.find((result) => result.database === 'postgres')?.apiP99Ms;
    return [
      `Measured ${today} on ${machine}, the compiled server in production mode (default logging) in its own process, ${process.env.BENCH_SECONDS ?? 15} s per measurement, 100 connections.`,
      '',
      "| database | PUT /api/answer (req/s) | p50 (ms) | p99 (ms) | timeouts | the route's statement direct, before / after (statements/s) | ratio (goal ≥ 0.9 on both) | p99 ÷ PostgreSQL's (goal ≤ 1.2) | GET /api/profile p50 / p99 (ms) | load average 1 / 5 / 15 min, before → after |",
      '|---|---|---|---|---|---|---|---|---|---|',
      ...results.map(
        (result) =>
          `| ${result.database} | ${result.apiRate.toFixed(0)} | ${result.apiP50Ms} | ${result.apiP99Ms} | ${result.timeouts} | ${result.directRates.map((rate) => rate.toFixed(0)).join(' / ')} | **${result.ratio.toFixed(2)}** | ${postgresP99 ? (result.apiP99Ms / postgresP99).toFixed(2) : ''} | ${result.profileP50Ms} / ${result.profileP99Ms} | ${load(result.loadBefore)} → ${load(result.loadAfter)} |`,
      ),
    ].join('\n');
  },
  'equivalency-import': async () => {
    buildServer();
    const loadBefore = os.loadavg();
    const results = [];
    for (const kind of databaseKinds()) {
      const result = await benchEquivalencyImport(kind);
      console.log(result);
      results.push(result);
    }
    const loadAfter = os.loadavg();
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    const ms = (values: number[]) => values.map((value) => value.toFixed(0)).join(' / ');
    return [
      `Measured ${today} on ${machine}: a file of 20,000 rows for 10 colleges (${results[0]?.fileKb.toFixed(0) ?? '?'} KB) posted to the console's route of the compiled server in production mode (default logging), signed in as an administrator; the yardstick and storeEquivalencies called directly run in the bench's own process on the same database, two rounds before the server starts and two after it stops. Load average (1 / 5 / 15 min) ${load(loadBefore)} before, ${load(loadAfter)} after.`,
      '',
      '| database | POST /staff/api/equivalencies, each round (ms) | POST …/check, each round (ms) | storeEquivalencies directly, parsing included (ms) | yardstick: plain INSERTs of the same rows (ms) | **route ÷ yardstick, medians** |',
      '|---|---|---|---|---|---|',
      ...results.map(
        (result) =>
          `| ${result.database} | ${ms(result.route)} | ${ms(result.check)} | ${ms(result.direct)} | ${ms(result.plain)} | **${result.ratio.toFixed(2)}** (${medianOf(result.route).toFixed(0)} ÷ ${medianOf(result.plain).toFixed(0)}) |`,
      ),
    ].join('\n');
  },
  'coursework-save': async () => {
    buildServer();
    const loadBefore = os.loadavg();
    const computation = benchCourseworkComputation();
    console.log(computation);
    const results = [];
    for (const kind of databaseKinds()) {
      const result = await benchCourseworkSave(kind);
      console.log(result);
      results.push(result);
    }
    const loadAfter = os.loadavg();
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    const rates = (values: number[]) => values.map((value) => value.toFixed(0)).join(' / ');
    const ms = (value: number) => value.toFixed(2);
    return [
      `Measured ${today} on ${machine}, the compiled server in production mode in its own process, ${process.env.BENCH_SECONDS ?? 8} s per run, 50 connections, the two saves taking turns; load average (1 / 5 / 15 min) ${load(loadBefore)} before, ${load(loadAfter)} after.`,
      '',
      '| database | plain answer, each round (saves/s) | course row in a 20-course grid, each round (saves/s) | p99 plain / row (ms) | **plain ÷ row, median of rounds** (goal ≤ 1.2) | 200-course grid (saves/s) | plain ÷ 200-course grid |',
      '|---|---|---|---|---|---|---|',
      ...results.map(
        (result) =>
          `| ${result.database} | ${rates(result.plain)} | ${rates(result.row)} | ${result.plainP99Ms} / ${result.rowP99Ms} | **${result.ratio.toFixed(2)}** | ${result.worstCase.toFixed(0)} | ${result.worstCaseRatio.toFixed(2)} |`,
      ),
      '',
      `Totals of 200 courses (enteredCoursework and computeCourseworkTotals), median ${ms(computation.totals.medianMs)} ms, p95 ${ms(computation.totals.p95Ms)} ms (goal under 2 ms); the save's parse and check of a 200-course grid, median ${ms(computation.check.medianMs)} ms, p95 ${ms(computation.check.p95Ms)} ms. Both in one Node process, 400 runs after a warm-up.`,
    ].join('\n');
  },
  credit: async () => {
    buildServer();
    const loadBefore = os.loadavg();
    const mapping = benchCreditMapping();
    console.log(mapping);
    const calls = [];
    for (const kind of databaseKinds()) {
      const result = await benchEvaluatorCalls(kind);
      console.log(result);
      calls.push(result);
    }
    const loadAfter = os.loadavg();
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    const ms = (value: number) => value.toFixed(2);
    return [
      `Measured ${today} on ${machine}; load average (1 / 5 / 15 min) ${load(loadBefore)} before, ${load(loadAfter)} after.`,
      '',
      `Mapping ${mapping.courses} courses (${mapping.mapped} found in a 20,000-row table) with their totals and three requirements (evaluateCredit): median ${ms(mapping.mapping.medianMs)} ms, p95 ${ms(mapping.mapping.p95Ms)} ms; the totals of the same courses alone (computeCourseworkTotals): median ${ms(mapping.totals.medianMs)} ms, p95 ${ms(mapping.totals.p95Ms)} ms. One Node process, 400 runs after a warm-up.`,
      '',
      '| database | requests each | application page call p50 / p95 (ms) | evaluation (GET credit) p50 / p95 (ms) | a review (PUT credit/review) p50 / p95 (ms) | **evaluation p95 ÷ application p95** |',
      '|---|---|---|---|---|---|',
      ...calls.map(
        (row) =>
          `| ${row.database} | ${row.requests} | ${row.applicationP50Ms} / ${row.applicationP95Ms} | ${row.creditP50Ms} / ${row.creditP95Ms} | ${row.reviewP50Ms} / ${row.reviewP95Ms} | **${(row.creditP95Ms / row.applicationP95Ms).toFixed(2)}** |`,
      ),
    ].join('\n');
  },
  'evaluator-screen': async () => {
    buildServer();
    const loadBefore = os.loadavg();
    const rows = [];
    for (const kind of databaseKinds()) {
      const result = await benchEvaluatorScreen(kind);
      console.log(result);
      rows.push(result);
    }
    const loadAfter = os.loadavg();
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    return [
      `Measured ${today} on ${machine}, Chromium headless at 1280 × 800, the compiled server in production mode; ${rows[0]?.runs ?? 0} loads of each page after 3 warm-ups, in turns; load average (1 / 5 / 15 min) ${load(loadBefore)} before, ${load(loadAfter)} after.`,
      '',
      '| database | evaluator screen median (ms) | **p95 (ms)** (goal < 1000) | application page median (ms) | p95 (ms) | p95 ratio |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        (row) =>
          `| ${row.database} | ${row.screenMedianMs} | **${row.screenP95Ms}** | ${row.applicationMedianMs} | ${row.applicationP95Ms} | ${(row.screenP95Ms / row.applicationP95Ms).toFixed(2)} |`,
      ),
    ].join('\n');
  },
  'application-list': async () => {
    const result = await benchApplicationList();
    console.log(JSON.stringify(result, null, 2));
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    return [
      `Measured ${today} on ${machine}, PostgreSQL, ${result.applications.toLocaleString('en-US')} generated applications (filled in ${result.fillSeconds} s), the server in production mode in its own process, one request at a time; load average (1 / 5 / 15 min) ${load(result.loadBefore)} before, ${load(result.loadAfter)} after.`,
      '',
      '| GET /staff/api/applications | requests | p50 (ms) | p99 (ms) | mean found |',
      '|---|---|---|---|---|',
      ...result.cases.map(
        (row) =>
          `| ${row.case} | ${row.requests} | ${row.p50Ms} | ${row.p99Ms} | ${row.meanFound} |`,
      ),
    ].join('\n');
  },
  'application-pdf': async () => timedCasesTable(await benchApplicationPdf()),
  deadline: async () => {
    const result = await benchDeadline();
    console.log(JSON.stringify(result, null, 2));
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    const { baseline, current } = result;
    const row = (way: typeof baseline, label: string, ratio: string) =>
      `| ${label} | ${way.burstMedianMs} | ${ratio} | ${way.savesPerSecond} | ${way.submitsPerSecond} | ${way.saveP50Ms} / ${way.saveP99Ms} | ${way.submitP50Ms} / ${way.submitP99Ms} | **${way.submitToSaveP99.toFixed(2)}** | ${way.errors} | ${way.lost} | ${way.pdfsPerMinute} |`;
    return [
      `Measured ${today} on ${machine}, PostgreSQL, each way two web servers of its build in production mode (RUN_JOBS=false) and a job worker on a scratch database of its own; ${current.bursts} bursts each of ${current.applicantsPerBurst} applicants at once (${current.applicantsPerBurst * 7} requests), taking turns with the baseline (${result.baselineCommit}); load average (1 / 5 / 15 min) ${load(result.loadBefore)} before, ${load(result.loadAfter)} after.`,
      '',
      '| build | burst, median (ms) | ratio to the baseline (goal ≤ 0.5) | saves/s | submits/s | save p50 / p99 (ms) | submit p50 / p99 (ms) | submit p99 ÷ save p99 (goal ≤ 1) | errors | acknowledged answers lost | application PDFs per minute |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      row(baseline, `baseline ${result.baselineCommit}`, '1.00'),
      row(current, 'current', `**${result.burstRatio.toFixed(2)}**`),
    ].join('\n');
  },
  'export-zip': async () => {
    const result = await benchExportZip();
    console.log(JSON.stringify(result, null, 2));
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    return [
      `Measured ${today} on ${machine}, ${result.database}, ${result.applications.toLocaleString('en-US')} applications with every answer and a one-page transcript each, the server in production mode in its own process; load average (1 / 5 / 15 min) ${load(result.loadBefore)} before, ${load(result.loadAfter)} after. Goal: 1,000 in under 60 s.`,
      '',
      '| applications | POST to completed (s) | applications/s | PDF pages | pages/s | ZIP (MB) | download (s) |',
      '|---|---|---|---|---|---|---|',
      `| ${result.applications} | ${result.exportSeconds} | ${result.applicationsPerSecond} | ${result.pdfPages} | ${result.pagesPerSecond} | ${result.zipMegabytes} | ${result.downloadSeconds} |`,
    ].join('\n');
  },
  documents: async () => timedCasesTable(await benchDocuments()),
  'first-load': async () => {
    const result = await benchFirstLoad();
    console.log(JSON.stringify(result, null, 2));
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    const times = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
    const [first] = result.visitors;
    return [
      `Measured ${today} on ${machine}, Chromium headless, 390 px mobile viewport, CPU slowed ${result.cpuSlowdown}x, /about anonymous, /about signed in and the yardstick in turns, ${result.runs} visits each, every one with an empty cache; load average (1 / 5 / 15 min) ${load(result.loadBefore)} before, ${load(result.loadAfter)} after.`,
      '',
      '| | JavaScript before ready (KB gzip) | goal | ready, median (ms) | ready, each visit (ms) | ratio to the yardstick | goal | whole page drawn, median (ms) |',
      '|---|---|---|---|---|---|---|---|',
      ...result.visitors.map(
        (visitor) =>
          `| /about, ${visitor.visitor} | **${visitor.totalGzipKb.toFixed(1)}** | ≤ 100 | ${visitor.appMedianMs.toFixed(0)} | ${times(visitor.appReadyMs)} | **${visitor.ratio.toFixed(2)}** | ≤ 1.5 | ${visitor.appDrawnMedianMs.toFixed(0)} |`,
      ),
      `| yardstick (one input) | ${result.yardstickGzipKb.toFixed(1)} | | ${result.yardstickMedianMs.toFixed(0)} | ${times(result.yardstickReadyMs)} | 1.00 | | |`,
      '',
      '| script of /about | KB gzip | requested |',
      '|---|---|---|',
      ...(first?.scripts ?? []).map((script) => {
        const when = (beforeReady: boolean) => (beforeReady ? 'before ready' : 'after ready');
        const signedIn = result.visitors[1]?.scripts.find((entry) => entry.file === script.file);
        const both =
          signedIn && signedIn.beforeReady !== script.beforeReady
            ? `${when(script.beforeReady)} (signed in: ${when(signedIn.beforeReady)})`
            : when(script.beforeReady);
        return `| ${script.file} | ${script.gzipKb.toFixed(1)} | ${both} |`;
      }),
      ...(result.visitors[1]?.scripts ?? [])
        .filter((script) => !first?.scripts.some((entry) => entry.file === script.file))
        .map(
          (script) =>
            `| ${script.file} | ${script.gzipKb.toFixed(1)} | signed in only, ${script.beforeReady ? 'before ready' : 'after ready'} |`,
        ),
    ].join('\n');
  },
  'education-load': async () => {
    const result = await benchEducationLoad();
    console.log(JSON.stringify(result, null, 2));
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    const times = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
    const tasks = (value: typeof result.withLongTasks) =>
      `${value.count} / ${value.ms} / ${value.longestMs}`;
    const breakdown = (entries: typeof result.withBreakdown) =>
      entries
        .slice(0, 5)
        .map((entry) => `${entry.event} ${entry.ms}`)
        .join(', ');
    return [
      `Measured ${today} on ${machine}, Chromium headless, 390 x 844 mobile viewport, CPU slowed ${result.cpuSlowdown}x, the compiled server in production mode on the embedded database, the two applicants' /education in turns, ${result.runs} visits each after a warm-up; load average (1 / 5 / 15 min) ${load(result.loadBefore)} before, ${load(result.loadAfter)} after.`,
      '',
      '| /education of | ready, median (ms) | ready, each visit (ms) | ratio (goal ≤ 1.5) | long tasks before ready, median: count / ms / longest | JavaScript loaded (KB gzip) | answers received (KB) |',
      '|---|---|---|---|---|---|---|',
      `| three colleges, ${result.courses} courses | ${result.withMedianMs.toFixed(0)} | ${times(result.withReadyMs)} | **${result.ratio.toFixed(2)}** | ${tasks(result.withLongTasks)} | ${result.withGzipKb.toFixed(1)} | ${result.withAnswersKb.toFixed(1)} |`,
      `| three colleges, no coursework | ${result.withoutMedianMs.toFixed(0)} | ${times(result.withoutReadyMs)} | 1.00 | ${tasks(result.withoutLongTasks)} | ${result.withoutGzipKb.toFixed(1)} | ${result.withoutAnswersKb.toFixed(1)} |`,
      '',
      `Main thread from the navigation's start to ready, the median of three traced visits of each (self time by trace event, ms on the slowed CPU): with courses ${breakdown(result.withBreakdown)}; without ${breakdown(result.withoutBreakdown)}.`,
    ].join('\n');
  },
  'education-keystroke': async () => {
    const result = await benchEducationKeystroke();
    console.log(JSON.stringify(result, null, 2));
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    const ms = (value: number) => value.toFixed(2);
    const rows = (label: string, comparison: typeof result.grid) =>
      (
        [
          ['keydown to frame', comparison.frame],
          ['keydown to input handled', comparison.handled],
          ['work: handled + frame rendering', comparison.work],
        ] as const
      ).map(
        ([measure, value]) =>
          `| ${label} | ${measure} | ${ms(value.appMedianMs)} | ${ms(value.appP90Ms)} | ${ms(value.plainMedianMs)} | ${ms(value.plainP90Ms)} | **${value.ratio.toFixed(2)}** |`,
      );
    return [
      `Measured ${today} on ${machine}, Chromium headless, CPU not slowed, the compiled server in production mode on the embedded database; ${result.rounds} rounds after 2 warm-up rounds, each typing "${result.text}" (${result.text.length} keys, ${result.keystrokes} timed per target) into the three targets in turns; load average (1 / 5 / 15 min) ${load(result.loadBefore)} before, ${load(result.loadAfter)} after.`,
      '',
      '| typed into | measure | median (ms) | p90 (ms) | street address without coursework, median (ms) | p90 (ms) | ratio of medians |',
      '|---|---|---|---|---|---|---|',
      ...rows('the last course title of a 200-course page', result.grid),
      ...rows('the street address of a 200-course page', result.field),
    ].join('\n');
  },
  keystroke: async () => {
    const result = await benchKeystroke();
    console.log(result);
    return [
      `Measured ${today} on ${machine}, Chromium headless.`,
      '',
      '| fields on the page | field renders per keystroke | keydown to commit (ms) | React render work (ms) |',
      '|---|---|---|---|',
      `| ${result.fields} | ${result.rendersPerKeystroke.toFixed(2)} | ${result.msPerKeystroke.toFixed(2)} | ${result.reactRenderMsPerKeystroke.toFixed(2)} |`,
    ].join('\n');
  },
  'keystroke-app': async () => {
    const result = await benchKeystrokeApp();
    console.log(JSON.stringify(result, null, 2));
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    const ms = (value: number) => value.toFixed(2);
    return [
      `Measured ${today} on ${machine}, Chromium headless, the compiled server in production mode on the embedded database; ${result.rounds} rounds after 2 warm-up rounds, each typing "${result.text}" (${result.text.length} keys, ${result.states[0]?.keystrokes ?? 0} timed per page and state) into the first name on /about and into the yardstick in turns; load average (1 / 5 / 15 min) ${load(result.loadBefore)} before, ${load(result.loadAfter)} after.`,
      '',
      '| state | measure | app median (ms) | app p90 (ms) | yardstick median (ms) | yardstick p90 (ms) | ratio of medians (goal ≤ 1.2) |',
      '|---|---|---|---|---|---|---|',
      ...result.states.flatMap((row) =>
        (
          [
            ['keydown to frame', row.frame],
            ['keydown to input handled', row.handled],
            ['work: handled + frame rendering', row.work],
          ] as const
        ).map(
          ([measure, value]) =>
            `| ${row.state} | ${measure} | ${ms(value.appMedianMs)} | ${ms(value.appP90Ms)} | ${ms(value.plainMedianMs)} | ${ms(value.plainP90Ms)} | **${value.ratio.toFixed(2)}** |`,
        ),
      ),
    ].join('\n');
  },
};

sections['change-feed'] = async () => {
  buildServer();
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  const rows: string[] = [];
  for (const kind of databaseKinds()) {
    const r = await benchChangeFeed(kind);
    console.log(r);
    rows.push(
      `| ${kind} | ${r.apiRows.toLocaleString('en')} | ${r.pages} | ${r.apiMs} | ${r.apiRowsPerSecond.toLocaleString('en')} | ${r.slowestPageMs} | ${r.statementMs.join(' / ')} | ${r.statementRowsPerSecond.toLocaleString('en')} | **${r.ratio.toFixed(2)}** | ${r.recordP50Ms} / ${r.recordP95Ms} / **${r.recordP99Ms}** | ${r.healthP50Ms} / ${r.healthP95Ms} / ${r.healthP99Ms} | ${load(r.loadBefore)} → ${load(r.loadAfter)} |`,
    );
  }
  return [
    `Measured ${today} on ${machine}: submitted applications with complete answers seeded into the database (the triggers writing their changes), then the compiled server in production mode (LOG_LEVEL=warn) in its own process; one API client reads the whole feed, GET /api/v1/applications?limit=${process.env.BENCH_FEED_PAGE ?? 1000}, page after page through next_cursor (a first read untimed, the second timed). The yardstick is the feed's columns for the same rows in one statement (application_changes join applications, left join receipts and SIS ids, ordered by seq) run in the bench's own process on the same database, once before the server starts and once after it stops; the faster counts. Then GET /api/v1/applications/{id} and GET /healthz in turns, one after another, after 20 untimed rounds.`,
    '',
    '| database | rows read through the API | pages | whole feed (ms) | API rows/s | slowest page (ms) | statement before / after (ms) | statement rows/s | **API ÷ statement (goal ≥ 0.5)** | one record p50 / p95 / p99 (ms, goal p99 < 20) | /healthz p50 / p95 / p99 (ms) | load average 1 / 5 / 15 min, before → after |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
};

sections.webhooks = async () => {
  buildServer();
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  const rows: string[] = [];
  for (const kind of databaseKinds()) {
    const r = await benchWebhooks(kind);
    console.log(r);
    rows.push(
      `| ${kind} | ${r.backlogDelivered} of ${r.backlog}, last ${r.drainSeconds} s after the spawn | ${r.drainSteadyPerSecond} (${r.drainPerSecond} counting start-up) | ${r.yardstickPerSecond} | **${r.ratio.toFixed(3)}** | ${r.submits} (${r.submitsFailed} refused), ${r.submitsPerSecond}/s | ${r.delivered} | ${(r.firstAttemptP50Ms / 1000).toFixed(1)} / **${(r.firstAttemptP95Ms / 1000).toFixed(1)}** / ${(r.firstAttemptMaxMs / 1000).toFixed(1)} | ${load(r.loadBefore)} → ${load(r.loadAfter)} |`,
    );
  }
  return [
    `Measured ${today} on ${machine}: the compiled server in production mode (LOG_LEVEL=warn, RUN_JOBS=true, WEBHOOK_PRIVATE_NETWORKS=127.0.0.0/8) in its own process, one subscription to application.submitted whose receiver is a node:http server on 127.0.0.1 in the bench's process answering 204. Backlog: submitted applications seeded after the subscription was made, waiting when the server starts; its rate is taken from the first arrival to the last (deliveries begin before /readyz answers). Yardstick: the same number of signed POSTs (the portal's sender and signing) sent one after another from the bench's process to the same receiver, before the server starts. Then ready applicants (confirmed, complete answers, a session each) submit through POST /api/submit, paced at 1,000 a minute, each leaving on time whatever the earlier took; the first attempt's lag is its arrival at the receiver minus the submit's answer.`,
    '',
    '| database | backlog delivered | backlog deliveries/s, first to last arrival | yardstick POSTs/s | **backlog ÷ yardstick** | submits answered, achieved rate | submits delivered | submit to first attempt p50 / **p95 (goal < 60)** / max (s) | load average 1 / 5 / 15 min, before → after |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
};

sections['review-assign'] = async () => {
  buildServer();
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  const rows: string[] = [];
  for (const kind of databaseKinds()) {
    const r = await benchReviewAssign(kind);
    console.log(r);
    rows.push(
      `| ${kind} | ${r.applications.toLocaleString('en')} | ${r.readers} | ${r.assigned.toLocaleString('en')} | ${r.unassigned} | **${r.assignMs}** | ${r.minLoad} / ${r.maxLoad} | ${r.yardstickMs.join(' / ')} | **${r.ratio.toFixed(2)}** | ${load(r.loadBefore)} → ${load(r.loadAfter)} |`,
    );
  }
  return [
    `Measured ${today} on ${machine}: submitted applications seeded into the database with 20 readers, then the compiled server in production mode (LOG_LEVEL=warn) in its own process; one POST /staff/api/reviews/assignments of the whole list (first and blind second reads), after one untimed call refused for its count. The yardstick is one INSERT ... SELECT of two reads per application into review_reads, run in the bench's own process on the same database before the server starts and after it stops; the faster counts.`,
    '',
    '| database | applications | readers | reads assigned | left without a reader | POST assignments (ms, goal < 5,000) | reads per reader min / max | yardstick before / after (ms) | **route ÷ yardstick** | load average 1 / 5 / 15 min, before → after |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
};

sections['reader-queue'] = async () => {
  buildServer();
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  const rows: string[] = [];
  for (const kind of databaseKinds()) {
    const r = await benchReaderQueue(kind);
    console.log(r);
    rows.push(
      `| ${kind} | ${r.pdfs} | ${r.steps} | ${r.queueP50Ms} | **${r.queueP95Ms}** | ${r.queueMaxMs} | ${r.yardstickP50Ms} / ${r.yardstickP95Ms} / ${r.yardstickMaxMs} | **${(r.queueP95Ms / r.yardstickP95Ms).toFixed(2)}** | ${r.firstOpenMs} | ${load(r.loadBefore)} → ${load(r.loadAfter)} |`,
    );
  }
  return [
    `Measured ${today} on ${machine}, Chromium headless, CPU not slowed, the compiled server in production mode (LOG_LEVEL=warn); one reader with ${process.env.BENCH_QUEUE_APPLICATIONS ?? 40} submitted applications assigned as first reads, the first opened from /staff/queue, then \`j\` once per step; the first 3 steps are warm-ups. Steps at 1280 × 800 (two panes: the review form and the application PDF) and the yardstick's steps through the same queue at 1100 × 800 (one pane, no PDF, ready when the form is) take turns.`,
    '',
    '| database | application PDFs | timed steps | `j` to the review form ready with the PDF, p50 (ms) | **p95 (ms)** (goal < 1000) | max (ms) | yardstick: the form ready at 1100 px, no pane, p50 / p95 / max (ms) | **p95 ÷ yardstick p95** | first open from the queue page (ms) | load average 1 / 5 / 15 min, before → after |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
};

sections.memory = async () => {
  buildServer();
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  const mb = (value: number) => value.toFixed(0);
  const kinds = databaseKinds();
  const rows: string[] = [];
  let described = { minutes: 0, rate: 0 };
  for (const kind of kinds) {
    const r = await benchMemory(kind);
    console.log({ ...r, during: r.during.map((value) => Math.round(value)) });
    described = { minutes: r.minutes, rate: r.rate };
    const sent = Object.values(r.requests).reduce((sum, count) => sum + count, 0);
    const mix = ['save', 'search', 'list', 'pdf'].map((what) => r.requests[what] ?? 0).join(' / ');
    const lows = r.lows.map((low) => mb(low.value)).join(' / ');
    const slope = r.lowsSlopeMbPerMinute;
    rows.push(
      `| ${kind} | ${mb(r.firstStart.rssMb)} / ${mb(r.firstStart.hwmMb)} | **${mb(r.rest.rssMb)}** | ${mb(r.restPlainNode.rssMb)} | ${mb(r.rest.hwmMb)} | ${mb(Math.min(...r.during))} / ${mb(r.duringMaxMb)} | ${mb(r.after.rssMb)} | ${lows} | **${slope.toFixed(2)}** (${(slope * r.minutes).toFixed(0)} MB over the load) | ${mb(r.after.hwmMb)} | ${sent.toLocaleString('en')} (${mix}), ${r.sentRate.toFixed(1)}/s | ${r.skipped} | ${r.failures} | ${load(r.loadBefore)} → ${load(r.loadAfter)} |`,
    );
  }
  const header =
    '| database | first start: at rest / high-water (MB) | **at rest** (MB, goal PGlite ≤ 300) | at rest started by plain node, without the allocator setting of the launcher (MB) | high-water at rest, start-up included (MB) | during, low / high (MB) | after (MB) | the lows: lowest sample of each window after the first (MB) | **slope of the lows (MB per minute)** (goal none growing) | high-water at the end (MB) | requests sent (saves / searches / lists / PDFs), rate | skipped (4 in flight) | failed | load average 1 / 5 / 15 min, before → after |';
  // A database not measured this run keeps its row, so the two can be measured by runs at once.
  const previous = /<!-- memory:start -->([\s\S]*)<!-- memory:end -->/.exec(
    readFileSync(file, 'utf8'),
  )?.[1];
  const kept = (previous?.includes(header) ? previous.split('\n') : []).filter((line) =>
    ['pglite', 'postgres'].some(
      (kind) => line.startsWith(`| ${kind} |`) && !kinds.includes(kind as DatabaseKind),
    ),
  );
  const ordered = [...kept, ...rows].sort((a, b) => a.localeCompare(b));
  return [
    `Measured ${today} on ${machine}: the compiled server in production mode (LOG_LEVEL=warn) in its own process, started as \`npm start\` starts it (its launcher, scripts/run-built.mjs); VmRSS and VmHWM of that process from /proc (PGlite's thread included), at rest 30 s after /readyz of a first start on the new database (it imports the school lists), of a start by plain \`node dist/server/main.js\`, and of a third start through the launcher, which the load follows; every 10 s during ${described.minutes} minutes of mixed load paced at ${described.rate} requests a second, at most 4 in flight (answer saves of 50 applicants, school searches, the staff list, application PDFs of 20 submitted applications), and 30 s after it. The load is read in 6 windows of equal length; the first is its warm-up; the slope is fitted to the lowest sample of each of the others.`,
    '',
    header,
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...ordered,
  ].join('\n');
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(sections)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const table = await run();
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  // Read just before writing, so sections measured by runs going on at once all land.
  const document = readFileSync(file, 'utf8');
  if (!document.includes(start)) throw new Error(`docs/benchmarks.md has no ${start} marker`);
  writeFileSync(
    file,
    document.replace(new RegExp(`${start}[\\s\\S]*${end}`), `${start}\n${table}\n${end}`),
  );
  console.log(`\nwrote the ${name} section of ${path.relative(root, file)}`);
}
