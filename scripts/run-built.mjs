// npm start and the commands: runs an entry of the compiled server (dist/server/ENTRY.js) on plain
// Node. Where the development dependencies are installed it first builds when the build is
// missing or older than its sources; a production install (npm ci --omit=dev) never builds and
// needs a build made beforehand.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const buildStamp = path.join(root, 'dist', 'build-stamp.json');
const minimumNode = [22, 12];

function fail(message) {
  console.error(`Cannot start: ${message}`);
  process.exit(1);
}

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < minimumNode[0] || (major === minimumNode[0] && minor < minimumNode[1])) {
  fail(
    `Node ${minimumNode.join('.')} or later is needed, this is ${process.version}. ` +
      'Install Node 24 LTS, or run through npm in a full install, which brings its own Node 24.',
  );
}

// glibc's allocator raises its threshold for returning memory to the system each time a large
// block is freed, so the few hundred MB V8 takes to optimize PGlite's WebAssembly as the server
// starts stay in the process for good (about 70 MB at rest: docs/benchmarks.md, memory). Its own
// default threshold (128 KiB) set explicitly keeps it from rising. The allocator reads it only as
// a process starts, so this process starts itself again with it: execve keeps the process id,
// so npm, systemd and their signals still reach the server. A value already set is left alone.
const allocatorSettings = { MALLOC_TRIM_THRESHOLD_: '131072' };
if (
  process.platform === 'linux' &&
  typeof process.execve === 'function' &&
  !Object.keys(allocatorSettings).some((name) => name in process.env)
) {
  process.execve(
    process.execPath,
    [process.execPath, ...process.execArgv, ...process.argv.slice(1)],
    {
      ...process.env,
      ...allocatorSettings,
    },
  );
}

const [entry = 'main', ...args] = process.argv.slice(2);
const entryFile = path.join(root, 'dist', 'server', `${entry}.js`);

function newestSource(directory) {
  let newest = 0;
  for (const item of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, item.name);
    if (item.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (!item.name.includes('.test.')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function buildToolsInstalled() {
  try {
    createRequire(import.meta.url).resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}

function isStale() {
  if (!existsSync(buildStamp)) return true;
  const sources = [
    newestSource(path.join(root, 'src')),
    newestSource(path.join(root, 'scripts')),
    ...['vite.config.ts', 'package-lock.json'].map(
      (file) => statSync(path.join(root, file)).mtimeMs,
    ),
  ];
  return Math.max(...sources) > statSync(buildStamp).mtimeMs;
}

if (buildToolsInstalled()) {
  if (isStale()) {
    console.error('Building the web app and the server (npm run build)...');
    // In a process of its own: Vite sets NODE_ENV to production in the process it builds in, and
    // the build tools need not stay in the server's memory.
    const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], {
      cwd: root,
      stdio: 'inherit',
    });
    if (build.status !== 0) fail('the build failed (above).');
  }
} else if (!existsSync(buildStamp)) {
  fail(
    'there is no build in dist/, and this install has no build tools. Run `npm ci && npm run build` ' +
      'first (on a build machine or before `npm ci --omit=dev`), then start again.',
  );
}
if (!existsSync(entryFile)) fail(`the build has no ${path.relative(root, entryFile)}`);

// The entry runs in this process, so SIGTERM and SIGINT reach the server itself and it shuts down
// gracefully; it reads its arguments from process.argv as if started directly.
process.argv = [process.argv[0] ?? 'node', entryFile, ...args];
// Stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(entryFile).href);
