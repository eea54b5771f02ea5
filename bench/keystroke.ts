// The keystroke benchmark (design.md: "A keystroke in a 150-field page re-renders the changed
// field and its dependents only"): builds bench/keystroke (a page of 150 fields made with the
// form engine and rendered by the real renderer, React's profiling build), opens it in Chromium
// and types into one field, counting field renders with <Profiler> and timing each keystroke
// from keydown to the end of React's commit.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { TYPED_KEY } from './keystroke/bench-page';
import { serveDirectory } from './static-files';

const root = path.resolve(import.meta.dirname, 'keystroke');
// Within the default text limit of 45 characters.
const TEXT = 'Maria Elena Lopez, 3301 College Avenue';

export interface KeystrokeResult {
  /** Fields on the page. */
  fields: number;
  /** Field components rendered per keystroke (1 = only the field typed into). */
  rendersPerKeystroke: number;
  /** Mean time from keydown to the end of React's commit, in ms. */
  msPerKeystroke: number;
  /** Of that, React's rendering work (Profiler actualDuration), in ms. */
  reactRenderMsPerKeystroke: number;
}

export async function benchKeystroke(): Promise<KeystrokeResult> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'bench-keystroke-'));
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    // The profiling build of React DOM keeps <Profiler> timings in a production bundle.
    resolve: { alias: [{ find: /^react-dom\/client$/, replacement: 'react-dom/profiling' }] },
    build: { outDir, emptyOutDir: true },
  });

  const server = await serveDirectory(outDir);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => window.__bench?.ready === true);
    const fields = await page.locator('input, textarea, select').evaluateAll((controls) => {
      const keys = new Set<string>();
      for (const control of controls) {
        const wrapper = control.closest('[id]:not(input):not(textarea):not(select)');
        if (wrapper) keys.add(wrapper.id);
      }
      return keys.size;
    });
    const input = page.locator(`[id="${TYPED_KEY}-input"]`);
    await input.focus();
    // Warm up: the first keystrokes compile and settle; they are not counted.
    await input.pressSequentially('ab');
    await input.fill('');
    await page.evaluate(() => {
      window.__bench.fieldRenders = 0;
      window.__bench.renderMs = 0;
    });

    const times: number[] = [];
    for (const character of TEXT) {
      await page.keyboard.type(character);
      const elapsed = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            // After the next frame the commit of this keystroke has run.
            requestAnimationFrame(() =>
              resolve(window.__bench.lastCommitEnd - window.__bench.keydownAt),
            );
          }),
      );
      times.push(elapsed);
    }
    const { fieldRenders: renders, renderMs } = await page.evaluate(() => window.__bench);
    const typed = await input.inputValue();
    if (typed !== TEXT) throw new Error(`typed "${typed}", expected "${TEXT}"`);
    const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
    return {
      fields,
      rendersPerKeystroke: renders / TEXT.length,
      msPerKeystroke: Math.round(mean * 1000) / 1000,
      reactRenderMsPerKeystroke: Math.round((renderMs / TEXT.length) * 1000) / 1000,
    };
  } finally {
    await browser.close();
    await server.close();
    await rm(outDir, { recursive: true, force: true });
  }
}

// `node --import tsx bench/keystroke.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchKeystroke());
}
