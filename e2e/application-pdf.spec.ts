import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { extractPdfText } from '../src/server/test/pdf-text';
import { makePdf } from '../src/server/test/sample-files';
import { SUBMITTED_MESSAGE } from '../src/shared/api/application-messages';
import { APPLICATION_PDF_FAILED_MESSAGE } from '../src/shared/api/application-pdf';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { attachDocument } from './helpers/documents';
import { expectNoAxeViolations, fieldOf, seedAnswers, signedInAccount } from './helpers/form';

const SHOTS = '/tmp/shots-pdf';

/** Answers GET /api/pdf with a fixed status, counting the calls, until unrouted. */
async function fixPdfStatus(page: Page, body: object): Promise<{ calls: number }> {
  const counter = { calls: 0 };
  await page.route('**/api/pdf', (route) => {
    counter.calls++;
    return route.fulfill({ status: 200, contentType: 'application/json', json: body });
  });
  return counter;
}

test('the completion page offers the whole application as one PDF', async ({ page, request }) => {
  mkdirSync(SHOTS, { recursive: true });
  const email = await signedInAccount(page, request, 'pdf');
  const answers = { ...validApplicationAnswers() };
  delete answers.legal_agree;
  await seedAnswers(page, answers);
  await attachDocument(page, 'hs_transcript', {
    name: 'transcript.pdf',
    mimeType: 'application/pdf',
    bytes: await makePdf([['Plantation High School transcript of records']]),
  });

  // While the server is still making it, the page says so and asks again every second.
  const preparing = await fixPdfStatus(page, { status: 'IN_PROGRESS', url: null, message: null });

  // The last answer through the page, then submit as an applicant does.
  await page.goto('/final-steps');
  await fieldOf(page, 'legal_agree').getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/completion$/);
  await expect(page.getByText(SUBMITTED_MESSAGE)).toBeVisible();

  const section = page.getByRole('region', { name: 'Your application as a PDF' });
  await expect(section.getByRole('status')).toContainText('Preparing a PDF of your application');
  await expect.poll(() => preparing.calls, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
  await expectNoAxeViolations(page, '/completion while the PDF is being made');
  await page.screenshot({ path: `${SHOTS}/completion-preparing-1280.png`, fullPage: true });
  await page.unroute('**/api/pdf');

  const download = section.getByRole('link', { name: 'Download your application (PDF)' });
  await expect(download).toBeVisible({ timeout: 30_000 });
  await expect(section.getByRole('status')).toContainText('in one file');
  await expectNoAxeViolations(page, '/completion with the PDF ready');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/completion-${width}.png`, fullPage: true });
  }

  // Reachable and usable from the keyboard.
  await download.focus();
  await expect(download).toBeFocused();
  const [file] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(file.suggestedFilename()).toBe('transfer-application-Maria-Lopez.pdf');
  const bytes = new Uint8Array(readFileSync(await file.path()));
  expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  const text = await extractPdfText(bytes);
  expect(text).toContain('Transfer application');
  expect(text).toContain(email);
  expect(text).toContain('Final Steps');
  expect(text).toContain('[X] I certify that the information in my application is complete');
  expect(text).toContain('Plantation High School transcript of records');

  // A failed PDF is an alert, announced, and offers no download.
  const failed = await fixPdfStatus(page, {
    status: 'FAILED',
    url: null,
    message: APPLICATION_PDF_FAILED_MESSAGE,
  });
  await page.reload();
  await expect(page.getByRole('alert')).toHaveText(APPLICATION_PDF_FAILED_MESSAGE);
  await expect(download).toHaveCount(0);
  expect(failed.calls).toBeGreaterThanOrEqual(1);
  await expectNoAxeViolations(page, '/completion with a failed PDF');
  await page.screenshot({ path: `${SHOTS}/completion-failed-1280.png`, fullPage: true });
});
