// First load of /about on a phone (issue 31: ready within 1.5x of a one-input page on a phone with
// the CPU slowed 4x, with at most 100 KB gzip of JavaScript, anonymous and signed in). The app is
// built and run as production runs it (`node dist/server/main.js`, NODE_ENV=production, default
// logging, the embedded database); the yardstick (bench/plain-input: React rendering one labelled input) is
// built with Vite for production and served by @fastify/static with the production server's own
// options, so both pages travel the same way: uncompressed from the same library. The two are
// opened in turns in Chromium on a 390 px mobile viewport with the CPU slowed 4x, /about both as a
// new anonymous visitor and as a signed-in applicant (a live session; the page waits for GET
// /api/profile), each with an empty cache, and each is timed to "ready" (see READY_PROBE) from its
// navigation's start.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { type Browser, type BrowserContextOptions, chromium } from '@playwright/test';
import react from '@vitejs/plugin-react';
import Fastify from 'fastify';
import { build } from 'vite';
import { webFilesOptions } from '../src/server/spa/spa-routes';
import { signIn, smtpReceiver } from './keystroke-app';
import { buildServer, startProductionServer } from './production-server';

const projectRoot = path.resolve(import.meta.dirname, '..');
const APP_PORT = 3531;
const RUNS = Number(process.env.BENCH_FIRST_LOAD_RUNS ?? 9);
const CPU_SLOWDOWN = 4;
const PHONE = { width: 390, height: 844 };

/**
 * Ready: the first text-entry field in <main> (input, select or textarea, in document order) is
 * in the document, has a box inside the viewport, and is neither disabled nor read-only, checked
 * in every animation frame (so after style and layout, just before the frame is painted). The
 * time is the page's own clock, performance.now(), whose zero is the start of the navigation.
 * The renderer attaches its event listeners before the field reaches the document, so a field in
 * the document is one that takes typing; the run checks that it does, after the timing.
 * Drawn: from ready on, the frame in which the number of text-entry fields in <main> last
 * changed, once it has not changed for 2 s: the whole page drawn, where a page draws its first
 * sections first.
 */
const READY_PROBE = `(() => {
  const FIELDS = 'main input:not([type=hidden]), main select, main textarea';
  let count = 0;
  let changedAt = 0;
  const watch = () => {
    const now = performance.now();
    const next = document.querySelectorAll(FIELDS).length;
    if (next !== count) {
      count = next;
      changedAt = now;
    }
    if (now - changedAt > 2000) {
      window.__drawn = changedAt;
      return;
    }
    requestAnimationFrame(watch);
  };
  const check = () => {
    const field = document.querySelector(FIELDS);
    if (field && !field.disabled && !field.readOnly) {
      const box = field.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && box.top < innerHeight && box.bottom > 0) {
        window.__ready = performance.now();
        watch();
        return;
      }
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

export interface FirstLoadScript {
  file: string;
  gzipKb: number;
  /** Requested before the page was ready (counted in the total), or afterwards. */
  beforeReady: boolean;
}

/** /about for one kind of visitor, against the yardstick's visits of the same run. */
export interface FirstLoadVisitor {
  visitor: 'anonymous' | 'signed in';
  /** Every script /about fetched until the network was idle, largest first. */
  scripts: FirstLoadScript[];
  /** JavaScript requested before ready, each file gzipped at the default level. */
  totalGzipKb: number;
  appReadyMs: number[];
  appMedianMs: number;
  /** When the whole page was drawn (see READY_PROBE), each visit and the median. */
  appDrawnMs: number[];
  appDrawnMedianMs: number;
  /** The median over the yardstick's. */
  ratio: number;
}

export interface FirstLoadResult {
  visitors: FirstLoadVisitor[];
  yardstickGzipKb: number;
  runs: number;
  cpuSlowdown: number;
  yardstickReadyMs: number[];
  yardstickMedianMs: number;
  loadBefore: number[];
  loadAfter: number[];
}

interface PageLoad {
  readyMs: number;
  drawnMs: number;
  /** Path of each script and whether its request started before ready. */
  scripts: { file: string; beforeReady: boolean }[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function buildYardstick(outDir: string): Promise<void> {
  await build({
    configFile: false,
    root: path.join(projectRoot, 'bench/plain-input'),
    mode: 'production',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  });
}

/** The yardstick behind @fastify/static with the web app's own options (spa-routes.ts). */
async function serveYardstick(webRoot: string) {
  const app = Fastify({ logger: false });
  await app.register(fastifyStatic, webFilesOptions(webRoot));
  app.get('/', (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
  return { app, base: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

/**
 * One visit with an empty cache: a fresh context, a phone, a slow CPU. A signed-in visit brings
 * the applicant's cookies (`storageState`) and must see its GET /api/profile answered 200.
 */
async function visit(
  browser: Browser,
  url: string,
  storageState?: BrowserContextOptions['storageState'],
): Promise<PageLoad> {
  const context = await browser.newContext({
    ...(storageState ? { storageState } : {}),
    viewport: PHONE,
    screen: PHONE,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 3,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.addInitScript(READY_PROBE);
    const profileStatuses: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/profile') {
        profileStatuses.push(response.status());
      }
    });
    await page.goto(url);
    await page.waitForFunction(() => (window as { __ready?: number }).__ready !== undefined, null, {
      timeout: 60_000,
    });
    await page.waitForLoadState('networkidle');
    await page.waitForFunction(() => (window as { __drawn?: number }).__drawn !== undefined, null, {
      timeout: 60_000,
    });
    if (storageState && !profileStatuses.includes(200)) {
      throw new Error(
        `${url}: GET /api/profile answered ${profileStatuses.join(', ') || 'nothing'}`,
      );
    }
    if (!storageState && profileStatuses.length > 0) {
      throw new Error(`${url}: an anonymous visitor asked for the profile`);
    }
    const { readyMs, drawnMs, entries } = await page.evaluate(() => {
      const ready = (window as { __ready?: number }).__ready ?? 0;
      return {
        readyMs: ready,
        drawnMs: (window as { __drawn?: number }).__drawn ?? 0,
        entries: performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
          .map((entry) => ({ name: entry.name, startTime: entry.startTime })),
      };
    });
    // Not timed: the field takes typing.
    const field = page.locator('main input:not([type=hidden]), main select, main textarea').first();
    if ((await field.evaluate((element) => element.tagName)) === 'INPUT') {
      await field.pressSequentially('a');
      if ((await field.inputValue()).length === 0) throw new Error(`${url}: typing had no effect`);
    }
    return {
      readyMs,
      drawnMs,
      scripts: entries.map((entry) => ({
        file: new URL(entry.name).pathname,
        beforeReady: entry.startTime <= readyMs,
      })),
    };
  } finally {
    await context.close();
  }
}

async function gzipKb(webRoot: string, file: string): Promise<number> {
  return gzipSync(await readFile(path.join(webRoot, file))).length / 1024;
}

/** The scripts of a page's visits: a script counts before ready when it was so in any visit. */
async function scriptsOf(webRoot: string, loads: PageLoad[]): Promise<FirstLoadScript[]> {
  // A preload racing the field counts against the app.
  const seen = new Map<string, boolean>();
  for (const load of loads) {
    for (const script of load.scripts) {
      seen.set(script.file, (seen.get(script.file) ?? false) || script.beforeReady);
    }
  }
  const scripts: FirstLoadScript[] = [];
  for (const [file, beforeReady] of seen) {
    scripts.push({ file, beforeReady, gzipKb: await gzipKb(webRoot, file) });
  }
  return scripts.sort(
    (a, b) => Number(b.beforeReady) - Number(a.beforeReady) || b.gzipKb - a.gzipKb,
  );
}

export async function benchFirstLoad(): Promise<FirstLoadResult> {
  buildServer();
  const appWebRoot = path.join(projectRoot, 'dist/web');
  const yardstickRoot = await mkdtemp(path.join(tmpdir(), 'bench-first-load-yardstick-'));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-first-load-data-'));
  await buildYardstick(yardstickRoot);
  const yardstick = await serveYardstick(yardstickRoot);
  const mails: string[] = [];
  const smtp = await smtpReceiver((text) => mails.push(text));
  const server = await startProductionServer(APP_PORT, {
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    LOG_LEVEL: undefined,
    SMTP_URL: smtp.url,
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const appUrl = `${server.base}/about`;
    const yardstickUrl = `${yardstick.base}/`;
    // The applicant's session, taken into each signed-in visit's fresh context.
    const signing = await browser.newContext();
    await signIn(
      await signing.newPage(),
      server.base,
      `first.load.${Date.now()}@example.edu`,
      mails,
    );
    const session = await signing.storageState();
    await signing.close();

    const pages = [
      { name: 'anonymous', open: () => visit(browser, appUrl) },
      { name: 'signed in', open: () => visit(browser, appUrl, session) },
      { name: 'yardstick', open: () => visit(browser, yardstickUrl) },
    ] as const;
    // Warm-up, not counted: the server's first requests and Chromium's first page.
    for (const page of pages) await page.open();
    const loadBefore = os.loadavg();
    const loads = new Map<string, PageLoad[]>(pages.map((page) => [page.name, []]));
    for (let run = 0; run < RUNS; run += 1) {
      // Taking turns, and changing who goes first, so a busy moment falls on all three.
      for (let turn = 0; turn < pages.length; turn += 1) {
        const page = pages[(run + turn) % pages.length];
        if (page) loads.get(page.name)?.push(await page.open());
      }
    }
    const loadAfter = os.loadavg();

    const yardstickLoads = loads.get('yardstick') ?? [];
    let yardstickGzipKb = 0;
    for (const script of new Set(
      yardstickLoads.flatMap((load) => load.scripts.map((entry) => entry.file)),
    )) {
      yardstickGzipKb += await gzipKb(yardstickRoot, script);
    }
    const yardstickReadyMs = yardstickLoads.map((load) => load.readyMs);
    const yardstickMedianMs = median(yardstickReadyMs);
    const visitors: FirstLoadVisitor[] = [];
    for (const visitor of ['anonymous', 'signed in'] as const) {
      const appLoads = loads.get(visitor) ?? [];
      const scripts = await scriptsOf(appWebRoot, appLoads);
      const appReadyMs = appLoads.map((load) => load.readyMs);
      const appMedianMs = median(appReadyMs);
      const appDrawnMs = appLoads.map((load) => load.drawnMs);
      visitors.push({
        visitor,
        scripts,
        totalGzipKb: scripts
          .filter((script) => script.beforeReady)
          .reduce((sum, script) => sum + script.gzipKb, 0),
        appReadyMs,
        appMedianMs,
        appDrawnMs,
        appDrawnMedianMs: median(appDrawnMs),
        ratio: appMedianMs / yardstickMedianMs,
      });
    }
    return {
      visitors,
      yardstickGzipKb,
      runs: RUNS,
      cpuSlowdown: CPU_SLOWDOWN,
      yardstickReadyMs,
      yardstickMedianMs,
      loadBefore,
      loadAfter,
    };
  } finally {
    await browser.close();
    await server.stop();
    await smtp.close();
    await yardstick.app.close();
    await rm(yardstickRoot, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}
