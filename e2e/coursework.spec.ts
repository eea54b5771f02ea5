import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { pasteIntoFocused, typeRow } from './helpers/coursework';
import { devToolsPath } from './helpers/dev-tools';
import {
  expectNoAxeViolations,
  expectSaved,
  fieldOf,
  profileAnswers,
  saveStatus,
  seedAnswers,
  signedInAccount,
} from './helpers/form';

const SHOTS = '/tmp/cw-shots';
const GRID = 'college_coursework';

test.beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

function grid(page: Page): Locator {
  return fieldOf(page, GRID);
}

/** A course row: the group a screen reader enters, named by its term, place, code and grade. */
function row(page: Page, name: RegExp): Locator {
  return grid(page).getByRole('group', { name });
}

function totals(page: Page): Locator {
  return grid(page).getByRole('definition');
}

/** Names the first college from its search, as an applicant does. */
async function nameCollege(page: Page): Promise<void> {
  const search = fieldOf(page, 'college_name').getByLabel(/^College name/);
  await search.focus();
  const combobox = fieldOf(page, 'college_name').getByRole('combobox', { name: /^College name/ });
  await expect(combobox).toBeFocused();
  await combobox.pressSequentially('Broward', { delay: 20 });
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option').first()).toContainText(/Broward College/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(listbox).toHaveCount(0);
}

async function shots(page: Page, name: string): Promise<void> {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await grid(page).screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 360, height: 800 });
}

test.use({ viewport: { width: 360, height: 800 } });

test('an applicant enters, pastes and keeps a term of courses on a phone', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'coursework');
  await page.goto('/education');
  await expect(grid(page)).toHaveCount(0);
  await nameCollege(page);
  await expect(grid(page)).toBeVisible();

  // Fall 2024, completed, added from the keyboard: the focus lands on its first course.
  const addTerm = grid(page).getByRole('group', { name: 'Add a term' });
  await addTerm.getByLabel('Season').selectOption('fall');
  await addTerm.getByLabel('Year').selectOption('2024');
  await addTerm.getByLabel('Status').selectOption('completed');
  await addTerm.getByRole('button', { name: 'Add term' }).focus();
  await page.keyboard.press('Enter');
  const firstSubject = row(page, /^Fall 2024, course 1$/).getByLabel('Subject');
  await expect(firstSubject).toBeFocused();

  await typeRow(page, ['MATH', '1A', 'Calculus', '4', 'A']);
  await expect(row(page, /^Fall 2024, course 2$/).getByLabel('Subject')).toBeFocused();
  await expect(totals(page).first()).toHaveText('4.00');
  await typeRow(page, ['ENGL', '1', 'Composition', '3']);
  // A grade not on the scale: the message is the server's, beside the cell; nothing is sent.
  await page.keyboard.type('Q');
  await expect(row(page, /^Fall 2024, course 2: ENGL 1, grade Q$/)).toBeVisible();
  const grade = row(page, /^Fall 2024, course 2: ENGL 1/).getByLabel('Grade');
  await expect(grade).toHaveAttribute('aria-invalid', 'true');
  await expect(grade).toHaveAccessibleDescription(
    'Enter a grade from the scale, such as A, B+ or P.',
  );
  await expect(saveStatus(page)).toHaveText('Not saved: correct the marked entries');
  expect((await profileAnswers(page))[GRID] ?? '').toBe('');
  // Corrected, the GPA follows as they type and the grid is saved.
  await page.keyboard.press('Backspace');
  await page.keyboard.type('B');
  await expect(grade).not.toHaveAttribute('aria-invalid', 'true');
  await expect(totals(page).first()).toHaveText('3.57');
  await expectSaved(page);

  // The next term is offered (Spring 2025); lines pasted into its first cell fill rows.
  await expect(addTerm.getByLabel('Season')).toHaveValue('spring');
  await expect(addTerm.getByLabel('Year')).toHaveValue('2025');
  await addTerm.getByRole('button', { name: 'Add term' }).click();
  await expect(row(page, /^Spring 2025, course 1$/).getByLabel('Subject')).toBeFocused();
  await pasteIntoFocused(
    page,
    'HIST\t17A\tUS History\t3\tA-\r\nCHEM\t1A\tGeneral Chemistry\t5\tb +\r\n\r\nMATH\t1A\tCalculus\t4\tB\tignored\r\n',
  );
  await expect(row(page, /^Spring 2025, course 2: CHEM 1A, grade B\+$/)).toBeVisible();
  await expect(row(page, /^Spring 2025, course 3: MATH 1A, grade B$/)).toBeVisible();
  // The later attempt of MATH 1A counts; the first is marked.
  await expect(row(page, /^Fall 2024, course 1: MATH 1A/)).toHaveAccessibleDescription(
    'Repeat — not counted',
  );
  // (9 + 11.1 + 16.5 + 12) / 15 units.
  await expect(totals(page).first()).toHaveText('3.24');
  await expect(totals(page).nth(1)).toHaveText('15');
  await expectSaved(page);
  await expectNoAxeViolations(page, 'the coursework grid on a phone');
  await shots(page, 'grid');

  // Everything is kept.
  await page.reload();
  await expect(row(page, /^Spring 2025, course 1: HIST 17A, grade A-$/)).toBeVisible();
  await expect(
    row(page, /^Fall 2024, course 2: ENGL 1, grade B$/).getByLabel('Course title'),
  ).toHaveValue('Composition');
  await expect(totals(page).first()).toHaveText('3.24');
  const stored = JSON.parse(String((await profileAnswers(page))[GRID])) as {
    terms: { courses: unknown[] }[];
  };
  expect(stored.terms.map((term) => term.courses.length)).toEqual([2, 3]);

  // An added row takes the focus; removed, the focus goes back to the row above it.
  await grid(page).getByRole('button', { name: 'Add course to Fall 2024' }).click();
  await expect(row(page, /^Fall 2024, course 3$/).getByLabel('Subject')).toBeFocused();
  await row(page, /^Fall 2024, course 3$/)
    .getByRole('button', { name: 'Remove Fall 2024, course 3' })
    .click();
  await expect(row(page, /^Fall 2024, course 2: ENGL 1/).getByLabel('Subject')).toBeFocused();

  await page.setViewportSize({ width: 1280, height: 900 });
  await expectNoAxeViolations(page, 'the coursework grid on a wide screen');
  await page.screenshot({ path: `${SHOTS}/page-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 360, height: 800 });
  await page.screenshot({ path: `${SHOTS}/page-360.png`, fullPage: true });

  // A term with courses goes only once confirmed; the focus lands on the term before it.
  await grid(page).getByRole('button', { name: 'Remove term Spring 2025' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove Spring 2025?' });
  await expect(dialog).toContainText('Its 3 courses are removed with it.');
  await dialog.getByRole('button', { name: 'Remove Spring 2025' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(grid(page).getByRole('heading', { name: /^Fall 2024/ })).toBeFocused();
  await expect(grid(page).getByRole('heading', { name: /^Spring 2025/ })).toHaveCount(0);
  await expect(totals(page).first()).toHaveText('3.57');
});

async function serviceToken(request: APIRequestContext, email: string): Promise<string> {
  const response = await request.post(devToolsPath('/test/service-token'), { data: { email } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

test('the read-only view draws each term as a table with the totals', async ({
  page,
  request,
  browser,
}) => {
  const email = await signedInAccount(page, request, 'coursework-read');
  const course = (subject: string, number: string, units: string, grade: string) => ({
    subject,
    number,
    title: `${subject} ${number}`,
    units,
    grade,
  });
  await seedAnswers(page, {
    college_name: 'Broward College',
    [GRID]: JSON.stringify({
      system: 'quarter',
      terms: [
        {
          season: 'fall',
          year: 2024,
          status: 'completed',
          courses: [course('MATH', '1A', '5', 'C'), course('ENGL', '1A', '4', 'B+')],
        },
        {
          season: 'winter',
          year: 2025,
          status: 'completed',
          courses: [course('MATH', '1A', '5', 'A')],
        },
      ],
    }),
  });
  const token = await serviceToken(request, email);
  const staff = await browser.newContext({ viewport: { width: 360, height: 800 } });
  const view = await staff.newPage();
  await view.goto(`/education?service_token=${token}`);
  const section = view.locator(`[data-key="${GRID}"]`);
  await expect(section.getByRole('table', { name: 'Fall 2024 · Completed' })).toBeVisible();
  await expect(section.getByRole('table', { name: 'Winter 2025 · Completed' })).toBeVisible();
  await expect(
    section.getByRole('row', { name: /MATH 1A MATH 1A ?Repeat — not counted/ }),
  ).toBeVisible();
  const totals = view.getByRole('region', { name: /Transfer GPA and units, all colleges/ });
  // (5 × 4 + 4 × 3.3) / 9 quarter units: 3.69; 9 quarter units are 6 semester units.
  await expect(totals).toContainText('Transfer GPA3.69');
  await expect(totals).toContainText('Transferable units6');
  await expectNoAxeViolations(view, 'the read-only coursework');
  for (const width of [360, 1280]) {
    await view.setViewportSize({ width, height: 900 });
    await section.screenshot({ path: `${SHOTS}/read-only-${width}.png` });
  }
  await staff.close();
});

test('at submit the summary names a course and its link lands on the cell', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'coursework-summary');
  await seedAnswers(page, {
    college_name: 'Broward College',
    [GRID]: JSON.stringify({
      system: 'semester',
      terms: [
        {
          season: 'fall',
          year: 2024,
          status: 'completed',
          courses: [{ subject: 'MATH', number: '1A', title: 'Calculus', units: '', grade: 'A' }],
        },
      ],
    }),
  });
  const validating = await page.request.post('/api/web-status', {
    data: { web_status: 'validating' },
  });
  expect(validating.status(), await validating.text()).toBe(200);
  await page.goto('/education');
  const link = page.getByRole('link', { name: 'Fall 2024, course 1 (MATH 1A): Enter the units.' });
  await link.click();
  const units = row(page, /^Fall 2024, course 1: MATH 1A/).getByLabel('Units');
  await expect(units).toBeFocused();
  await expect(units).toHaveAccessibleDescription('Enter the units.');
});
