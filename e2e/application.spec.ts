import { expect, test } from '@playwright/test';
import { SUBMITTED_MESSAGE } from '../src/shared/api/application-messages';
import type { Answers } from '../src/shared/form/model';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { expectSaved, fieldOf, profileAnswers, seedAnswers, signedInAccount } from './helpers/form';

/** Answered through the page; the rest of a valid application is seeded through the API. */
const THROUGH_THE_PAGE = [
  'first_name',
  'gender',
  'gender_desc',
  'applied_major',
  'applied_major_desc',
  'counselor_waiver_request',
  'counselor_waiver_request_desc',
  'legal_agree',
];

function seeded(major: string): Answers {
  const answers = { ...validApplicationAnswers(major) };
  for (const key of THROUGH_THE_PAGE) delete answers[key];
  return answers;
}

for (const major of ['209', '748']) {
  test(`a complete application for program ${major} is submitted and reaches /completion`, async ({
    page,
    request,
  }) => {
    await signedInAccount(page, request, `submit-${major}`);
    await seedAnswers(page, seeded(major));

    await page.goto('/about');
    await fieldOf(page, 'first_name').getByRole('textbox').fill('Maria');
    await fieldOf(page, 'gender').getByRole('combobox').selectOption({ label: 'Female' });
    await page.getByRole('button', { name: 'Save and Continue' }).click();
    await expect(page).toHaveURL(/\/education$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await fieldOf(page, 'applied_major').getByRole('combobox').selectOption(major);
    if (major === '748') {
      await expect(fieldOf(page, 'health_care_experience').getByRole('textbox')).toHaveValue(
        /patient care technician/,
      );
    }
    await page.getByRole('button', { name: 'Save and Continue' }).click();
    await expect(page).toHaveURL(/\/final-steps$/);
    await fieldOf(page, 'counselor_waiver_request')
      .getByLabel('Yes, I waive my right to see them')
      .check();
    await fieldOf(page, 'legal_agree').getByRole('checkbox').check();
    await expectSaved(page);
    await page.getByRole('button', { name: 'Submit' }).click();

    await expect(page).toHaveURL(/\/completion$/);
    await expect(page.getByText(SUBMITTED_MESSAGE)).toBeVisible();
    await expect(page.getByText('Thanks, Maria!')).toBeVisible();
    const answers = await profileAnswers(page);
    expect([answers.applied_major, answers.legal_agree]).toEqual([major, true]);

    // Submitted: the form pages lead to /completion, also after a reload.
    await page.goto('/education');
    await expect(page).toHaveURL(/\/completion$/);
  });
}

test('an anonymous submit goes to sign-up carrying the answers', async ({ page }) => {
  await page.goto('/final-steps');
  await fieldOf(page, 'legal_agree').getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  const carried = await page.evaluate(
    () => (window.history.state as { usr?: { answers?: Record<string, unknown> } }).usr?.answers,
  );
  expect(carried).toEqual({ legal_agree: true });
});

test('/completion sends a visitor whose application is not submitted to /about', async ({
  page,
}) => {
  await page.goto('/completion');
  await expect(page).toHaveURL(/\/about$/);
});
