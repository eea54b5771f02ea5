// A reader going through their queue at 1280 px: from pressing `j` to the next application's
// review form ready (its first score open to a click) with the application PDF loaded in the
// document pane, beside a yardstick in the same run and in turns: the same steps through the
// same queue at 1100 px, where the page has one pane and no PDF, ready when the form is.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { randomToken, sha256 } from '../src/server/accounts/secrets';
import { type DatabaseHandle, openDatabase } from '../src/server/db/database';
import {
  accounts,
  applications,
  staffMembers,
  staffSessions,
  webStatuses,
} from '../src/server/db/schema';
import { STAFF_SESSION_ABSOLUTE_HOURS, staffCookieName } from '../src/server/staff/staff-sessions';
import type { DatabaseKind } from '../src/server/test/test-database';
import { REVIEW_API } from '../src/shared/review/review-api';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { buildServer, scratchPostgres, startProductionServer } from './production-server';
import { percentile } from './timing';

const PORT = 3398;
const APPLICATIONS = Number(process.env.BENCH_QUEUE_APPLICATIONS ?? 40);
const WARM_UPS = 3;
const TERM = 'BENCHQUEUE';
/**
 * Untimed pause after each step, as a reader reads before moving on: the PDF viewer goes on
 * drawing after its frame's load, and the other context's step should not pay for it.
 */
const SETTLE_MS = 500;

export interface ReaderQueueResult {
  database: DatabaseKind;
  applications: number;
  steps: number;
  /** Opening the first application from the queue page (ms), untimed in the percentiles. */
  firstOpenMs: number;
  queueP50Ms: number;
  queueP95Ms: number;
  queueMaxMs: number;
  yardstickP50Ms: number;
  yardstickP95Ms: number;
  yardstickMaxMs: number;
  /** Whether the PDFs were made before the reader came (as the submit does) or on first open. */
  pdfs: 'made at submit' | 'made on first open';
  loadBefore: number[];
  loadAfter: number[];
}

interface Seeded {
  adminCookie: string;
  readerToken: string;
  readerId: string;
  ids: string[];
}

async function seed(database: DatabaseHandle): Promise<Seeded> {
  const { db } = database;
  const rows = await db
    .insert(accounts)
    .values(
      Array.from({ length: APPLICATIONS }, (_, index) => ({
        email: `bench-queue-${index}@example.edu`,
        confirmedAt: new Date(),
      })),
    )
    .returning({ id: accounts.id });
  const base = Date.now() - APPLICATIONS * 60_000;
  await db.insert(applications).values(
    rows.map((row, index) => ({
      accountId: row.id,
      answers: {
        ...validApplicationAnswers(),
        first_name: `Ana${index}`,
        last_name: 'Reyes',
        entry_term: TERM,
      } as Record<string, string | boolean>,
      submittedAt: new Date(base + index * 60_000),
    })),
  );
  // Submitted as the submit leaves it: each web status reached, once.
  await db.insert(webStatuses).values(
    rows.flatMap((row) =>
      (['started', 'validating', 'submitted'] as const).map((webStatus) => ({
        accountId: row.id,
        webStatus,
      })),
    ),
  );
  const members = await db
    .insert(staffMembers)
    .values([
      { email: 'bench-queue-admin@staff.example.edu', role: 'admin', displayName: 'Admin' },
      { email: 'bench-queue-reader@staff.example.edu', role: 'reader', displayName: 'Reader' },
    ])
    .returning({ id: staffMembers.id, role: staffMembers.role });
  const session = async (staffId: string) => {
    const token = randomToken();
    await db.insert(staffSessions).values({
      tokenHash: sha256(token),
      staffId,
      stage: 'signed_in',
      method: 'password',
      // The assignment asks for a fresh second factor: proved at seeding.
      secondFactorAt: new Date(),
      expiresAt: new Date(Date.now() + STAFF_SESSION_ABSOLUTE_HOURS * 3_600_000),
    });
    return token;
  };
  const admin = members.find((member) => member.role === 'admin')?.id as string;
  const readerId = members.find((member) => member.role === 'reader')?.id as string;
  return {
    adminCookie: `${staffCookieName(true)}=${await session(admin)}`,
    readerToken: await session(readerId),
    readerId,
    ids: rows.map((row) => row.id),
  };
}

/** Marks each iframe's load in the page, so "loaded" is the browser's own event. */
function markFrameLoads(): void {
  // On the document: a load event's path stops short of the window.
  document.addEventListener(
    'load',
    (event) => {
      const target = event.target;
      if (target instanceof HTMLIFrameElement) target.dataset.benchLoaded = 'yes';
    },
    true,
  );
}

/** The review form ready: the first score radio visible and enabled, the PDF's frame loaded. */
function queueReady(previous: string): boolean {
  if (location.pathname === previous) return false;
  const radio = document.querySelector<HTMLInputElement>(
    'form[aria-label="Review form"] input[type="radio"]',
  );
  if (!radio || radio.disabled || !radio.checkVisibility()) return false;
  const frame = document.querySelector<HTMLIFrameElement>('iframe[src^="blob:"]');
  return frame?.dataset.benchLoaded === 'yes';
}

/** The yardstick's page ready: the same review form, where no document pane is shown. */
function formReady(previous: string): boolean {
  if (location.pathname === previous) return false;
  const radio = document.querySelector<HTMLInputElement>(
    'form[aria-label="Review form"] input[type="radio"]',
  );
  return !!radio && !radio.disabled && radio.checkVisibility();
}

/** Milliseconds from the `j` key's keydown to `ready` holding in the page (polled each frame). */
async function step(page: Page, ready: (previous: string) => boolean): Promise<number> {
  const previous = await page.evaluate(() => {
    const w = window as unknown as { benchKeyAt?: number };
    w.benchKeyAt = undefined;
    window.addEventListener(
      'keydown',
      () => {
        w.benchKeyAt = performance.now();
      },
      { capture: true, once: true },
    );
    return location.pathname;
  });
  await page.keyboard.press('j');
  await page.waitForFunction(ready, previous, { polling: 'raf', timeout: 60_000 });
  const elapsed = await page.evaluate(() => {
    const at = (window as unknown as { benchKeyAt?: number }).benchKeyAt;
    if (at === undefined) throw new Error('the key press was not seen');
    return performance.now() - at;
  });
  await page.waitForTimeout(SETTLE_MS);
  return elapsed;
}

async function signedIn(
  browserContext: () => Promise<BrowserContext>,
  token: string,
  base: string,
): Promise<Page> {
  const context = await browserContext();
  await context.addInitScript(markFrameLoads);
  await context.addCookies([
    {
      name: staffCookieName(true),
      value: token,
      domain: new URL(base).hostname,
      path: '/',
      secure: true,
      httpOnly: true,
      sameSite: 'Strict',
    },
  ]);
  return context.newPage();
}

export async function benchReaderQueue(kind: DatabaseKind): Promise<ReaderQueueResult> {
  const loadBefore = os.loadavg();
  const coldPdfs = process.env.BENCH_QUEUE_COLD_PDFS === '1';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-queue-'));
  const scratch =
    kind === 'postgres' && process.env.DATABASE_URL
      ? await scratchPostgres(process.env.DATABASE_URL, 'portal_bench_queue')
      : null;
  const database = await openDatabase(
    scratch ? { kind: 'postgres', url: scratch.url, poolSize: 2 } : { kind: 'pglite', dataDir },
  );
  const seeded = await seed(database);
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
    const headers = { cookie: seeded.adminCookie, origin: server.base };
    const assigned = await fetch(`${server.base}${REVIEW_API.assignments}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `term=${TERM}`,
        reader_ids: [seeded.readerId],
        second_reads: false,
        expected_count: APPLICATIONS,
      }),
    });
    if (!assigned.ok) throw new Error(`assign: ${assigned.status} ${await assigned.text()}`);
    if (!coldPdfs) {
      // A submit starts the PDF staff read; the seeding skipped the submit, so make them here.
      for (const id of seeded.ids) {
        const made = await fetch(`${server.base}/staff/api/applications/${id}/pdf`, { headers });
        await made.arrayBuffer();
        if (!made.ok) throw new Error(`the application PDF of ${id}: ${made.status}`);
      }
    }
    const reader = await signedIn(
      () => browser.newContext({ viewport: { width: 1280, height: 800 } }),
      seeded.readerToken,
      server.base,
    );
    const yardstick = await signedIn(
      () => browser.newContext({ viewport: { width: 1100, height: 800 } }),
      seeded.readerToken,
      server.base,
    );
    // The queue page, then its first application, as a reader starts a session of reading.
    const openFirst = async (page: Page, ready: (previous: string) => boolean) => {
      await page.goto(`${server.base}/staff/queue`);
      const firstLink = page.locator('main a[href*="queue=mine"]').first();
      await firstLink.waitFor({ timeout: 30_000 });
      const start = await page.evaluate(() => performance.now());
      await firstLink.click();
      await page.waitForFunction(ready, '/staff/queue', { polling: 'raf', timeout: 60_000 });
      return (await page.evaluate(() => performance.now())) - start;
    };
    const firstOpenMs = await openFirst(reader, queueReady);
    await openFirst(yardstick, formReady);

    const queue: number[] = [];
    const plain: number[] = [];
    for (let index = 1; index < APPLICATIONS; index++) {
      const queueMs = await step(reader, queueReady);
      const plainMs = await step(yardstick, formReady);
      if (index <= WARM_UPS) continue;
      queue.push(queueMs);
      plain.push(plainMs);
    }
    queue.sort((a, b) => a - b);
    plain.sort((a, b) => a - b);
    const ms = (values: number[], fraction: number) => Math.round(percentile(values, fraction));
    return {
      database: kind,
      applications: APPLICATIONS,
      steps: queue.length,
      firstOpenMs: Math.round(firstOpenMs),
      queueP50Ms: ms(queue, 0.5),
      queueP95Ms: ms(queue, 0.95),
      queueMaxMs: Math.round(queue.at(-1) ?? 0),
      yardstickP50Ms: ms(plain, 0.5),
      yardstickP95Ms: ms(plain, 0.95),
      yardstickMaxMs: Math.round(plain.at(-1) ?? 0),
      pdfs: coldPdfs ? 'made on first open' : 'made at submit',
      loadBefore,
      loadAfter: os.loadavg(),
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
    console.log(await benchReaderQueue(kind as DatabaseKind));
  }
}
