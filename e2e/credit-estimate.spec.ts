import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import {
  CREDIT_ESTIMATE_PDF_URL,
  CREDIT_ESTIMATE_URL,
  ESTIMATE_NOTICE,
} from '../src/shared/credit/credit-api';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { equivalencyCsv, importEquivalencies } from './helpers/credit';
import { expectNoAxeViolations, seedAnswers, signedInAccount } from './helpers/form';
import { expectAxeClean, screenshots, signInAsNewMember } from './helpers/staff';

const SHOTS = '/tmp/shots-credit-estimate';

/** A college code and courses only this spec uses, so its table changes no other spec's mapping. */
const CEEB = '1234';
const coursework = {
  system: 'semester',
  terms: [
    {
      season: 'fall',
      year: 2024,
      status: 'completed',
      courses: [
        { subject: 'ASTR', number: '7', title: 'Stars and galaxies', units: '3', grade: 'A' },
        { subject: 'GEOL', number: '9', title: 'Physical geology', units: '4', grade: 'B' },
      ],
    },
  ],
};

test('an evaluator releases a credit estimate and the applicant sees it and its PDF', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  // The college's table, imported through the console's route (a CEEB code of this spec's own).
  await importEquivalencies(
    browser,
    equivalencyCsv(CEEB, [
      ['ASTR', '7', 'ASTR 150', '3', 'course', []],
      ['GEOL', '9', 'GEOL 1XX', '4', 'elective', []],
    ]),
  );

  const email = await signedInAccount(page, page.request, 'credit-estimate');
  await seedAnswers(page, {
    ...validApplicationAnswers(),
    first_name: 'Octavia',
    college_ceeb: CEEB,
    college_coursework: JSON.stringify(coursework),
  });
  const submitted = await page.request.post('/api/submit');
  expect(submitted.status(), await submitted.text()).toBe(200);

  // Before release: no estimate, only the requirements computed from what was entered.
  await page.goto('/completion');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Application Submitted');
  const requirements = page.getByRole('region', { name: 'Transfer requirements' });
  await expect(requirements).toContainText('not an evaluation');
  await expect(requirements).toContainText('60 transferable semester units');
  await expect(page.getByRole('region', { name: 'Transfer credit estimate' })).toHaveCount(0);
  await expect(page.getByText(ESTIMATE_NOTICE)).toHaveCount(0);
  expect(await (await page.request.get(CREDIT_ESTIMATE_URL)).json()).toBeNull();
  expect((await page.request.get(CREDIT_ESTIMATE_PDF_URL)).status()).toBe(404);

  // An evaluator releases the estimates of a list holding this one application.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signInAsNewMember(staff, 'evaluator', 'credit-estimate');
  await staff.goto(`/staff?q=${encodeURIComponent(email)}`);
  const panel = staff.getByRole('region', { name: 'Transfer credit estimates for this list' });
  await panel.getByRole('button', { name: 'Release credit estimates for this list' }).click();
  const dialog = staff.getByRole('dialog', {
    name: 'Release the credit estimates of 1 submitted application?',
  });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Release estimates' }).click();
  const result = panel.getByRole('status');
  await expect(result).toHaveText('Credit estimate released for 1 submitted application.');
  await expect(result).toBeFocused();
  await expectAxeClean(staff, 'the list with the estimate panel');
  await screenshots(staff, 'credit-estimate-panel');
  mkdirSync(SHOTS, { recursive: true });
  await staff.setViewportSize({ width: 360, height: 900 });
  await panel.screenshot({ path: `${SHOTS}/panel-360.png` });
  await staffContext.close();

  // After release: the section, the notice, the units and the PDF.
  await page.reload();
  const estimate = page.getByRole('region', { name: 'Transfer credit estimate' });
  await expect(estimate).toContainText(ESTIMATE_NOTICE);
  await expect(estimate).toContainText('7 units');
  await expect(estimate).toContainText('Transfer GPA of 2.00 or higher');
  const link = estimate.getByRole('link', { name: 'Open your credit estimate (PDF)' });
  await expect(link).toHaveAttribute('href', CREDIT_ESTIMATE_PDF_URL);
  const pdf = await page.request.get((await link.getAttribute('href')) ?? '');
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await expectNoAxeViolations(page, 'the status page with a credit estimate');

  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await estimate.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/status-${width}.png`, fullPage: true });
    await estimate.screenshot({ path: `${SHOTS}/estimate-${width}.png` });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `the status page scrolls sideways at ${width}px`).toBeLessThanOrEqual(0);
  }
});
