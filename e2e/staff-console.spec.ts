import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { applicantThroughApi, letters } from './helpers/applicants';
import { expectAxeClean, openFilters, signInAsNewMember } from './helpers/staff';

/**
 * A reader's day in one go, as the admissions office works: find an applicant despite a typo,
 * read the application, download its PDF, check off an item, go on to the next, export the
 * submitted ones; then an administrator finds every step in the audit trail.
 */
test('a reader finds, reads, checks off and exports, and the audit trail shows each step', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const family = `Quillfeather${letters(5)}`;
  const base = { ...validApplicationAnswers(), last_name: family, preferred_name: '' };
  const firstEmail = await applicantThroughApi(
    browser,
    page.request,
    { ...base, first_name: 'Aurélie' },
    true,
  );
  const secondEmail = await applicantThroughApi(
    browser,
    page.request,
    { ...base, first_name: 'Bastien' },
    true,
  );
  const startedEmail = await applicantThroughApi(
    browser,
    page.request,
    { first_name: 'Cyril', last_name: family },
    false,
  );
  const reader = await signInAsNewMember(page, 'reader', 'day');

  // A misspelled family name (two letters swapped), no accent: both submitted ones and the third.
  const misspelled = family.replace('feather', 'faether');
  await page.getByRole('searchbox', { name: 'Search' }).fill(`${misspelled} aurelie`);
  const table = page.getByRole('table', { name: /^Applications/ });
  await expect(table.getByRole('row', { name: new RegExp(family) })).toHaveCount(1);
  await table.getByRole('link', { name: `${family}, Aurélie` }).click();

  // The application: its answers, then its PDF.
  await expect(page.getByRole('heading', { level: 1, name: `Aurélie ${family}` })).toBeVisible();
  await expect(page.locator('[data-key="first_name"]')).toContainText('Aurélie');
  const downloading = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: /Download application PDF|Preparing/ }).click();
  const pdf = await downloading;
  const bytes = await readFile((await pdf.path()) as string);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // A checklist item marked received, with who and when.
  const checklist = page.getByRole('region', { name: 'Checklist' });
  const fee = checklist.getByRole('group', { name: 'Application fee' });
  await fee.getByRole('button', { name: 'Received' }).click();
  await expect(checklist.getByRole('status')).toHaveText('Marked Application fee received.');
  await expect(fee.getByRole('button', { name: 'Received' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // On to the next one in a list of the family sorted by name.
  await page.goto(`/staff?q=${family}&sort=name&direction=asc`);
  await table.getByRole('link', { name: `${family}, Aurélie` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Aurélie ${family}` })).toBeVisible();
  await page.keyboard.press('j');
  await expect(page.getByRole('heading', { level: 1, name: `Bastien ${family}` })).toBeFocused();

  // Back to the list, only the submitted applications, as a CSV.
  await page.getByRole('link', { name: 'Back to the list' }).click();
  await openFilters(page);
  await page.getByRole('checkbox', { name: 'Submitted' }).check();
  await expect(page).toHaveURL(/status=submitted/);
  await expect(table.getByRole('row', { name: new RegExp(family) })).toHaveCount(2);
  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const csv = await readFile((await (await csvDownload).path()) as string, 'utf8');
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  expect(csv).toContain(firstEmail);
  expect(csv).toContain(secondEmail);
  expect(csv).not.toContain(startedEmail);

  // An administrator reads the reader's day in the audit trail.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAsNewMember(admin, 'admin', 'auditor');
  await admin.goto(`/staff/audit?actor=${encodeURIComponent(reader.email)}`);
  const entries = admin.getByRole('table');
  for (const action of [
    'application search',
    'application view',
    'application pdf view',
    'checklist mark',
    'applications export csv',
  ]) {
    await expect(entries.getByRole('cell', { name: action, exact: true }).first()).toBeVisible();
  }
  // An entry names its applicant; an export says how many applications it held, not "None".
  const rowOf = (action: string) =>
    entries
      .getByRole('row')
      .filter({ has: admin.getByRole('cell', { name: action, exact: true }) })
      .first();
  await expect(
    rowOf('checklist mark').getByRole('link', {
      name: `Entries of the application of Aurélie ${family}`,
    }),
  ).toHaveText(`Aurélie ${family}`);
  await expect(
    rowOf('applications export csv').getByRole('cell', { name: '2 applications', exact: true }),
  ).toBeVisible();
  await expectAxeClean(admin, 'the audit log naming applicants');
  await adminContext.close();
});
