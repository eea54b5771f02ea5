// A keystroke in the real application against a keystroke in one plain input (issue: typing must
// cost no more than typing into one plain input; goal: the ratio of medians at most 1.2). Builds
// the app (`npm run build`) and starts it as production runs it, on an embedded database in a
// scratch directory, with its mail going to a small SMTP receiver in this process (how a
// signed-in applicant's confirmation code arrives). Builds the yardstick (bench/plain-input: React
// rendering one labelled, controlled input) as a production bundle served from a static server.
// In Chromium it types the same text into the first name on /about and into the yardstick, one
// character at a time, in turns, for a new anonymous visitor and for a signed-in applicant.
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { buildServer, startProductionServer } from './production-server';
import { serveDirectory } from './static-files';
import { percentile } from './timing';

const PORT = 3652;
const ROUNDS = Number(process.env.BENCH_KEYSTROKE_ROUNDS ?? 8);
const WARM_UP_ROUNDS = 2;
// Within the first name's limit of 45 characters.
export const TEXT = 'Maria Elena Lopez-Garcia de la Cruz';
const PASSWORD = 'Keystroke-Bench-2026';
/** Between two keys: a fast typist, so that nothing debounced runs between them. */
const KEY_GAP_MS = 40;
/** After a run on the app: its autosave (800 ms after the last key) goes out before the next run. */
export const SETTLE_MS = 1500;

export interface KeystrokeAppState {
  state: 'anonymous' | 'signed in';
  /** Keystrokes timed on each page. */
  keystrokes: number;
  /** Keydown to the frame that shows the character. */
  frame: Comparison;
  /** Keydown to the end of the page's handling of the input event, before the frame. */
  handled: Comparison;
  /** `handled` plus the frame's rendering, without the wait for the frame. */
  work: Comparison;
}

export interface KeystrokeAppResult {
  states: KeystrokeAppState[];
  rounds: number;
  text: string;
  loadBefore: number[];
  loadAfter: number[];
}

declare global {
  interface Window {
    __keystrokeTimes: number[];
    __handledTimes: number[];
    __workTimes: number[];
    __keystrokeWaiters: Array<() => void>;
    /** Resolves once `count` keystrokes have been timed. */
    __keystrokeDone: (count: number) => Promise<void>;
  }
}

/**
 * The same probe on both pages, added before any of the page's own scripts: a capture listener on
 * window sees the keydown before anything else, and the input listener on window runs after the
 * page's own handlers of that input (React listens on its root, below the window), microtasks
 * included: the time to there is the "handled" measure. From there the next animation frame, then
 * a message posted in it: the message arrives once that frame has been rendered (style, layout,
 * paint, commit), so the "frame" measure covers the key events, the browser's editing, the input
 * handling, the re-render and the frame that shows the new character, and anything the page ran
 * in between (timers that came due, other tasks). A frame comes every 16.7 ms whatever the page
 * does, so "frame" includes a wait for it of up to a frame, the same on both pages on average,
 * which hides most of a difference in cost: "work" leaves that wait out, adding to "handled" the
 * frame's own time from its animation frame callbacks to its end (style, layout, paint, commit).
 */
export const PROBE_SOURCE = `() => {
  window.__keystrokeTimes = [];
  window.__handledTimes = [];
  window.__workTimes = [];
  window.__keystrokeWaiters = [];
  let keydownAt = 0;
  window.addEventListener('keydown', () => { keydownAt = performance.now(); }, { capture: true });
  window.addEventListener('input', () => {
    const began = keydownAt;
    const handled = performance.now() - began;
    window.__handledTimes.push(handled);
    requestAnimationFrame(() => {
      const frameAt = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const end = performance.now();
        window.__keystrokeTimes.push(end - began);
        window.__workTimes.push(handled + end - frameAt);
        for (const wake of window.__keystrokeWaiters.splice(0)) wake();
      };
      channel.port2.postMessage(null);
    });
  });
  window.__keystrokeDone = (count) => new Promise((resolve) => {
    const check = () => {
      if (window.__keystrokeTimes.length >= count) resolve();
      else window.__keystrokeWaiters.push(check);
    };
    check();
  });
}`;

export interface RunTimes {
  /** From the keydown to the frame after the input was handled, per keystroke (ms). */
  frame: number[];
  /** From the keydown to the end of the page's own handling of the input event (ms). */
  handled: number[];
  /** `handled` plus the frame's rendering after its animation frame callbacks (ms). */
  work: number[];
}

/** Types the text into the control one key at a time; the time of each keystroke, in ms. */
export async function typeRun(page: Page, selector: string): Promise<RunTimes> {
  await page.bringToFront();
  const input = page.locator(selector);
  await input.fill('');
  await input.focus();
  // The clearing's own input event lands in the frame after it; it is not one of the keystrokes.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() => setTimeout(resolve, 0));
      }),
  );
  await page.evaluate(() => {
    window.__keystrokeTimes = [];
    window.__handledTimes = [];
    window.__workTimes = [];
  });
  for (let index = 0; index < TEXT.length; index++) {
    await page.keyboard.type(TEXT[index] as string);
    await page.evaluate(`window.__keystrokeDone(${index + 1})`);
    await page.waitForTimeout(KEY_GAP_MS);
  }
  const typed = await input.inputValue();
  if (typed !== TEXT) throw new Error(`typed "${typed}" into ${selector}, expected "${TEXT}"`);
  return page.evaluate(() => ({
    frame: window.__keystrokeTimes.slice(),
    handled: window.__handledTimes.slice(),
    work: window.__workTimes.slice(),
  }));
}

/** The yardstick as a production bundle in a scratch directory, served over HTTP. */
async function serveYardstick(): Promise<{ url: string; close(): Promise<void> }> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'bench-plain-input-'));
  await build({
    root: path.resolve(import.meta.dirname, 'plain-input'),
    configFile: false,
    mode: 'production',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  });
  const served = await serveDirectory(outDir);
  return {
    url: served.url,
    async close() {
      await served.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

function closeServer(server: ReturnType<typeof createTcpServer>): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Just enough SMTP to take the server's mail (no TLS offered, so none is asked for): each
 * message's text goes to `onMessage`, with quoted-printable soft line breaks joined again.
 */
export async function smtpReceiver(
  onMessage: (text: string) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createTcpServer((socket) => {
    let buffer = '';
    let inData = false;
    socket.setEncoding('utf8');
    socket.write('220 bench ESMTP\r\n');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          onMessage(buffer.slice(0, end).replace(/=\r\n/g, ''));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 OK\r\n');
          continue;
        }
        const lineEnd = buffer.indexOf('\r\n');
        if (lineEnd === -1) return;
        const command = buffer.slice(0, lineEnd).toUpperCase();
        buffer = buffer.slice(lineEnd + 2);
        if (command.startsWith('EHLO')) socket.write('250-bench\r\n250 8BITMIME\r\n');
        else if (command.startsWith('DATA')) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (command.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, close: () => closeServer(server) };
}

/**
 * Signs up, confirms with the code mailed to `mails` (what smtpReceiver received; one sign-up per
 * run) and logs in through the app's API, in this page's context, which holds the session after.
 */
export async function signIn(page: Page, base: string, email: string, mails: string[]) {
  const request = page.context().request;
  const post = async (route: string, data: Record<string, string>) => {
    const response = await request.post(`${base}${route}`, {
      data,
      headers: { origin: base },
    });
    if (!response.ok()) throw new Error(`${route}: ${response.status()} ${await response.text()}`);
  };
  const code = async () => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = mails
        .map((text) => /Your confirmation code is (\d{6})\./.exec(text)?.[1])
        .find(Boolean);
      if (found) return found;
      if (Date.now() > deadline) throw new Error('no confirmation code arrived');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await post('/public/signup', { username: email, password: PASSWORD });
  await post('/public/confirm', { username: email, code: await code() });
  await post('/public/login', { username: email, password: PASSWORD });
}

/** Median and 90th percentile of one measure on both pages, and the ratio of the medians. */
export interface Comparison {
  appMedianMs: number;
  appP90Ms: number;
  plainMedianMs: number;
  plainP90Ms: number;
  /** The app's median over the yardstick's (goal ≤ 1.2). */
  ratio: number;
}

export function compare(app: number[], plain: number[]): Comparison {
  const sortedApp = [...app].sort((a, b) => a - b);
  const sortedPlain = [...plain].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 100) / 100;
  const appMedianMs = percentile(sortedApp, 0.5);
  const plainMedianMs = percentile(sortedPlain, 0.5);
  return {
    appMedianMs: round(appMedianMs),
    appP90Ms: round(percentile(sortedApp, 0.9)),
    plainMedianMs: round(plainMedianMs),
    plainP90Ms: round(percentile(sortedPlain, 0.9)),
    ratio: Math.round((appMedianMs / plainMedianMs) * 100) / 100,
  };
}

/** Warm-up rounds, then rounds in turns: the app, then the yardstick. */
async function measure(
  state: KeystrokeAppState['state'],
  app: Page,
  plain: Page,
): Promise<KeystrokeAppState> {
  const appRuns: RunTimes = { frame: [], handled: [], work: [] };
  const plainRuns: RunTimes = { frame: [], handled: [], work: [] };
  for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
    const appRun = await typeRun(app, '[id="first_name-input"]');
    await app.waitForTimeout(SETTLE_MS);
    const plainRun = await typeRun(plain, '#plain');
    if (round < WARM_UP_ROUNDS) continue;
    for (const measure of ['frame', 'handled', 'work'] as const) {
      appRuns[measure].push(...appRun[measure]);
      plainRuns[measure].push(...plainRun[measure]);
    }
  }
  return {
    state,
    keystrokes: appRuns.frame.length,
    frame: compare(appRuns.frame, plainRuns.frame),
    handled: compare(appRuns.handled, plainRuns.handled),
    work: compare(appRuns.work, plainRuns.work),
  };
}

async function openPage(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext();
  // Source text, so it reaches the page as written, without the TypeScript loader's helpers.
  await context.addInitScript(`(${PROBE_SOURCE})()`);
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

export async function benchKeystrokeApp(): Promise<KeystrokeAppResult> {
  buildServer();
  const yardstick = await serveYardstick();
  const mails: string[] = [];
  const smtp = await smtpReceiver((text) => mails.push(text));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-keystroke-app-'));
  const server = await startProductionServer(PORT, {
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    LOG_LEVEL: undefined,
    SMTP_URL: smtp.url,
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const loadBefore = os.loadavg();
  try {
    const states: KeystrokeAppState[] = [];

    const plain = await openPage(browser, yardstick.url);
    await plain.locator('#plain').waitFor();

    const anonymous = await openPage(browser, `${server.base}/about`);
    await anonymous.locator('[id="first_name-input"]').waitFor();
    states.push(await measure('anonymous', anonymous, plain));
    await anonymous.context().close();

    const email = `keystroke.${Date.now()}@example.edu`;
    const signedIn = await openPage(browser, 'about:blank');
    await signIn(signedIn, server.base, email, mails);
    await signedIn.goto(`${server.base}/about`);
    await signedIn.locator('[id="first_name-input"]').waitFor();
    const profileStatus = await signedIn.evaluate(() =>
      fetch('/api/profile').then((response) => response.status),
    );
    if (profileStatus !== 200) throw new Error(`GET /api/profile: ${profileStatus}, not signed in`);
    states.push(await measure('signed in', signedIn, plain));

    return { states, rounds: ROUNDS, text: TEXT, loadBefore, loadAfter: os.loadavg() };
  } finally {
    await browser.close();
    await server.stop();
    await smtp.close();
    await yardstick.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

// `node --import tsx bench/keystroke-app.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchKeystrokeApp(), null, 2));
}
