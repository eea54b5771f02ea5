import { mkdirSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import type { ApplicationListResponse } from '../src/shared/staff/application-list-api';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { letters } from './helpers/applicants';
import { pasteIntoFocused, typeRow } from './helpers/coursework';
import {
  expectNoAxeViolations,
  expectSaved,
  fieldOf,
  seedAnswers,
  signedInAccount,
} from './helpers/form';
import { expectAxeClean, signInAsNewMember } from './helpers/staff';

/*
 * Issue 27 end to end: an applicant types two colleges' coursework on a phone, submits, then in
 * January adds the grades of the term that was in progress; a staff reader finds the application
 * by its transfer GPA, reads the grid and the dated update, and exports the GPA.
 */

const SHOTS = '/tmp/cw-after-shots';
/** A year whose fall term has begun whenever the test runs: that fall is in progress. */
const year = new Date().getFullYear() - 1;

test.use({ viewport: { width: 360, height: 800 } });

function row(grid: Locator, name: RegExp): Locator {
  return grid.getByRole('group', { name });
}

/** Names a college from its search, by keyboard, as an applicant does. */
async function nameCollege(page: Page, key: string, search: string): Promise<void> {
  const field = fieldOf(page, key);
  await field.getByLabel(/^College name/).focus();
  const combobox = field.getByRole('combobox', { name: /^College name/ });
  await expect(combobox).toBeFocused();
  await combobox.pressSequentially(search, { delay: 20 });
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option').first()).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(listbox).toHaveCount(0);
}

/** Adds a term from the grid's "Add a term" controls; the focus lands on its first course. */
async function addTerm(grid: Locator, season: string, termYear: number, status: string) {
  const controls = grid.getByRole('group', { name: 'Add a term' });
  await controls.getByLabel('Season').selectOption(season);
  await controls.getByLabel('Year').selectOption(String(termYear));
  await controls.getByLabel('Status').selectOption(status);
  await controls.getByRole('button', { name: 'Add term' }).focus();
  await grid.page().keyboard.press('Enter');
}

test('an applicant enters coursework, submits, adds January grades; staff find and export it', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  mkdirSync(SHOTS, { recursive: true });
  const family = `Journey${letters(6)}`;
  await signedInAccount(page, page.request, 'cw-journey');
  // Everything else the application needs, through the API; the colleges are typed below.
  const { college_name: _name, ...answers } = validApplicationAnswers();
  await seedAnswers(page, { ...answers, first_name: 'Jo', last_name: family });

  await page.goto('/education');
  await nameCollege(page, 'college_name', 'Broward');
  const first = fieldOf(page, 'college_coursework');
  await expect(first).toBeVisible();
  const gpa = first.getByRole('definition').first();

  // Fall of last year, typed: the GPA follows each grade.
  await addTerm(first, 'fall', year - 1, 'completed');
  await expect(
    row(first, new RegExp(`^Fall ${year - 1}, course 1$`)).getByLabel('Subject'),
  ).toBeFocused();
  await typeRow(page, ['MATH', '1A', 'Calculus', '4', 'A']);
  await expect(gpa).toHaveText('4.00');
  await typeRow(page, ['ENGL', '1', 'Composition', '3', 'B']);
  await expect(gpa).toHaveText('3.57');
  // The empty row the last Enter added goes again.
  await row(first, new RegExp(`^Fall ${year - 1}, course 3$`))
    .getByRole('button', { name: /^Remove/ })
    .click();

  // Spring, pasted from a spreadsheet.
  await addTerm(first, 'spring', year, 'completed');
  await expect(
    row(first, new RegExp(`^Spring ${year}, course 1$`)).getByLabel('Subject'),
  ).toBeFocused();
  await pasteIntoFocused(
    page,
    'HIST\t17A\tUS History\t3\tA-\r\nCHEM\t1A\tGeneral Chemistry\t5\tB+\r\n',
  );
  await expect(
    row(first, new RegExp(`^Spring ${year}, course 2: CHEM 1A, grade B\\+$`)),
  ).toBeVisible();
  // (16 + 9 + 11.1 + 16.5) / 15 units.
  await expect(gpa).toHaveText('3.51');
  await expectSaved(page);

  // A second college, its fall in progress: courses without grades yet.
  await page.getByRole('button', { name: 'Add Another college' }).click();
  await nameCollege(page, 'college_2_name', 'Arapahoe Community');
  const second = fieldOf(page, 'college_2_coursework');
  await expect(second).toBeVisible();
  await addTerm(second, 'fall', year, 'in_progress');
  await expect(
    row(second, new RegExp(`^Fall ${year}, course 1$`)).getByLabel('Subject'),
  ).toBeFocused();
  await typeRow(page, ['PHYS', '4A', 'Mechanics', '4', '']);
  await typeRow(page, ['MATH', '1B', 'Calculus II', '4']);
  await expectSaved(page);
  const college2 = Object.fromEntries(
    Object.entries(answers)
      .filter(([key]) => /^college_(?!name)/.test(key) && !key.startsWith('college_2_'))
      .map(([key, value]) => [key.replace(/^college_/, 'college_2_'), value]),
  );
  const { college_2_name: _second, ...college2Rest } = college2;
  await seedAnswers(page, college2Rest);

  const submitted = await page.request.post('/api/submit');
  expect(submitted.status(), await submitted.text()).toBe(200);

  // January: the grades of the fall that was in progress.
  await page.goto('/completion');
  const section = page.getByRole('region', { name: 'Your coursework' });
  const totals = section.getByRole('definition');
  await expect(totals.first()).toHaveText('3.51');
  await expect(totals.nth(2)).toHaveText('8');
  const secondCollege = section
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3 }) })
    .nth(1);
  await secondCollege.getByRole('button', { name: /^Add grades or terms/ }).click();
  const editor = section.getByRole('region', { name: /^Add grades or terms:/ });
  await expect(editor.getByRole('heading', { name: /^Add grades or terms:/ })).toBeFocused();
  const grid = editor.getByRole('group', { name: /^Courses at/ });
  // What was submitted stays: the course's cells read but do not type.
  const physics = row(grid, new RegExp(`^Fall ${year}, course 1: PHYS 4A`));
  await expect(physics.getByLabel('Subject')).toHaveAttribute('readonly', '');
  await expect(physics.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
  await physics.getByLabel('Grade').fill('A');
  const calculus = row(grid, new RegExp(`^Fall ${year}, course 2: MATH 1B`));
  // A grade not on the scale is marked beside its cell before anything is sent.
  await calculus.getByLabel('Grade').fill('Q');
  await editor.getByRole('button', { name: 'Send update' }).click();
  const refusal = editor.getByRole('alert');
  await expect(refusal).toContainText('Correct the marked entries before sending');
  await expect(refusal).toContainText(`Fall ${year}, course 2 (MATH 1B):`);
  await expect(calculus.getByLabel('Grade')).toHaveAttribute('aria-invalid', 'true');
  await calculus.getByLabel('Grade').fill('B');
  await expect(calculus.getByLabel('Grade')).not.toHaveAttribute('aria-invalid', 'true');
  await grid.getByLabel('Status').first().selectOption('completed');
  await expect(editor).toContainText(`Fall ${year}: grades added for PHYS 4A (A), MATH 1B (B)`);

  // A send the server refuses shows its lines and keeps every grade typed.
  await page.route('**/api/coursework-updates', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({
        message: 'Check the marked coursework.',
        errors: {
          college_2_coursework: [`Fall ${year}, course 1 (PHYS 4A): refused in this test.`],
        },
      }),
    }),
  );
  await editor.getByRole('button', { name: 'Send update' }).click();
  await expect(refusal).toContainText('Check the marked coursework.');
  await expect(refusal).toContainText('refused in this test.');
  await expect(physics.getByLabel('Grade')).toHaveValue('A');
  await page.unroute('**/api/coursework-updates');
  // The draft outlives a reload too.
  await page.reload();
  await secondCollege.getByRole('button', { name: /^Add grades or terms/ }).click();
  await expect(physics.getByLabel('Grade')).toHaveValue('A');
  await expect(calculus.getByLabel('Grade')).toHaveValue('B');
  await expect(grid.getByLabel('Status').first()).toHaveValue('completed');
  await expectNoAxeViolations(page, 'the status page with the coursework update open');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await section.screenshot({ path: `${SHOTS}/update-open-${width}.png` });
  }
  await page.setViewportSize({ width: 360, height: 800 });

  await editor.getByRole('button', { name: 'Send update' }).click();
  await expect(section.getByRole('status').filter({ hasText: 'Update sent for' })).toBeVisible();
  // (16 + 9 + 11.1 + 16.5 + 16 + 12) / 23 units.
  await expect(totals.first()).toHaveText('3.50');
  await expect(totals.nth(2)).toHaveText('0');
  await expect(section).toContainText(`Fall ${year}: grades added for PHYS 4A (A), MATH 1B (B)`);
  await expect(section.getByText(/^Updated /)).toHaveCount(1);
  await expect(section.locator('time')).toHaveCount(1);
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await section.screenshot({ path: `${SHOTS}/update-sent-${width}.png` });
  }

  // The office: a reader finds it by its transfer GPA.
  const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const staff = await staffContext.newPage();
  await signInAsNewMember(staff, 'reader', 'cw-journey');
  await staff.goto(`/staff?q=${family}&gpa_min=3.5`);
  const listed = staff.getByRole('row', { name: new RegExp(family) });
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText('3.50');
  const list = await staff.request.get(`/staff/api/applications?q=${family}&gpa_min=3.5`);
  const [id] = ((await list.json()) as ApplicationListResponse).applications.map((one) => one.id);
  await staff.goto(`/staff/applications/${id}`);
  await expect(staff.getByRole('table', { name: `Fall ${year} · Completed` })).toBeVisible();
  const updates = staff.getByRole('region', { name: 'Coursework updated after submit' });
  await expect(updates).toContainText(`Fall ${year}: grades added for PHYS 4A (A), MATH 1B (B)`);
  await expect(updates).toContainText(`Fall ${year} is now completed`);
  await expectAxeClean(staff, 'the application with the coursework update');

  // The applications CSV with the transfer GPA.
  await staff.goto(`/staff?q=${family}&gpa_min=3.5`);
  await staff.getByText(/^Choose columns/).click();
  await staff.getByRole('button', { name: 'Choose none' }).click();
  const picker = (group: string, name: string) =>
    staff
      .getByRole('group', { name: group, exact: true })
      .getByRole('checkbox', { name, exact: true });
  await picker('Application', 'Application id').check();
  await picker('Transfer coursework', 'Transfer GPA').check();
  const csv = staff.waitForEvent('download');
  await staff.getByRole('button', { name: 'Download CSV' }).click();
  const text = await (await csv).createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  });
  const lines = text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('id,transfer_gpa');
  expect(lines).toContain(`${id},3.50`);
  await staffContext.close();
});
