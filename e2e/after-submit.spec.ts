import { expect, test } from '@playwright/test';
import type { ApplicationListResponse } from '../src/shared/staff/application-list-api';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { waitForMail } from './helpers/accounts';
import { seedAnswers, signedInAccount } from './helpers/form';
import { expectAxeClean, signInAsNewMember } from './helpers/staff';

/**
 * After submit, end to end: the receipt on screen and by mail, a checklist item the office marks
 * received, a decision recorded and released in the console, and the applicant reading the letter
 * and accepting the offer, which the console then shows.
 */
test('an applicant gets a receipt, sees the office check an item off, reads the decision and accepts', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const email = await signedInAccount(page, page.request, 'after-submit');
  await seedAnswers(page, { ...validApplicationAnswers(), first_name: 'Rosalind' });
  const submitted = await page.request.post('/api/submit');
  expect(submitted.status(), await submitted.text()).toBe(200);

  // The receipt: on screen and in the mail sent at once, with the same number.
  await page.goto('/completion');
  const number = ((await page.getByTestId('confirmation-number').textContent()) ?? '').trim();
  expect(number).toMatch(/^[A-Z]{2,6}-[A-Z0-9]+-\d{6}$/);
  const receiptMail = await waitForMail(page.request, email, new RegExp(number));
  expect(receiptMail.subject).toContain(number);
  const fee = page.locator('li[data-key="fee"]');
  await expect(fee).toContainText('Awaiting');
  // No decision is shown, nor hinted at, before one is released.
  await expect(page.getByRole('heading', { name: 'Decision' })).toHaveCount(0);

  // The office: an administrator finds the application and marks the fee received.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signInAsNewMember(staff, 'admin', 'after-submit');
  const list = await staff.request.get(`/staff/api/applications?q=${encodeURIComponent(email)}`);
  const [row] = ((await list.json()) as ApplicationListResponse).applications;
  expect(row, 'the application in the list').toBeDefined();
  await staff.goto(`/staff/applications/${row?.id}`);
  // What the console shows is what was submitted: the fingerprint, computed again, matches.
  await expect(staff.getByRole('main')).toContainText(number);
  await staff.getByRole('button', { name: 'Check against what was submitted' }).click();
  await expect(
    staff.getByRole('status').filter({ hasText: 'Matches what was submitted.' }),
  ).toBeVisible();
  const checklist = staff.getByRole('region', { name: 'Checklist' });
  await checklist
    .getByRole('group', { name: 'Application fee' })
    .getByRole('button', { name: 'Received' })
    .click();
  await expect(checklist.getByRole('status')).toHaveText('Marked Application fee received.');
  await expectAxeClean(staff, 'an application with its receipt');

  // The applicant's status page follows.
  await page.reload();
  await expect(fee).toContainText('Received');

  // An admit, recorded and released.
  const decision = staff.getByRole('region', { name: 'Decision', exact: true });
  await decision.getByLabel('Record a decision').selectOption({ label: 'Admit' });
  await decision.getByRole('button', { name: 'Save decision' }).click();
  await expect(decision.getByRole('status')).toHaveText('Decision recorded: Admit.');
  // Recorded but not released: still nothing for the applicant.
  await page.reload();
  await expect(page.getByTestId('confirmation-number')).toHaveText(number);
  await expect(page.getByRole('heading', { name: 'Decision' })).toHaveCount(0);
  await decision.getByRole('button', { name: 'Release now' }).click();
  await staff
    .getByRole('dialog', { name: 'Release this decision now?' })
    .getByRole('button', { name: 'Release now' })
    .click();
  await expect(decision).toContainText('No reply yet');
  await waitForMail(page.request, email, /decision/i);

  // The applicant reads the letter and accepts.
  await page.reload();
  const section = page.getByRole('region', { name: 'Decision' });
  await expect(section).toContainText('Admit');
  await expect(section).toContainText('Congratulations, Rosalind!');
  const letter = await page.request.get('/api/decision/letter.pdf');
  expect(letter.status()).toBe(200);
  expect((await letter.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await section.getByRole('button', { name: 'Accept offer' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Accept offer' }).click();
  await expect(section).toContainText('You accepted this offer');
  await expectAxeClean(page, 'the status page with an accepted offer');

  // The console shows the reply.
  await staff.reload();
  await expect(staff.getByRole('region', { name: 'Decision', exact: true })).toContainText(
    /Offer accepted/,
  );
  await staffContext.close();
});
