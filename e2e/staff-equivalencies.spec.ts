import { expect, test } from '@playwright/test';
import { expectAxeClean, screenshots, signInAsNewMember } from './helpers/staff';

const HEADER = 'sending_ceeb,subject,number,title,units,local_course,local_units,kind,satisfies';
const csv = (name: string, text: string) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(text),
});

test('an administrator checks an equivalency table, sees its problems, then imports a good one', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInAsNewMember(page, 'admin', 'eq-admin');
  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Equivalency tables' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Equivalency tables' })).toBeFocused();

  const input = page.getByLabel('Equivalency table (CSV)');
  await input.setInputFiles(
    csv(
      'bad.csv',
      `${HEADER}\n4144,ENGL,1A,Composition,three,ENGL 100,3,course,\n4144,ENGL,1A,Again,3,ENGL 100,3,transfer,\n`,
    ),
  );
  await page.getByRole('button', { name: 'Check file' }).click();
  const problems = page.getByRole('alert').filter({ hasText: 'The file cannot be imported' });
  await expect(page.getByRole('heading', { name: 'The file cannot be imported' })).toBeFocused();
  await expect(problems.getByRole('listitem')).toHaveText([
    'line 2: units "three" is not a number (write it like 3 or 4.5, at most 2 decimals).',
    'line 3: kind "transfer" is not one of: course, elective, no_credit.',
    'line 3: ENGL 1A of 4144 repeats line 2.',
  ]);
  await expect(page.getByRole('button', { name: 'Import' })).toHaveCount(0);
  await expectAxeClean(page, 'the equivalency tables page with problems');
  await screenshots(page, 'equivalencies-problems');

  await input.setInputFiles(
    csv(
      'de-anza.csv',
      `${HEADER}\n4144,ENGL,1A,Composition,5,ENGL 100,3,course,GE-A2\n5074,MATH,1,Calculus,4,MATH 150,4,course,\n`,
    ),
  );
  // Keyboard only from here: the check button, then Import.
  await page.getByRole('button', { name: 'Check file' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'The file is ready to import' })).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'ready' })).toContainText(
    '2 rows for 2 colleges: 4144, 5074',
  );
  await page.getByRole('button', { name: 'Import' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Imported' })).toBeFocused();
  const table = page.getByRole('table', { name: 'Equivalency tables by sending college' });
  await expect(table.getByRole('row').filter({ hasText: '4144' })).toContainText('de-anza.csv');
  await expect(table.getByRole('row').filter({ hasText: '5074' })).toContainText('1');
  await expectAxeClean(page, 'the equivalency tables page after an import');
  await screenshots(page, 'equivalencies-imported');
});

test('a reader sees no equivalency tables link and is sent home from the page', async ({
  page,
}) => {
  await signInAsNewMember(page, 'reader', 'eq-reader');
  await expect(page.getByRole('link', { name: 'Equivalency tables' })).toHaveCount(0);
  await page.goto('/staff/equivalencies');
  await expect(page).toHaveURL(/\/staff\/?$/);
});
