// `npm run bench`: runs every benchmark and rewrites its table in docs/benchmarks.md.
// `npm run bench -- keystroke` runs only the named sections.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseKind } from '../src/server/test/test-database';
import { benchAnswerSave } from './answer-save';
import { benchApplicationList } from './application-list';
import { benchApplicationPdf } from './application-pdf';
import { benchDocuments } from './documents';
import { benchExportZip } from './export-zip';
import { benchFirstLoad } from './first-load';
import { benchKeystroke } from './keystroke';
import { benchKeystrokeApp } from './keystroke-app';
import { benchLookup } from './lookup';
import { buildServer } from './production-server';
import { benchStartUp } from './start-up';
import type { TimedCase } from './timing';

const root = path.resolve(import.meta.dirname, '..');
const file = path.join(root, 'docs', 'benchmarks.md');
const machine = `${os.cpus().length} cores, Node ${process.version}`;
const today = new Date().toISOString().slice(0, 10);

/** The embedded database always; PostgreSQL too when DATABASE_URL names one. */
function databaseKinds(): readonly DatabaseKind[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
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
      console.log(result);
      rows.push(
        `| ${kind} | ${result.schools} | ${result.searches} | ${result.searchP50Ms.toFixed(1)} | ${result.searchP99Ms.toFixed(1)} | ${result.healthP99Ms.toFixed(1)} | **${result.ratio.toFixed(2)}** | ${(result.found * 100).toFixed(0)}% | ${result.firstSearchMs} | ${load(result.loadBefore)} → ${load(result.loadAfter)} |`,
      );
    }
    return [
      `Measured ${today} on ${machine}, the compiled server in production mode in its own process, 20 searchers at once, GET /healthz at the same concurrency in turns with the searches.`,
      '',
      '| database | high schools | searches | GET /lookup/find p50 (ms) | p99 (ms) | GET /healthz p99 (ms) | p99 ratio (goal ≤ 3) | school in the first five (whole or misspelled name) | first search, building the index (ms) | load average 1 / 5 / 15 min, before → after |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  },
  'answer-save': async () => {
    const rows: string[] = [];
    for (const kind of databaseKinds()) {
      const result = await benchAnswerSave(kind);
      console.log(result);
      rows.push(
        `| ${kind} | ${result.apiRate.toFixed(0)} | ${result.apiP99Ms} | ${result.directRate.toFixed(0)} | ${result.ratio.toFixed(2)} | ${result.bareRate.toFixed(0)} | ${(result.apiRate / result.bareRate).toFixed(2)} | ${result.profileP50Ms} | ${result.profileP99Ms} |`,
      );
    }
    return [
      `Measured ${today} on ${machine}, ${process.env.BENCH_SECONDS ?? 10} s per measurement, 100 connections.`,
      '',
      "| database | PUT /api/answer (req/s) | p99 (ms) | the route's statement direct (statements/s) | ratio (goal ≥ 0.5) | bare keyed merge, no session check (statements/s) | ratio to it | GET /api/profile p50 (ms) | p99 (ms) |",
      '|---|---|---|---|---|---|---|---|---|',
      ...rows,
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
    console.log(result);
    return [
      `Measured ${today} on ${machine}, Chromium headless, local server.`,
      '',
      `Initial JavaScript of /about: **${result.totalGzipKb.toFixed(1)} KB gzip** in ${result.scripts.length} files (budget 170 KB); form on screen after ${result.formVisibleMs.toFixed(0)} ms.`,
      '',
      '| script | KB gzip |',
      '|---|---|',
      ...result.scripts.map((script) => `| ${script.file} | ${script.gzipKb.toFixed(1)} |`),
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
