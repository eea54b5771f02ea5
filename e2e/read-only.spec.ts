import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { makePng } from '../src/server/test/sample-files';
import { SERVICE_LINK_REFUSED_MESSAGE } from '../src/shared/api/service';
import {
  TEMPORARY_ANSWERS_FAILED_TITLE,
  TEMPORARY_ANSWERS_LOADED_TITLE,
  TEMPORARY_ANSWERS_UNKNOWN_MESSAGE,
} from '../src/shared/api/temporary-answers';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { ANONYMOUS_ANSWERS_KEY } from '../src/web/app-state/local-copy';
import { toasts } from './helpers/accounts';
import { devToolsPath } from './helpers/dev-tools';
import { attachDocument } from './helpers/documents';
import { expectNoAxeViolations, fieldOf, seedAnswers, signedInAccount } from './helpers/form';

const SHOTS = '/tmp/shots-readonly';
const TRANSCRIPT_KEY = 'hs_transcript';

/**
 * The e2e server holds its embedded database, so the link commands run through its test-only
 * twins (POST /test/..., NODE_ENV=test and this machine only), which call the same functions.
 */
async function mint(request: APIRequestContext, path: string, data: object): Promise<string> {
  const response = await request.post(devToolsPath(path), { data });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** Uploads a transcript through the documents API and waits for its conversion. */
function uploadTranscript(page: Page): Promise<void> {
  return attachDocument(page, TRANSCRIPT_KEY, {
    name: 'transcript.png',
    mimeType: 'image/png',
    bytes: makePng({ width: 60, height: 40 }),
  });
}

/** A row of the read-only view by its answer key. */
function row(page: Page, key: string): Locator {
  return page.locator(`[data-key="${key}"]`);
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('a staff link opens the read-only view of a submitted application', async ({
  page,
  request,
  browser,
}) => {
  const email = await signedInAccount(page, request, 'readonly');
  await seedAnswers(page, validApplicationAnswers());
  await uploadTranscript(page);
  const submitted = await page.request.post('/api/submit');
  expect(submitted.status(), await submitted.text()).toBe(200);
  const token = await mint(request, '/test/service-token', { email });

  // Staff open the link in a browser of their own: no session, no cookies.
  const staff = await browser.newContext();
  const view = await staff.newPage();
  await view.goto(`/about?service_token=${token}`);
  await expect(view.getByRole('heading', { level: 1 })).toHaveText('Application of Maria Lopez');
  for (const title of ['About You', 'Your Academics', 'Final Steps']) {
    await expect(view.getByRole('heading', { level: 2, name: title })).toBeVisible();
  }

  // Inputs as plain text, selects as their label, checkboxes and radio groups as marks.
  await expect(row(view, 'first_name')).toContainText('Maria');
  await expect(view.getByRole('textbox')).toHaveCount(0);
  await expect(row(view, 'gender')).toContainText('Female');
  await expect(row(view, 'race_white')).toContainText('[X]');
  await expect(row(view, 'race_white')).toContainText('White');
  await expect(row(view, 'race_asian')).toContainText('[ ]');
  await expect(row(view, 'optin_sms_ind')).toContainText('[X]');
  await expect(row(view, 'mailing_addr_same_as_perm_addr')).toContainText('(X) Yes');
  await expect(row(view, 'mailing_addr_same_as_perm_addr')).toContainText('( ) No');
  await expect(row(view, 'legal_agree')).toContainText('[X]');
  await expect(view.getByRole('checkbox')).toHaveCount(0);
  await expect(view.getByRole('radio')).toHaveCount(0);

  // The document: 'Document attached', linking to its converted PDF through the same token.
  const attached = row(view, TRANSCRIPT_KEY).getByRole('link', { name: 'Document attached' });
  await expect(attached).toBeVisible();
  const pdf = await staff.request.get((await attached.getAttribute('href')) as string);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect(pdf.headers()['content-disposition']).toContain('attachment');

  // The whole application as one PDF, with the same token.
  const downloading = view.waitForEvent('download');
  await view.getByRole('link', { name: 'Download the application as one PDF' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const bytes = await readFile((await download.path()) as string);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

  // No chrome: no step navigation, account popover, banners, footer or buttons.
  await expect(view.getByRole('navigation')).toHaveCount(0);
  await expect(view.getByRole('button')).toHaveCount(0);
  await expect(view.getByRole('contentinfo')).toHaveCount(0);
  await expect(view.getByRole('region', { name: 'Application messages' })).toHaveCount(0);
  await expect(view).toHaveTitle(/Application of Maria Lopez \(read-only\)/);

  await expectNoAxeViolations(view, 'the read-only view');
  await shot(view, 'read-only');
  await view.emulateMedia({ media: 'print' });
  await view.screenshot({ path: `${SHOTS}/read-only-print.png`, fullPage: true });
  await view.pdf({ path: `${SHOTS}/read-only.pdf`, format: 'Letter' });

  // The token reads; it writes nothing and opens nothing else.
  const write = await staff.request.put(`/api/answer?service_token=${token}`, {
    data: { first_name: 'Changed' },
  });
  expect(write.status()).toBe(401);
  const post = await staff.request.post(`/service/tmp-pdf?service_token=${token}`, { data: {} });
  expect(post.status()).toBe(405);
  await staff.close();
});

test('a link that is not valid says so and shows nothing', async ({ page }) => {
  await page.goto('/education?service_token=not-a-real-token');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link cannot be opened');
  await expect(page.getByText(SERVICE_LINK_REFUSED_MESSAGE)).toBeVisible();
  await expect(page.getByRole('navigation')).toHaveCount(0);
  await expect(page).toHaveURL(/\/education\?service_token=/);
  await expectNoAxeViolations(page, 'the refused staff link');
});

test('a prefilled answers link fills an anonymous visitor’s blanks and leaves the address', async ({
  page,
  request,
}) => {
  const token = await mint(request, '/test/temporary-answers', {
    answers: { first_name: 'Prefilled', last_name: 'Lopez', gender: 'F', optin_sms_ind: true },
    label: 'Counselor draft',
  });
  // Something the visitor typed before opening the link is kept.
  await page.goto('/about');
  await fieldOf(page, 'last_name').getByRole('textbox').fill('Mine');

  await page.goto(`/about?token=${token}`);
  await expect(page).toHaveURL(/\/about$/);
  await expect(toasts(page).getByText(TEMPORARY_ANSWERS_LOADED_TITLE)).toBeVisible();
  await expect(
    toasts(page).getByText(/3 answers were filled in from “Counselor draft”/),
  ).toBeVisible();
  await expect(fieldOf(page, 'first_name').getByRole('textbox')).toHaveValue('Prefilled');
  await expect(fieldOf(page, 'last_name').getByRole('textbox')).toHaveValue('Mine');
  await expect(fieldOf(page, 'gender').getByRole('combobox')).toHaveValue('F');
  await expect(fieldOf(page, 'optin_sms_ind').getByRole('checkbox')).toBeChecked();
  // The device's copy is written after the fields show the answers: poll for it.
  await expect
    .poll(async () =>
      JSON.parse(
        (await page.evaluate((key) => localStorage.getItem(key), ANONYMOUS_ANSWERS_KEY)) ?? '{}',
      ),
    )
    .toMatchObject({
      first_name: 'Prefilled',
      last_name: 'Mine',
      gender: 'F',
      gender_desc: 'Female',
      optin_sms_ind: true,
    });
  await expectNoAxeViolations(page, 'the form after loading prefilled answers');
  await shot(page, 'prefilled');
});

test('an unknown prefilled answers link says so and loads nothing', async ({ page }) => {
  await page.goto('/education?token=never-issued');
  await expect(page).toHaveURL(/\/education$/);
  await expect(toasts(page).getByText(TEMPORARY_ANSWERS_FAILED_TITLE)).toBeVisible();
  await expect(toasts(page).getByText(TEMPORARY_ANSWERS_UNKNOWN_MESSAGE)).toBeVisible();
  const stored = await page.evaluate((key) => localStorage.getItem(key), ANONYMOUS_ANSWERS_KEY);
  expect(stored).toBeNull();
  await shot(page, 'prefill-unknown');
});
