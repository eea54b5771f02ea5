// npm run build: the browser app into dist/web (Vite) and the server and its commands into
// dist/server (esbuild), so production runs plain `node` with no TypeScript tooling installed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What the build produces from which sources: the server's entry and each command's. */
export const serverEntries = {
  main: 'src/server/main.ts',
  // The embedded database's thread (src/server/db/pglite-thread.ts starts it).
  'pglite-worker': 'src/server/db/pglite-worker.ts',
  'lookup-import': 'scripts/lookup-import.ts',
  'equivalencies-import': 'scripts/equivalencies-import.ts',
  'service-token': 'scripts/service-token.ts',
  'tmp-answers': 'scripts/tmp-answers.ts',
  retention: 'scripts/retention.ts',
  staff: 'scripts/staff.ts',
  audit: 'scripts/audit.ts',
  'api-client': 'scripts/api-client.ts',
  feeds: 'scripts/feeds.ts',
  webhooks: 'scripts/webhooks.ts',
};

/** Written last, so a build that stopped half-way counts as missing. */
export const buildStamp = path.join(root, 'dist', 'build-stamp.json');

export async function buildWeb() {
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}

/**
 * Bundled into the server rather than resolved from node_modules at each start: pure JavaScript
 * packages of many small modules, whose resolution through large `exports` maps cost about half
 * a second of every start.
 */
const bundledPackages = new Set(['drizzle-orm', 'zod']);

function externalPackages() {
  const { dependencies = {}, devDependencies = {} } = JSON.parse(
    readFileSync(path.join(root, 'package.json'), 'utf8'),
  );
  return Object.keys({ ...dependencies, ...devDependencies })
    .filter((name) => !bundledPackages.has(name))
    .flatMap((name) => [name, `${name}/*`]);
}

export async function buildServer() {
  const esbuild = await import('esbuild');
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: serverEntries,
    outdir: path.join(root, 'dist', 'server'),
    bundle: true,
    // Other dependencies stay in node_modules and load as they do in development, lazily where
    // the code imports them lazily.
    external: externalPackages(),
    platform: 'node',
    format: 'esm',
    target: 'node22.12',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
  });
}

export async function build() {
  await buildWeb();
  await buildServer();
  mkdirSync(path.dirname(buildStamp), { recursive: true });
  writeFileSync(buildStamp, `${JSON.stringify({ builtAt: new Date().toISOString() })}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  await build();
  console.log(`Built dist/web and dist/server in ${Math.round(performance.now() - started)} ms.`);
}
