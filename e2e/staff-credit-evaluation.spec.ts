import { expect, type Page, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { ApplicationListResponse } from '../src/shared/staff/application-list-api';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import {
  CREDIT_CASE_CEEB,
  CREDIT_CASE_COURSEWORK,
  CREDIT_CASE_TABLE,
} from '../src/shared/test/credit-fixtures';
import { equivalencyCsv, importEquivalencies } from './helpers/credit';
import { seedAnswers, signedInAccount } from './helpers/form';
import { expectAxeClean, screenshots, signInAsNewMember } from './helpers/staff';

/**
 * The hand-worked case of credit-routes.test.ts: GPA 3.26; ENGL 1A corrected to C- gives 3.00,
 * and the Golden Four, which asks for a C, is no longer met.
 */
const coursework = CREDIT_CASE_COURSEWORK;
const CEEB = CREDIT_CASE_CEEB;
const table = CREDIT_CASE_TABLE;

const GOLDEN_FOUR = 'Golden Four';

async function transcriptPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  ['Broward College: official transcript', 'Fall 2024', 'ENGL 1A  3  C-'].forEach((line, i) => {
    page.drawText(line, { x: 72, y: 720 - i * 18, size: 14, font });
  });
  return Buffer.from(await doc.save());
}

function row(page: Page, code: string) {
  return page.locator('tbody tr[data-ref]').filter({ hasText: code });
}

test('an evaluator verifies and corrects transfer credit by keyboard beside the transcript', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const run = `credit${Date.now().toString(36)}`;
  await importEquivalencies(browser, equivalencyCsv(CEEB, table));

  const applicant = await browser.newContext();
  const applicantPage = await applicant.newPage();
  await signedInAccount(applicantPage, applicantPage.request, run);
  await seedAnswers(applicantPage, {
    ...validApplicationAnswers(),
    first_name: 'Casey',
    last_name: 'Credit',
    college_ceeb: CEEB,
    college_coursework: JSON.stringify(coursework),
  });
  const submit = await applicantPage.request.post('/api/submit');
  expect(submit.status(), await submit.text()).toBe(200);
  await applicant.close();

  await signInAsNewMember(page, 'evaluator', 'credit-evaluator');
  const list = await page.request.get(`/staff/api/applications?q=${run}`);
  expect(list.status(), await list.text()).toBe(200);
  const [id] = ((await list.json()) as ApplicationListResponse).applications.map(
    (entry) => entry.id,
  );
  expect(id).toBeTruthy();

  // The application's page sums it up and leads to the evaluator's screen.
  await page.goto(`/staff/applications/${id}`);
  const summary = page.getByRole('region', { name: 'Transfer credit' });
  await expect(summary).toContainText('5 of 6 mapped');
  await expect(summary).toContainText('Not released');
  await summary.getByRole('link', { name: 'Evaluate transfer credit' }).click();
  await expect(page).toHaveURL(new RegExp(`/staff/applications/${id}/credit$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Transfer credit' })).toBeVisible();
  await expect(page.getByTestId('credit-gpa')).toHaveText('3.26');
  await expect(page.getByText('5 of 6 mapped')).toBeVisible();

  // No transcript yet: the pane says so and takes the PDF.
  await expect(
    page.getByText('No official transcript is attached for this college.'),
  ).toBeVisible();
  await page.getByLabel('Attach the official transcript (PDF)').setInputFiles({
    name: 'broward-transcript.pdf',
    mimeType: 'application/pdf',
    buffer: await transcriptPdf(),
  });
  await expect(page.getByText('Transcript broward-transcript.pdf attached.')).toBeVisible();
  const frame = page.locator('iframe[title="Transcript from Broward College"]');
  await expect(frame).toBeVisible();
  await expect(frame).toHaveAttribute('src', /^blob:/);

  // Keyboard only: the first row takes the focus as a Tab would, then v verifies and moves on.
  const live = page.locator('[role="status"][aria-live="polite"]');
  await row(page, 'MATH 1A').focus();
  await page.keyboard.press('v');
  await expect(live).toHaveText('MATH 1A verified. 1 of 6 reviewed.');
  await expect(row(page, 'ENGL 1A')).toBeFocused();
  await page.keyboard.press('v');
  await page.keyboard.press('v');
  await page.keyboard.press('v');
  await expect(live).toHaveText('PHIL 10 verified. 4 of 6 reviewed.');
  await expect(row(page, 'ART 5')).toBeFocused();
  await expect(row(page, 'MATH 1A')).toContainText('Verified');

  // Back to ENGL 1A (k, ArrowUp) and correct its grade: c, type, Enter.
  await page.keyboard.press('k');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('k');
  await expect(row(page, 'ENGL 1A')).toBeFocused();
  await page.keyboard.press('c');
  const grade = page.getByLabel('Grade on the transcript');
  await expect(grade).toBeFocused();
  // A reason is required: the browser says so beside the field before anything is sent.
  await page.keyboard.type('c-');
  await page.keyboard.press('Enter');
  const reason = page.getByLabel('Reason (required)');
  await expect(reason).toBeFocused();
  await expect(
    page.getByText('Give the reason for the correction, as the transcript shows it.'),
  ).toBeVisible();
  await page.keyboard.type('Transcript shows C-');
  await page.keyboard.press('Enter');
  await expect(live).toHaveText('ENGL 1A corrected. 4 of 6 reviewed.');
  await expect(row(page, 'ENGL 1A')).toBeFocused();
  await expect(row(page, 'ENGL 1A')).toContainText('C- (entered B)');
  await expect(row(page, 'ENGL 1A')).toContainText('Corrected');
  await expect(page.getByTestId('credit-gpa')).toHaveText('3.00');
  const golden = page.locator('[data-requirement="golden_four"]');
  await expect(golden).toContainText(GOLDEN_FOUR);
  await expect(golden).toContainText('Not met');

  // Escape leaves a correction unsaved and gives the row back its focus; u undoes a review.
  await page.keyboard.press('j');
  await page.keyboard.press('c');
  await expect(grade).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(grade).toHaveCount(0);
  await expect(row(page, 'COMM 1')).toBeFocused();
  await page.keyboard.press('u');
  await expect(live).toHaveText('COMM 1 review undone. 3 of 6 reviewed.');

  await expect(page.getByText('Keyboard shortcuts')).toBeVisible();
  await expectAxeClean(page, 'the evaluator screen');
  await page.setViewportSize({ width: 1280, height: 900 });
  // At a laptop's width the grid and the transcript sit side by side.
  const grid = await page.locator('table').boundingBox();
  const pane = await frame.boundingBox();
  expect(grid && pane && pane.x >= grid.x + grid.width - 1).toBe(true);
  await screenshots(page, 'credit-evaluation');
});

test('a reader sees the evaluation but no actions', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const run = `creditread${Date.now().toString(36)}`;
  const applicant = await browser.newContext();
  const applicantPage = await applicant.newPage();
  await signedInAccount(applicantPage, applicantPage.request, run);
  await seedAnswers(applicantPage, {
    ...validApplicationAnswers(),
    first_name: 'Robin',
    last_name: 'Reader',
    college_ceeb: CEEB,
    college_coursework: JSON.stringify(coursework),
  });
  const submit = await applicantPage.request.post('/api/submit');
  expect(submit.status(), await submit.text()).toBe(200);
  await applicant.close();

  await signInAsNewMember(page, 'reader', 'credit-reader');
  const list = await page.request.get(`/staff/api/applications?q=${run}`);
  const [id] = ((await list.json()) as ApplicationListResponse).applications.map(
    (entry) => entry.id,
  );
  await page.goto(`/staff/applications/${id}/credit`);
  await expect(page.getByRole('heading', { level: 1, name: 'Transfer credit' })).toBeVisible();
  await expect(row(page, 'MATH 1A')).toBeVisible();
  await expect(
    page.getByText('No official transcript is attached for this college.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Verify' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Release credit estimate/ })).toHaveCount(0);
  await expect(page.getByLabel('Attach the official transcript (PDF)')).toHaveCount(0);
  // v does nothing for a reader; j still moves.
  await row(page, 'MATH 1A').focus();
  await page.keyboard.press('v');
  await expect(row(page, 'MATH 1A')).toContainText('Not reviewed');
  await page.keyboard.press('j');
  await expect(row(page, 'ENGL 1A')).toBeFocused();
  await expectAxeClean(page, 'the evaluator screen for a reader');
});
