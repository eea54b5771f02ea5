// The compiled server as production runs it, for the benchmarks that measure it through HTTP:
// built once, started in a process of its own with NODE_ENV=production, on a scratch database.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..');
const READY_TIMEOUT_MS = 180_000;

/**
 * main before the performance work on the server began (school search, saving, submit): the
 * previous implementation the benchmarks that replace one build and measure beside today's.
 */
export const BASELINE_COMMIT = process.env.BENCH_BASELINE ?? '25cb24e';

/**
 * The baseline's sources from git history in a directory of their own, sharing this project's
 * packages (see `linkModules`), built with their own build script. Kept between runs under the commit's name.
 */
export function buildBaseline(): string {
  const dir = path.join(os.tmpdir(), `portal-bench-baseline-${BASELINE_COMMIT}`);
  if (existsSync(path.join(dir, 'dist', 'build-stamp.json')) && resolvesAll(dir)) return dir;
  spawnSync('rm', ['-rf', dir]);
  spawnSync('mkdir', ['-p', dir]);
  const extract = spawnSync(
    'sh',
    ['-c', `git archive --format=tar ${BASELINE_COMMIT} | tar -x -C "${dir}"`],
    { cwd: root, stdio: 'inherit' },
  );
  if (extract.status !== 0) throw new Error(`could not extract ${BASELINE_COMMIT}`);
  linkModules(dir);
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`the build of ${BASELINE_COMMIT} failed`);
  return dir;
}

/** Whether every package the baseline depends on is in its node_modules. */
function resolvesAll(dir: string): boolean {
  return Object.keys(dependenciesOf(dir)).every((name) =>
    existsSync(path.join(dir, 'node_modules', name)),
  );
}

function dependenciesOf(dir: string): Record<string, string> {
  return (
    JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    }
  ).dependencies;
}

/**
 * The baseline's node_modules: this project's packages linked one by one, and the packages the
 * baseline depends on that this project has since dropped installed beside them from the
 * registry, so the baseline runs with what it was built for.
 */
function linkModules(dir: string): void {
  const modules = realpathSync(path.join(root, 'node_modules'));
  const dropped = Object.entries(dependenciesOf(dir)).filter(
    ([name]) => !existsSync(path.join(modules, name)),
  );
  if (dropped.length === 0) {
    symlinkSync(modules, path.join(dir, 'node_modules'));
    return;
  }
  const extra = path.join(dir, '.dropped-dependencies');
  const install = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      extra,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      ...dropped.map(([name, range]) => `${name}@${range}`),
    ],
    { stdio: 'inherit' },
  );
  if (install.status !== 0) throw new Error("the baseline's dropped dependencies did not install");
  const link = (from: string, to: string) => {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from)) {
      const target = path.join(to, entry);
      if (entry.startsWith('@')) link(path.join(from, entry), target);
      else if (!existsSync(target)) symlinkSync(realpathSync(path.join(from, entry)), target);
    }
  };
  // The project's packages first, then what only the baseline needs (its own dependencies too).
  link(modules, path.join(dir, 'node_modules'));
  link(path.join(extra, 'node_modules'), path.join(dir, 'node_modules'));
}

/** `npm run build`: dist/web and dist/server from the sources as they are now. */
export function buildServer(): void {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

export interface RunningServer {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  base: string;
  stop(): Promise<void>;
}

/**
 * Starts `node dist/server/main.js` (or `args`) on 127.0.0.1 and waits for /readyz. `env` is laid over this
 * process's environment; a key given as undefined is left out (DATABASE_URL for the embedded
 * database, LOG_LEVEL for the default logging).
 */
export async function startProductionServer(
  port: number,
  env: Record<string, string | undefined>,
  /** The project whose build runs: this one unless a benchmark compares another version. */
  cwd: string = root,
  /** What node runs: the compiled server, or e.g. `npm start`'s launcher on it. */
  args: readonly string[] = ['dist/server/main.js'],
): Promise<RunningServer> {
  const base = `http://127.0.0.1:${port}`;
  const merged: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    // Production refuses to start without it; a benchmark's trail need not outlive the run.
    AUDIT_CHAIN_KEY: randomBytes(32).toString('hex'),
    PUBLIC_URL: base,
    HOST: '127.0.0.1',
    PORT: String(port),
  };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  const child = spawn(process.execPath, args, {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: merged,
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error('the server did not become ready');
    }
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return { child, base, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function withAdmin<T>(
  url: string,
  run: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A database of its own on the PostgreSQL of `adminUrl`, dropped afterwards. */
export async function scratchPostgres(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomUUID().slice(0, 8)}`;
  await withAdmin(adminUrl, (admin) => admin.query(`create database "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdmin(adminUrl, (admin) =>
        admin.query(`drop database if exists "${name}" with (force)`),
      ).then(() => undefined),
  };
}
