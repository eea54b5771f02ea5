import { mkdir } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { makePng } from '../src/server/test/sample-files';
import { SUBMITTED_MESSAGE } from '../src/shared/api/application-messages';
import type { ApplicationListResponse } from '../src/shared/staff/application-list-api';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { expectNoAxeViolations, seedAnswers, signedInAccount } from './helpers/form';
import { signInAsNewMember } from './helpers/staff';

const SHOTS = '/tmp/shots-status';
const TRANSCRIPT_KEY = 'hs_transcript';
const TRANSCRIPT_LABEL = 'Unofficial high school transcript';

function itemOf(page: Page, key: string) {
  return page.locator(`li[data-key="${key}"]`);
}

async function shoot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    // Nothing may scroll sideways at either width.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `sideways scroll at ${width}px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

test('a submitted applicant follows their checklist, sends a missing document and sees staff marks', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const email = await signedInAccount(page, page.request, 'status');
  // No transcript: it is the document the status page still awaits.
  await seedAnswers(page, validApplicationAnswers());
  const submitted = await page.request.post('/api/submit');
  expect(submitted.status(), await submitted.text()).toBe(200);

  await page.goto('/completion');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Application Submitted' }),
  ).toBeVisible();
  await expect(page.getByText(SUBMITTED_MESSAGE, { exact: true })).toBeVisible();

  // The receipt, to read aloud on the phone.
  await expect(page.getByRole('heading', { level: 2, name: 'Your receipt' })).toBeVisible();
  const number = (await page.getByTestId('confirmation-number').textContent()) ?? '';
  expect(number).toMatch(/^[A-Z]{2,6}-[A-Z0-9]+-\d{6}$/);

  // The checklist: each state in words, and what to do about each missing item.
  await expect(page.getByRole('heading', { level: 2, name: 'What we still need' })).toBeVisible();
  const fee = itemOf(page, 'fee');
  await expect(fee).toContainText('Awaiting');
  await expect(fee).toContainText('Pay the application fee at https://');
  const transcript = itemOf(page, `document:${TRANSCRIPT_KEY}`);
  await expect(transcript).toContainText('Awaiting');
  await expectNoAxeViolations(page, 'the status page with missing items');
  await shoot(page, 'awaiting');

  // A document still awaited goes through the form's upload and conversion.
  await transcript.locator('input[type="file"]').setInputFiles({
    name: 'transcript.png',
    mimeType: 'image/png',
    buffer: Buffer.from(makePng({ width: 60, height: 40 })),
  });
  await expect(transcript).toContainText('Received', { timeout: 30_000 });
  await expect(transcript.locator('input[type="file"]')).toHaveCount(0);
  await expect(
    page.getByRole('status').filter({ hasText: `${TRANSCRIPT_LABEL}: Received.` }),
  ).toHaveCount(1);

  // Staff mark the fee received in the console, in a browser of their own.
  const staffContext = await browser.newContext();
  const staffPage = await staffContext.newPage();
  await signInAsNewMember(staffPage, 'reader', 'status-reader');
  const list = await staffPage.request.get(
    `/staff/api/applications?q=${encodeURIComponent(email)}`,
  );
  expect(list.status(), await list.text()).toBe(200);
  const [row] = ((await list.json()) as ApplicationListResponse).applications;
  expect(row).toBeDefined();
  const marked = await staffPage.request.put(`/staff/api/applications/${row?.id}/checklist/fee`, {
    data: { state: 'received' },
  });
  expect(marked.status(), await marked.text()).toBe(200);
  await staffContext.close();

  await page.reload();
  await expect(itemOf(page, 'fee')).toContainText('Received');
  await expect(itemOf(page, 'fee')).not.toContainText('Pay the application fee');
  await expectNoAxeViolations(page, 'the status page after staff marks');
  await shoot(page, 'received');
});
