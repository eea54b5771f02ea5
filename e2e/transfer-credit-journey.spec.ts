import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { CREDIT_ESTIMATE_PDF_URL, ESTIMATE_NOTICE } from '../src/shared/credit/credit-api';
import type { ApplicationListResponse } from '../src/shared/staff/application-list-api';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { typeRow } from './helpers/coursework';
import {
  expectNoAxeViolations,
  expectSaved,
  fieldOf,
  seedAnswers,
  signedInAccount,
} from './helpers/form';
import { expectAxeClean, signInAsNewMember } from './helpers/staff';

/*
 * Issue 28 end to end: an administrator imports De Anza College's equivalency table (the sample
 * the project ships); an applicant enters quarter courses at De Anza and submits; an evaluator
 * verifies and corrects rows beside the transcript by keyboard, the Golden Four turns from not
 * met to met, and the estimate is released; the applicant opens it from the status page.
 */

const SAMPLE = path.resolve(
  import.meta.dirname,
  '..',
  'docs',
  'examples',
  'equivalencies-sample.csv',
);
/** A fall that has ended whenever the test runs. */
const year = new Date().getFullYear() - 1;

function row(grid: Locator, name: RegExp): Locator {
  return grid.getByRole('group', { name });
}

function courseRow(page: Page, code: string): Locator {
  return page.locator('tbody tr[data-ref]').filter({ hasText: code });
}

async function transcriptPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  ['De Anza College: official transcript', `Fall ${year}`, 'MATH 10  5  C'].forEach((line, i) => {
    page.drawText(line, { x: 72, y: 720 - i * 18, size: 14, font });
  });
  return Buffer.from(await doc.save());
}

test('a table imported, courses entered, evaluated by keyboard, and the estimate opened', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);

  // The administrator imports the shipped sample: De Anza College (CEEB 4286).
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAsNewMember(admin, 'admin', 'journey-tables');
  await admin.goto('/staff/equivalencies');
  await admin.getByLabel('Equivalency table (CSV)').setInputFiles(SAMPLE);
  await admin.getByRole('button', { name: 'Check file' }).click();
  await expect(admin.getByRole('heading', { name: 'The file is ready to import' })).toBeFocused();
  await admin.getByRole('button', { name: 'Import' }).click();
  await expect(admin.getByRole('heading', { name: 'Imported' })).toBeFocused();
  const tables = admin.getByRole('table', { name: 'Equivalency tables by sending college' });
  await expect(tables.getByRole('row').filter({ hasText: '4286' })).toContainText(
    'De Anza College',
  );
  await adminContext.close();

  // The applicant: De Anza is named; its quarter courses are typed into the grid.
  const family = `Journey${Date.now().toString(36)}`;
  const email = await signedInAccount(page, page.request, 'credit-journey');
  await seedAnswers(page, {
    ...validApplicationAnswers(),
    first_name: 'Dana',
    last_name: family,
    college_name: 'De Anza College',
    college_ceeb: '4286',
    college_city: 'Cupertino',
    college_state: 'CA',
    college_state_desc: 'California',
  });
  await page.goto('/education');
  const grid = fieldOf(page, 'college_coursework');
  await expect(grid).toBeVisible();
  await grid.getByRole('radio', { name: 'Quarter' }).check();
  const controls = grid.getByRole('group', { name: 'Add a term' });
  await controls.getByLabel('Season').selectOption('fall');
  await controls.getByLabel('Year').selectOption(String(year));
  await controls.getByLabel('Status').selectOption('completed');
  await controls.getByRole('button', { name: 'Add term' }).click();
  await expect(
    row(grid, new RegExp(`^Fall ${year}, course 1$`)).getByLabel('Subject'),
  ).toBeFocused();
  await typeRow(page, ['ENGL', '1A', 'Composition and Reading', '5', 'A']);
  await typeRow(page, ['COMM', '1', 'Public Speaking', '5', 'B']);
  await typeRow(page, ['PHIL', '7', 'Critical Thinking', '5', 'B+']);
  // The applicant misread the transcript: C- where it says C.
  await typeRow(page, ['MATH', '10', 'Elementary Statistics', '5', 'C-']);
  await typeRow(page, ['ART', '2A', 'Drawing', '4', 'A']);
  await row(grid, new RegExp(`^Fall ${year}, course 6$`))
    .getByRole('button', { name: /^Remove/ })
    .click();
  await expectSaved(page);
  const submitted = await page.request.post('/api/submit');
  expect(submitted.status(), await submitted.text()).toBe(200);

  // The evaluator finds it among the applications needing review and opens the screen.
  const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const staff = await staffContext.newPage();
  await signInAsNewMember(staff, 'evaluator', 'journey-evaluator');
  const listed = await staff.request.get(
    `/staff/api/applications?credit=needs_review&q=${encodeURIComponent(email)}`,
  );
  expect(listed.status(), await listed.text()).toBe(200);
  const [id] = ((await listed.json()) as ApplicationListResponse).applications.map(
    (entry) => entry.id,
  );
  expect(id).toBeTruthy();
  await staff.goto(`/staff/applications/${id}`);
  await staff.getByRole('link', { name: 'Evaluate transfer credit' }).click();
  await expect(staff).toHaveURL(new RegExp(`/staff/applications/${id}/credit$`));
  await staff.getByLabel('Attach the official transcript (PDF)').setInputFiles({
    name: 'de-anza.pdf',
    mimeType: 'application/pdf',
    buffer: await transcriptPdf(),
  });
  await expect(staff.locator('iframe[title="Transcript from De Anza College"]')).toHaveAttribute(
    'src',
    /^blob:/,
  );
  const golden = staff.locator('[data-requirement="golden_four"]');
  await expect(golden).toContainText('Not met');
  await expect(golden).toContainText('Missing GE-B4');
  await expect(courseRow(staff, 'ART 2A')).toContainText('Needs review');

  // By keyboard: verify three rows, correct MATH 10's grade, map ART 2A by hand.
  const live = staff.locator('[role="status"][aria-live="polite"]');
  await courseRow(staff, 'ENGL 1A').focus();
  await staff.keyboard.press('v');
  await staff.keyboard.press('v');
  await staff.keyboard.press('v');
  await expect(live).toHaveText('PHIL 7 verified. 3 of 5 reviewed.');
  await expect(courseRow(staff, 'MATH 10')).toBeFocused();
  await staff.keyboard.press('c');
  await expect(staff.getByLabel('Grade on the transcript')).toBeFocused();
  await staff.keyboard.type('C');
  await staff.getByLabel('Reason (required)').focus();
  await staff.keyboard.type('Transcript shows C');
  await staff.keyboard.press('Enter');
  await expect(live).toHaveText('MATH 10 corrected. 4 of 5 reviewed.');
  await expect(golden).toContainText('Met');
  await expect(golden).not.toContainText('Not met');

  await staff.keyboard.press('j');
  await expect(courseRow(staff, 'ART 2A')).toBeFocused();
  await staff.keyboard.press('c');
  await staff.getByLabel('Mapping').selectOption('elective');
  await staff.getByLabel('Local course').fill('ART 1XX');
  await staff.getByLabel('Local units').fill('3');
  await staff.getByLabel('Reason (required)').fill('Studio art elective, as for other colleges');
  await staff.getByLabel('Reason (required)').press('Enter');
  await expect(live).toHaveText('ART 2A corrected. 5 of 5 reviewed.');
  await expect(staff.getByText('5 of 5 mapped')).toBeVisible();
  await expectAxeClean(staff, 'the evaluator screen after the review');

  await staff.getByRole('button', { name: 'Release credit estimate' }).click();
  await staff
    .getByRole('dialog', { name: 'Release the credit estimate?' })
    .getByRole('button', { name: 'Release credit estimate' })
    .click();
  await expect(staff.getByText(/^Estimate released on /)).toBeVisible();
  await staffContext.close();

  // The applicant opens it from the status page.
  await page.goto('/completion');
  const estimate = page.getByRole('region', { name: 'Transfer credit estimate' });
  await expect(estimate).toContainText(ESTIMATE_NOTICE);
  await expect(estimate).toContainText('Golden Four');
  const link = estimate.getByRole('link', { name: 'Open your credit estimate (PDF)' });
  await expect(link).toHaveAttribute('href', CREDIT_ESTIMATE_PDF_URL);
  const pdf = await page.request.get(CREDIT_ESTIMATE_PDF_URL);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  await expectNoAxeViolations(page, 'the status page with the released estimate');
});
