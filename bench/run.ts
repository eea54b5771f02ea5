// `npm run bench`: runs every benchmark and rewrites the results table in docs/benchmarks.md.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchAnswerSave } from './answer-save';

const root = path.resolve(import.meta.dirname, '..');
const kinds = process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const);

const lines: string[] = [];
for (const kind of kinds) {
  const result = await benchAnswerSave(kind);
  console.log(result);
  lines.push(
    `| ${kind} | ${result.apiRate.toFixed(0)} | ${result.apiP99Ms} | ${result.directRate.toFixed(0)} | ${result.ratio.toFixed(2)} | ${result.profileP50Ms} | ${result.profileP99Ms} |`,
  );
}

const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores, Node ${process.version}, ${process.env.BENCH_SECONDS ?? 10} s per measurement, 100 connections.`,
  '',
  '| database | PUT /api/answer (req/s) | p99 (ms) | same upsert direct (statements/s) | ratio (goal ≥ 0.5) | GET /api/profile p50 (ms) | p99 (ms) |',
  '|---|---|---|---|---|---|---|',
  ...lines,
].join('\n');

const file = path.join(root, 'docs', 'benchmarks.md');
const current = readFileSync(file, 'utf8');
const start = '<!-- answer-save:start -->';
const end = '<!-- answer-save:end -->';
const next = current.replace(new RegExp(`${start}[\\s\\S]*${end}`), `${start}\n${table}\n${end}`);
writeFileSync(file, next);
console.log(`\nwrote ${path.relative(root, file)}`);
