import { availableParallelism } from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { Plugin, Rolldown } from 'vite';
import { defineConfig } from 'vitest/config';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

const apiPort = Number(process.env.API_PORT ?? 3001);
const apiTarget = `http://127.0.0.1:${apiPort}`;
const proxiedPrefixes = [
  '/api',
  '/public',
  '/service',
  '/lookup',
  '/dev',
  '/staff/api',
  '/staff/sso',
  '/healthz',
  '/readyz',
  '/tenant.css',
];

/**
 * Most visits start on a form page, whose code is a route chunk the entry imports only once it
 * runs. Announced in index.html, it downloads beside the entry instead of after it: the same
 * bytes, one round trip and the entry's parsing sooner. Its styles are fetched early as well, not
 * applied, so the cascade stays in the order the route's import gives it.
 */
function preloadFormPage(): Plugin {
  const formPage = path.join(import.meta.dirname, 'src/web/form/form-page.tsx');
  return {
    name: 'preload-form-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, filename }) {
        if (!bundle || path.basename(filename) !== 'index.html') return html;
        const chunks = Object.values(bundle).filter(
          (output): output is OutputChunk => output.type === 'chunk',
        );
        const start = chunks.find((chunk) => chunk.facadeModuleId === formPage);
        if (!start) throw new Error('no chunk for src/web/form/form-page.tsx');
        const links: string[] = [];
        const seen = new Set<string>();
        const visit = (chunk: OutputChunk | undefined) => {
          if (!chunk || seen.has(chunk.fileName)) return;
          seen.add(chunk.fileName);
          if (!html.includes(`/${chunk.fileName}"`)) {
            links.push(`<link rel="modulepreload" crossorigin href="/${chunk.fileName}">`);
          }
          for (const css of chunk.viteMetadata?.importedCss ?? []) {
            if (!html.includes(`/${css}"`)) {
              links.push(`<link rel="preload" as="style" crossorigin href="/${css}">`);
            }
          }
          for (const imported of chunk.imports) visit(bundleChunk(bundle, imported));
        };
        visit(start);
        return html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
      },
    },
  };
}

function bundleChunk(bundle: OutputBundle, fileName: string): OutputChunk | undefined {
  const output = bundle[fileName];
  return output?.type === 'chunk' ? output : undefined;
}

export default defineConfig({
  // Absolute, so the build works from any working directory (npm start builds from its own).
  root: path.join(import.meta.dirname, 'src/web'),
  publicDir: false,
  plugins: [
    react(),
    preloadFormPage(),
    {
      // The development server answers every unknown page with index.html; the console's pages
      // under /staff are staff.html's, as the production server serves them.
      name: 'staff-pages',
      configureServer(server) {
        server.middlewares.use((request, _response, next) => {
          const pathname = (request.url ?? '').split('?')[0] ?? '';
          if (
            request.headers.accept?.includes('text/html') &&
            /^\/staff(\/|$)/.test(pathname) &&
            !/^\/staff\/(api|sso)(\/|$)/.test(pathname)
          ) {
            request.url = '/staff.html';
          }
          next();
        });
      },
    },
  ],
  build: {
    outDir: path.join(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      // The staff console is an entry of its own, so the applicant's first load never carries it.
      input: {
        index: path.join(import.meta.dirname, 'src/web/index.html'),
        staff: path.join(import.meta.dirname, 'src/web/staff.html'),
      },
      // Both entries use React, the router and TanStack Query: one chunk holds them, as the
      // applicant's entry did alone, rather than several small ones each compressed apart (without
      // this group the applicant's first load grows from 167.9 to 170.9 KB gzip, over its budget).
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|cookie|set-cookie-parser)[\\/]/,
            },
            // The model and the engine's core every view reads: shared by the form, the status
            // page and the console, they would otherwise split into small chunks of their own
            // (171.1 KB gzip at first load instead of under the budget).
            {
              name: 'application-model',
              test: /src[\\/]shared[\\/](application[\\/][a-z-]+|form[\\/](conditions|model|traverse|resolve|choices)|api[\\/]page-parameters)\.ts$/,
            },
            // Small helpers every screen of both entries uses: one chunk, not seven of a few
            // hundred bytes each compressed apart.
            {
              name: 'web-common',
              test: /src[\\/](web[\\/](ui[\\/](cx|text-variant\.module|question-label)|layout[\\/]use-heading-focus|data[\\/](query-keys|http-client))|shared[\\/]api[\\/]application-messages)\.(ts|tsx|css)$/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: Object.fromEntries(proxiedPrefixes.map((prefix) => [prefix, apiTarget])),
  },
  test: {
    root: import.meta.dirname,
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Most test files wait on a database, a worker thread or soffice more than they compute: one
    // file more than there are cores keeps the cores busy (on 2 cores, 12 minutes instead of 20+).
    maxWorkers: availableParallelism() + 1,
  },
});
