// The evaluator's screen at 1280 px: from navigation to the 30 courses, the totals and the
// transcript PDF in its pane, beside the application's own page in the console, in turns.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { openDatabase } from '../src/server/db/database';
import { staffCookieName } from '../src/server/staff/staff-sessions';
import { makePdf } from '../src/server/test/sample-files';
import type { DatabaseKind } from '../src/server/test/test-database';
import { creditUrls } from '../src/shared/credit/credit-api';
import { seedCreditBench } from './credit';
import { buildServer, scratchPostgres, startProductionServer } from './production-server';
import { percentile } from './timing';

const PORT = 3394;
const RUNS = Number(process.env.BENCH_EVALUATOR_RUNS ?? 30);
const WARM_UPS = 3;
const COURSES = 30;

export interface EvaluatorScreenResult {
  database: DatabaseKind;
  runs: number;
  screenMedianMs: number;
  screenP95Ms: number;
  applicationMedianMs: number;
  applicationP95Ms: number;
}

/** Milliseconds from navigation until `ready` holds in the page. */
async function timeToReady(page: Page, url: string, ready: () => boolean): Promise<number> {
  await page.goto('about:blank');
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(ready, null, { polling: 'raf', timeout: 30_000 });
  return page.evaluate(() => performance.now());
}

export async function benchEvaluatorScreen(kind: DatabaseKind): Promise<EvaluatorScreenResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-evaluator-'));
  const scratch =
    kind === 'postgres' && process.env.DATABASE_URL
      ? await scratchPostgres(process.env.DATABASE_URL, 'portal_bench_evaluator')
      : null;
  const database = await openDatabase(
    scratch ? { kind: 'postgres', url: scratch.url, poolSize: 2 } : { kind: 'pglite', dataDir },
  );
  const { id, token, cookie } = await seedCreditBench(database);
  await database.close();
  const server = await startProductionServer(PORT, {
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: scratch?.url,
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    // The college's official transcript, attached as an evaluator does.
    const attached = await fetch(
      `${server.base}${creditUrls.transcript(id, 'college_coursework')}?file_name=transcript.pdf`,
      {
        method: 'POST',
        headers: { cookie, origin: server.base, 'content-type': 'application/pdf' },
        body: Buffer.from(await makePdf([['Official transcript'], ['Page two']])),
      },
    );
    if (!attached.ok) throw new Error(`attaching the transcript: ${attached.status}`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([
      {
        name: staffCookieName(true),
        value: token,
        domain: new URL(server.base).hostname,
        path: '/',
        secure: true,
        httpOnly: true,
        sameSite: 'Strict',
      },
    ]);
    const page = await context.newPage();
    const screenUrl = `${server.base}/staff/applications/${id}/credit`;
    const applicationUrl = `${server.base}/staff/applications/${id}`;
    const screenReady = new Function(
      `return document.querySelectorAll('tbody tr[data-ref]').length === ${COURSES} &&
        !!document.querySelector('iframe[src^="blob:"]')`,
    ) as () => boolean;
    const applicationReady = () =>
      !!document.querySelector('main h1') && document.body.innerText.includes('Courses taken');
    const screen: number[] = [];
    const application: number[] = [];
    for (let run = 0; run < RUNS + WARM_UPS; run++) {
      const screenMs = await timeToReady(page, screenUrl, screenReady);
      const applicationMs = await timeToReady(page, applicationUrl, applicationReady);
      if (run < WARM_UPS) continue;
      screen.push(screenMs);
      application.push(applicationMs);
    }
    screen.sort((a, b) => a - b);
    application.sort((a, b) => a - b);
    const ms = (list: number[], fraction: number) => Math.round(percentile(list, fraction));
    return {
      database: kind,
      runs: RUNS,
      screenMedianMs: ms(screen, 0.5),
      screenP95Ms: ms(screen, 0.95),
      applicationMedianMs: ms(application, 0.5),
      applicationP95Ms: ms(application, 0.95),
    };
  } finally {
    await browser.close();
    await server.stop();
    await scratch?.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildServer();
  for (const kind of process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : ['pglite']) {
    console.log(await benchEvaluatorScreen(kind as DatabaseKind));
  }
}
