import { mkdirSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { ERROR_SUMMARY_TITLE } from '../src/shared/api/application-messages';
import { ABOUT_MESSAGES } from '../src/shared/application/about-page';
import {
  expectNoAxeViolations,
  expectSaved,
  fieldOf,
  profileAnswers,
  signedInAccount,
} from './helpers/form';

const SHOTS = '/tmp/shots-dates';

function box(page: Page, key: string, name: 'Day' | 'Month' | 'Year'): Locator {
  return fieldOf(page, key).getByRole('textbox', { name, exact: true });
}

/**
 * Types a date the way a keyboard-only applicant does: into the question's first box (where the
 * error summary's link lands), moving on with Tab, never touching the mouse.
 */
async function typeDate(page: Page, key: string, [day, month, year]: readonly string[]) {
  await fieldOf(page, key).locator('input').first().focus();
  await page.keyboard.type(day ?? '');
  await page.keyboard.press('Tab');
  await page.keyboard.type(month ?? '');
  await page.keyboard.press('Tab');
  await page.keyboard.type(year ?? '');
}

async function savedAnswer(page: Page, key: string): Promise<unknown> {
  return (await profileAnswers(page))[key];
}

async function expectBoxes(page: Page, key: string, [day, month, year]: readonly string[]) {
  await expect(box(page, key, 'Day')).toHaveValue(day ?? '');
  await expect(box(page, key, 'Month')).toHaveValue(month ?? '');
  await expect(box(page, key, 'Year')).toHaveValue(year ?? '');
}

async function shotOfQuestion(page: Page, key: string, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await fieldOf(page, key).scrollIntoViewIfNeeded();
    const card = page.locator('section').filter({ has: fieldOf(page, key) });
    await card.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('a date typed on the keyboard is saved: date of birth and the military dates', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'typed-date');
  await page.goto('/about');

  await typeDate(page, 'birth_date', ['04', '02', '2001']);
  await expect.poll(() => savedAnswer(page, 'birth_date')).toBe('2001-02-04');
  await expectBoxes(page, 'birth_date', ['04', '02', '2001']);
  await expect(
    fieldOf(page, 'birth_date').getByRole('group', { name: 'Date of birth' }),
  ).toBeVisible();
  for (const [name, autocomplete] of [
    ['Day', 'bday-day'],
    ['Month', 'bday-month'],
    ['Year', 'bday-year'],
  ] as const) {
    await expect(box(page, 'birth_date', name)).toHaveAttribute('inputmode', 'numeric');
    await expect(box(page, 'birth_date', name)).toHaveAttribute('autocomplete', autocomplete);
    await expect(box(page, 'birth_date', name)).toHaveAttribute('aria-required', 'true');
  }

  await fieldOf(page, 'military_service').getByLabel('Yes').check();
  await expect(page.getByRole('group', { name: 'Branch 1' })).toBeVisible();
  await typeDate(page, 'military_branch_start_date', ['1', '9', '2015']);
  await typeDate(page, 'military_branch_end_date', ['31', '08', '2019']);
  const militaryDay = box(page, 'military_branch_start_date', 'Day');
  await expect(militaryDay).not.toHaveAttribute('autocomplete', /bday/);
  await expect(militaryDay).not.toHaveAttribute('aria-required', 'true');
  await expectSaved(page);
  await expect
    .poll(async () => {
      const answers = await profileAnswers(page);
      return [answers.military_branch_start_date, answers.military_branch_end_date];
    })
    .toEqual(['2015-09-01', '2019-08-31']);

  // Deleting the year digit by digit keeps the rest of the answer until the date is finished.
  await box(page, 'military_branch_end_date', 'Year').focus();
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('20');
  await expectBoxes(page, 'military_branch_end_date', ['31', '08', '2020']);
  await expect.poll(() => savedAnswer(page, 'military_branch_end_date')).toBe('2020-08-31');

  await page.reload();
  await expectBoxes(page, 'birth_date', ['04', '02', '2001']);
  await expectBoxes(page, 'military_branch_start_date', ['01', '09', '2015']);
  await expectBoxes(page, 'military_branch_end_date', ['31', '08', '2020']);
  await expectNoAxeViolations(page, '/about with typed dates');
  await box(page, 'birth_date', 'Month').focus();
  await shotOfQuestion(page, 'birth_date', 'date-of-birth');
  await shotOfQuestion(page, 'military_branch_end_date', 'military-dates');

  // Emptying the three boxes clears the answer.
  for (const name of ['Day', 'Month', 'Year'] as const) {
    await box(page, 'military_branch_start_date', name).focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
  }
  await expect.poll(() => savedAnswer(page, 'military_branch_start_date')).toBe('');
});

test('an impossible date keeps its digits, clears the answer when left, and shows the message', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'impossible-date');
  await page.goto('/final-steps');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/about$/);

  const summary = page.getByRole('region', { name: ERROR_SUMMARY_TITLE });
  await summary.getByRole('link', { name: ABOUT_MESSAGES.birthDate }).click();
  const birthDate = fieldOf(page, 'birth_date');
  await expect(birthDate.locator('input').first()).toBeFocused();

  await typeDate(page, 'birth_date', ['04', '02', '2001']);
  await expect.poll(() => savedAnswer(page, 'birth_date')).toBe('2001-02-04');
  await expect(birthDate).not.toContainText(ABOUT_MESSAGES.birthDate);
  const day = box(page, 'birth_date', 'Day');

  // 31 February, typed and left with Tab: the finished value is judged, not each keystroke.
  await day.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('31');
  await expect(birthDate).not.toContainText(ABOUT_MESSAGES.birthDate);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(birthDate).not.toContainText(ABOUT_MESSAGES.birthDate);
  await page.keyboard.press('Tab');

  await expect(birthDate).toContainText(ABOUT_MESSAGES.birthDate);
  await expectBoxes(page, 'birth_date', ['31', '02', '2001']);
  await expect(day).toHaveAttribute('aria-invalid', 'true');
  await expect(day).toHaveAttribute('aria-describedby', /birth_date-error/);
  await expect.poll(() => savedAnswer(page, 'birth_date')).toBe('');
  await expectNoAxeViolations(page, '/about with an impossible date');
  await shotOfQuestion(page, 'birth_date', 'date-of-birth-impossible');

  // Correcting the day is enough: the message goes as soon as the boxes hold a real date.
  await day.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('28');
  await expect(birthDate).not.toContainText(ABOUT_MESSAGES.birthDate);
  await expect.poll(() => savedAnswer(page, 'birth_date')).toBe('2001-02-28');
});
