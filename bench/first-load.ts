// First load of /about (design.md: "initial JavaScript at most 170 KB gzip; other routes lazy"):
// builds the browser app, serves it from the real server on an embedded database, opens /about
// in Chromium as a new anonymous visitor and adds up every script the page fetched until the
// form is on screen, each gzipped at the default level as a server or CDN would send it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { buildApp } from '../src/server/app';
import { loadEnv } from '../src/server/config/env';
import { loadTenantConfig } from '../src/server/config/tenant';
import { openDatabase } from '../src/server/db/database';
import { sampleTenantFile } from '../src/server/test/test-app';
import { applicationModel } from '../src/shared/application/application-model';

const projectRoot = path.resolve(import.meta.dirname, '..');

export interface FirstLoadResult {
  scripts: { file: string; gzipKb: number }[];
  totalGzipKb: number;
  /** From navigation to the first form field on screen, in ms (local server, no throttling). */
  formVisibleMs: number;
}

export async function benchFirstLoad(): Promise<FirstLoadResult> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'bench-first-load-'));
  await build({
    configFile: path.join(projectRoot, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  const database = await openDatabase({ kind: 'pglite-memory' });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-first-load-data-'));
  const app = await buildApp({
    env: loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir }),
    tenant: await loadTenantConfig(sampleTenantFile),
    database,
    model: applicationModel,
    webRoot: outDir,
    logger: false,
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const page = await browser.newPage();
    const scripts = new Map<string, number>();
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      const body = await response.body();
      scripts.set(new URL(response.url()).pathname, gzipSync(body).length);
    });
    const started = performance.now();
    await page.goto(`${address}/about`);
    await page.locator('main input, main select').first().waitFor();
    const formVisibleMs = performance.now() - started;
    await page.waitForLoadState('networkidle');
    const list = [...scripts]
      .map(([file, bytes]) => ({ file, gzipKb: bytes / 1024 }))
      .sort((a, b) => b.gzipKb - a.gzipKb);
    return {
      scripts: list,
      totalGzipKb: list.reduce((sum, script) => sum + script.gzipKb, 0),
      formVisibleMs,
    };
  } finally {
    await browser.close();
    await app.close();
    await database.close();
    await rm(outDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}
