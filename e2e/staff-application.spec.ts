import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type Browser, expect, test } from '@playwright/test';
import { makePng } from '../src/server/test/sample-files';
import { SERVICE_PDF_PREPARING_MESSAGE } from '../src/shared/api/service';
import type { ApplicationListResponse } from '../src/shared/staff/application-list-api';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { attachDocument } from './helpers/documents';
import { seedAnswers, signedInAccount } from './helpers/form';
import { expectAxeClean, screenshots, signInAsNewMember } from './helpers/staff';

const TRANSCRIPT_KEY = 'hs_transcript';

/** A submitted application of its own browser, with a converted transcript. */
async function submittedApplication(
  browser: Browser,
  tag: string,
  firstName: string,
): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = await signedInAccount(page, page.request, tag);
  await seedAnswers(page, {
    ...validApplicationAnswers(),
    first_name: firstName,
    last_name: 'Queue',
  });
  await attachDocument(page, TRANSCRIPT_KEY, {
    name: 'transcript.png',
    mimeType: 'image/png',
    bytes: makePng({ width: 60, height: 40 }),
  });
  const submitted = await page.request.post('/api/submit');
  expect(submitted.status(), await submitted.text()).toBe(200);
  await context.close();
  return email;
}

test('a reader works through a queue of applications on their own page', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  // A search only these three match, sorted by address: Ana, Ben, then Cleo.
  const run = `queue${Date.now().toString(36)}`;
  const names = ['Ana', 'Ben', 'Cleo'];
  for (const [index, name] of names.entries()) {
    await submittedApplication(browser, `${run}${index + 1}`, name);
  }

  await signInAsNewMember(page, 'reader', 'app-reader');
  const listQuery = `q=${run}&sort=email&direction=asc`;
  const list = await page.request.get(`/staff/api/applications?${listQuery}`);
  expect(list.status(), await list.text()).toBe(200);
  const ids = ((await list.json()) as ApplicationListResponse).applications.map((row) => row.id);
  expect(ids).toHaveLength(3);

  await page.goto(`/staff/applications/${ids[0]}?${listQuery}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Ana Queue' })).toBeVisible();
  await expect(page).toHaveTitle(/^Ana Queue \| Application \| /);
  await expect(page.getByRole('main')).toContainText('Submitted');

  // The queue: first of three, no previous, the next a link with its key.
  const queue = page.getByRole('navigation', { name: 'Applications in the list' });
  await expect(queue).toContainText('1 of 3');
  await expect(queue.getByRole('link', { name: 'Previous' })).toHaveCount(0);
  await expect(queue.getByRole('link', { name: 'Next' })).toHaveAttribute('aria-keyshortcuts', 'J');
  await expect(queue.getByRole('link', { name: 'Back to the list' })).toHaveAttribute(
    'href',
    `/staff?${listQuery}`,
  );

  // The read view: the staff link's projection under the page's own heading.
  await expect(page.getByRole('heading', { level: 2, name: 'Answers' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'About You' })).toBeVisible();
  await expect(page.locator('[data-key="first_name"]')).toContainText('Ana');
  // The answers are text, not fields (the page's own fields, such as a new note, stand apart).
  await expect(page.getByRole('article', { name: 'Answers' }).getByRole('textbox')).toHaveCount(0);

  // A document: viewed inline in a new tab, or downloaded.
  const transcript = page.locator(`[data-key="${TRANSCRIPT_KEY}"]`);
  const view = transcript.getByRole('link', { name: /^View / });
  await expect(view).toHaveAttribute('target', '_blank');
  const inline = await page.request.get((await view.getAttribute('href')) as string);
  expect(inline.status()).toBe(200);
  expect(inline.headers()['content-type']).toBe('application/pdf');
  expect(inline.headers()['content-disposition']).toMatch(/^inline/);
  const saved = await page.request.get(
    (await transcript.getByRole('link', { name: /^Download / }).getAttribute('href')) as string,
  );
  expect(saved.headers()['content-disposition']).toMatch(/^attachment/);

  // The document pane beside the answers has read the application PDF before the download below.
  await expect(
    page.getByRole('region', { name: 'Documents' }).locator('iframe[title="Application PDF"]'),
  ).toHaveAttribute('src', /^blob:/, { timeout: 30_000 });

  // The application PDF: while it is being made the page says so and asks again by itself.
  let refused = false;
  await page.route('**/staff/api/applications/*/pdf', async (route) => {
    if (refused) return route.continue();
    refused = true;
    await route.fulfill({
      status: 503,
      headers: { 'retry-after': '1' },
      contentType: 'application/json',
      body: JSON.stringify({ message: SERVICE_PDF_PREPARING_MESSAGE }),
    });
  });
  const pdfButton = page.getByRole('button', { name: /Download application PDF|Preparing/ });
  await expect(pdfButton).toHaveAttribute('aria-keyshortcuts', 'O');
  const downloading = page.waitForEvent('download', { timeout: 60_000 });
  await pdfButton.click();
  await expect(page.getByRole('status').filter({ hasText: 'still being prepared' })).toBeVisible();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const bytes = await readFile((await download.path()) as string);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await expect(page.getByRole('status').filter({ hasText: 'is downloading' })).toBeVisible();
  await page.unroute('**/staff/api/applications/*/pdf');

  // The checklist: the transcript came from the applicant; the fee is marked by the reader.
  const checklist = page.getByRole('region', { name: 'Checklist' });
  const transcriptItem = checklist.getByRole('listitem').filter({ hasText: 'By the applicant' });
  await expect(transcriptItem.first()).toContainText('Received');
  const fee = checklist.getByRole('group', { name: 'Application fee' });
  await expect(fee.getByRole('button', { name: 'Awaiting' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await fee.getByRole('button', { name: 'Received' }).click();
  await expect(checklist.getByRole('status')).toHaveText('Marked Application fee received.');
  await expect(fee.getByRole('button', { name: 'Received' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const feeItem = checklist
    .getByRole('listitem')
    .filter({ has: page.getByRole('group', { name: 'Application fee' }) });
  await expect(feeItem).toContainText(/By .+, \w{3} \d{1,2}, \d{4}/);

  // The history: this reading, the PDF and the mark, newest first.
  const history = page.getByRole('region', { name: 'History' });
  await expect(history).toContainText('Marked Application fee received');
  await expect(history).toContainText('Downloaded the application PDF');
  await expect(history).toContainText('Opened the application in the console');

  // The keys are listed on the page.
  await page.getByText('Keyboard shortcuts', { exact: true }).click();
  await expect(page.getByRole('definition').filter({ hasText: 'Next application' })).toBeVisible();

  await expectAxeClean(page, 'an application in the console');
  await screenshots(page, 'application');

  // On to the next application with the keyboard: its heading takes the focus.
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`/staff/applications/${ids[1]}\\?${listQuery}$`));
  const next = page.getByRole('heading', { level: 1, name: 'Ben Queue' });
  await expect(next).toBeFocused();
  await expect(queue).toContainText('2 of 3');
  await expect(page.getByRole('region', { name: 'History' })).toContainText(
    'Opened the application in the console',
  );
  await expect(page.locator('[data-key="first_name"]')).toContainText('Ben');

  // And back: the previous key, then the last one, where Next is no longer a link.
  await page.keyboard.press('k');
  await expect(page.getByRole('heading', { level: 1, name: 'Ana Queue' })).toBeFocused();
  await page.goto(`/staff/applications/${ids[2]}?${listQuery}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Cleo Queue' })).toBeVisible();
  await expect(queue).toContainText('3 of 3');
  await expect(queue.getByRole('link', { name: 'Next' })).toHaveCount(0);
  await page.keyboard.press('j');
  await expect(queue.getByRole('status')).toHaveText('This is the last application in the list.');
  await expect(page).toHaveURL(new RegExp(`/staff/applications/${ids[2]}`));
  await expectAxeClean(page, 'the last application of the list');

  // The letters can be turned off (WCAG 2.1.4), and stay off in this browser.
  await page.getByText('Keyboard shortcuts', { exact: true }).click();
  await page.getByLabel('Use these keyboard shortcuts').uncheck();
  await expect(queue.getByRole('link', { name: 'Previous' })).not.toHaveAttribute(
    'aria-keyshortcuts',
  );
  const keyTaken = () =>
    page.evaluate(
      () =>
        !document.body.dispatchEvent(
          new KeyboardEvent('keydown', { key: 'k', bubbles: true, cancelable: true }),
        ),
    );
  expect(await keyTaken()).toBe(false);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Cleo Queue' })).toBeVisible();
  await page.getByText('Keyboard shortcuts', { exact: true }).click();
  await expect(page.getByLabel('Use these keyboard shortcuts')).not.toBeChecked();
  await page.getByLabel('Use these keyboard shortcuts').check();
  await expect(queue.getByRole('link', { name: 'Previous' })).toHaveAttribute(
    'aria-keyshortcuts',
    'K',
  );
});

test('at 1280 by 800 the answers, their summary and the PDF are read side by side', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const run = `pane${Date.now().toString(36)}`;
  await submittedApplication(browser, run, 'Dora');
  await signInAsNewMember(page, 'reader', 'pane-reader');
  const list = await page.request.get(`/staff/api/applications?q=${run}`);
  expect(list.status(), await list.text()).toBe(200);
  const [id] = ((await list.json()) as ApplicationListResponse).applications.map((row) => row.id);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/staff/applications/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Dora Queue' })).toBeVisible();

  // The summary band, within the first screen: program, term, checklist and documents.
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary).toBeInViewport({ ratio: 1 });
  await expect(summary.getByRole('term')).toContainText([
    'Program',
    'Entry term',
    'Checklist',
    'Documents',
  ]);
  await expect(summary).toContainText(/\d+ of \d+ received/);
  await expect(
    summary.getByRole('definition').filter({ hasText: /^Application fee$/ }),
  ).toBeVisible();
  await expect(summary.getByRole('definition').last()).toHaveText('1');

  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/staff-application-reading-1280-first.png' });

  // The answers start in the first screen too, and show answered questions only.
  await expect(page.getByRole('heading', { level: 2, name: 'Answers' })).toBeInViewport();
  await expect(page.locator('[data-key="first_name"]')).toContainText('Dora');
  await expect(page.locator('[data-key="suffix"]')).toHaveCount(0);
  await expect(page.locator('[data-key="race_asian"]')).toHaveCount(0);
  await expect(page.locator('[data-key="race_white"]')).toHaveCount(1);

  // The document pane, to the right of the answers, shows the application PDF in the page.
  const pane = page.getByRole('region', { name: 'Documents' });
  const frame = pane.locator('iframe');
  await expect(frame).toHaveAttribute('title', 'Application PDF');
  await expect(frame).toHaveAttribute('src', /^blob:/, { timeout: 30_000 });
  const answersBox = await page.getByRole('heading', { level: 2, name: 'Answers' }).boundingBox();
  const paneBox = await pane.boundingBox();
  expect(paneBox && answersBox && paneBox.x > answersBox.x + answersBox.width / 2).toBe(true);
  expect(paneBox && paneBox.height > 600).toBe(true);
  // It stays in view while the answers scroll.
  await page.getByRole('region', { name: 'History' }).scrollIntoViewIfNeeded();
  await expect(pane).toBeInViewport({ ratio: 0.9 });

  // One of the documents instead; the PDF action is still there for a download.
  const choice = pane.getByLabel('Show');
  await expect(choice.locator('option')).toHaveCount(2);
  const documentLabel = (await choice.locator('option').nth(1).textContent()) ?? '';
  await choice.selectOption({ index: 1 });
  await expect(frame).toHaveAttribute('title', documentLabel);
  await expect(frame).toHaveAttribute('src', /^blob:/, { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Download application PDF' })).toBeVisible();
  await expectAxeClean(page, 'an application read in two panes');

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'test-results/staff-application-reading-1280.png' });

  // On a phone: no pane, the band wraps, the page never scrolls sideways.
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(pane).toHaveCount(0);
  await expect(summary).toBeVisible();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await summary.evaluate((element) => element.scrollIntoView());
  await page.screenshot({ path: 'test-results/staff-application-reading-360.png' });
  await page.screenshot({
    path: 'test-results/staff-application-reading-360-full.png',
    fullPage: true,
  });
});
