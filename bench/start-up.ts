// Start-up: from spawning the server process to its first 200 on /readyz, for the compiled server
// (`node dist/server/main.js`, what production runs), `npm start`'s launcher on the same build,
// and the previous way (`node --import tsx src/server/main.ts`), side by side in one run and in
// turn, so a busy machine slows all three alike. Run alone with `npm run bench -- start-up`.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseKind } from '../src/server/test/test-database';
import { percentile } from './timing';

const root = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_START_RUNS ?? 9);
const PORT = 3390;

export interface StartUpRow {
  database: DatabaseKind;
  way: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
}

const ways: ReadonlyArray<{ way: string; args: string[] }> = [
  { way: 'compiled: node dist/server/main.js', args: ['dist/server/main.js'] },
  { way: 'npm start launcher on the build', args: ['scripts/run-built.mjs'] },
  {
    way: 'previous: node --import tsx src/server/main.ts',
    args: ['--import', 'tsx', 'src/server/main.ts'],
  },
];

async function untilReady(child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${PORT}/readyz`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function timeStart(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'ignore' });
  try {
    await untilReady(child);
    return performance.now() - started;
  } finally {
    await stop(child);
  }
}

async function withDatabase<T>(
  kind: DatabaseKind,
  use: (env: NodeJS.ProcessEnv) => Promise<T>,
): Promise<T> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    // Production refuses to start without it; a benchmark's trail need not outlive the run.
    AUDIT_CHAIN_KEY: randomBytes(32).toString('hex'),
    PUBLIC_URL: `http://127.0.0.1:${PORT}`,
    HOST: '127.0.0.1',
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
  };
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-start-up-'));
    try {
      return await use({ ...env, DATA_DIR: dataDir });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const adminUrl = process.env.DATABASE_URL as string;
  const name = `portal_start_up_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await use({ ...env, DATABASE_URL: url.toString() });
  } finally {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

export async function benchStartUp(kinds: readonly DatabaseKind[]): Promise<StartUpRow[]> {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  const rows: StartUpRow[] = [];
  for (const database of kinds) {
    await withDatabase(database, async (env) => {
      // The first start migrates the new database and imports the school lists: not timed.
      await timeStart(ways[0]?.args ?? [], env);
      const times = ways.map(() => [] as number[]);
      for (let run = 0; run < RUNS; run++) {
        for (const [index, way] of ways.entries()) {
          times[index]?.push(await timeStart(way.args, env));
        }
      }
      for (const [index, way] of ways.entries()) {
        const sorted = (times[index] ?? []).sort((a, b) => a - b);
        rows.push({
          database,
          way: way.way,
          runs: RUNS,
          medianMs: Math.round(percentile(sorted, 0.5)),
          p95Ms: Math.round(percentile(sorted, 0.95)),
        });
      }
    });
  }
  return rows;
}
