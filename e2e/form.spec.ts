import { expect, test } from '@playwright/test';
import { ERROR_SUMMARY_TITLE } from '../src/shared/api/application-messages';
import { ANSWER_MESSAGES } from '../src/shared/form/answer-keys';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import {
  confirmationCode,
  passwordInput,
  STRONG_PASSWORD,
  toasts,
  uniqueEmail,
} from './helpers/accounts';
import {
  expectNoAxeViolations,
  expectSaved,
  fieldOf,
  profileAnswers,
  screenshots,
  seedAnswers,
  signedInAccount,
  steps,
} from './helpers/form';

const PAGES = ['/about', '/education', '/final-steps'] as const;

test('anonymous answers survive a reload and arrive in the account after sign-up', async ({
  page,
  request,
}) => {
  await page.goto('/about');
  await expect(page.getByText('First time here?')).toBeVisible();
  await expect(page.getByText('Returning to your application?')).toBeVisible();

  const firstName = fieldOf(page, 'first_name').getByRole('textbox');
  const gender = fieldOf(page, 'gender').getByRole('combobox');
  const phone = fieldOf(page, 'phone_home').getByRole('textbox');
  const sms = page.getByLabel('Send me text message updates about my application');
  await firstName.fill('Ada');
  await gender.selectOption({ label: 'Female' });
  await phone.pressSequentially('9542628000');
  await expect(phone).toHaveValue('(954) 262-8000');
  await sms.check();
  // Radio-specific content appears for its answer and its answers clear when it hides again.
  const mailing = fieldOf(page, 'mailing_addr_same_as_perm_addr');
  await mailing.getByLabel('No').check();
  const mailingCity = fieldOf(page, 'mailing_city').getByRole('textbox');
  await mailingCity.fill('Tampa');
  await mailing.getByLabel('Yes').check();
  await expect(mailingCity).toHaveCount(0);
  await mailing.getByLabel('No').check();
  await expect(fieldOf(page, 'mailing_city').getByRole('textbox')).toHaveValue('');

  await page.reload();
  await expect(firstName).toHaveValue('Ada');
  await expect(gender).toHaveValue('F');
  await expect(phone).toHaveValue('(954) 262-8000');
  await expect(sms).toBeChecked();

  // Following a step link with answers leads to sign-up, carrying them.
  await steps(page)
    .getByRole('link', { name: /Your Academics/ })
    .click();
  await expect(page).toHaveURL(/\/signup$/);
  const email = uniqueEmail('carry');
  await page.getByLabel('Email address').fill(email);
  await passwordInput(page).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/confirm$/);
  await page.getByLabel('Confirmation code').fill(await confirmationCode(request, email));
  await page.getByRole('button', { name: 'Confirm Account' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await passwordInput(page).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/about$/);

  await expect(page.getByText('Welcome to your application!')).toBeVisible();
  await expect(firstName).toHaveValue('Ada');
  await expect
    .poll(async () => {
      const answers = await profileAnswers(page);
      return [answers.first_name, answers.gender_desc, answers.phone_home, answers.optin_sms_ind];
    })
    .toEqual(['Ada', 'Female', '(954) 262-8000', true]);
  // The browser's copy was only needed until the account had the answers.
  expect(await page.evaluate(() => localStorage.getItem('portal:answers'))).toBeNull();
  await page.reload();
  await expect(firstName).toHaveValue('Ada');
});

test('logged-in answers survive a reload and a second tab; tabs and add-another persist', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'tabs');
  await page.goto('/about');
  await expect(page.getByText('Welcome to your application!')).toBeVisible();
  await expectNoAxeViolations(page, '/about signed in');

  const second = await page.context().newPage();
  await second.goto('/education');
  await expectNoAxeViolations(second, '/education signed in');

  // Two tabs editing different questions: both kept.
  await fieldOf(page, 'first_name').getByRole('textbox').fill('Grace');
  await fieldOf(second, 'applied_major').getByRole('combobox').selectOption('209');
  await fieldOf(page, 'last_name').getByRole('textbox').fill('Hopper');
  await expectSaved(page);
  await expectSaved(second);
  await page.reload();
  await second.reload();
  await expect(fieldOf(page, 'first_name').getByRole('textbox')).toHaveValue('Grace');
  await expect(fieldOf(page, 'last_name').getByRole('textbox')).toHaveValue('Hopper');
  await expect(fieldOf(second, 'applied_major').getByRole('combobox')).toHaveValue('209');
  const saved = await profileAnswers(page);
  expect([saved.first_name, saved.last_name, saved.applied_major_desc]).toEqual([
    'Grace',
    'Hopper',
    'Psychology (B.S.)',
  ]);

  // Add-another: the count comes from the server and survives a reload.
  await fieldOf(page, 'military_service').getByLabel('Yes').check();
  await expect(page.getByRole('group', { name: 'Branch 1' })).toBeVisible();
  await page.getByRole('button', { name: 'Add Another branch' }).click();
  await expect(page.getByRole('group', { name: 'Branch 2' })).toBeVisible();
  await page.route('**/api/add-another', (route) =>
    route.request().method() === 'PUT' ? route.fulfill({ status: 500 }) : route.fallback(),
  );
  await page.getByRole('button', { name: 'Add Another branch' }).click();
  await expect(toasts(page).getByText('Error adding another branch')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Branch 3' })).toHaveCount(0);
  await page.unroute('**/api/add-another');
  await expectSaved(page);
  await page.reload();
  await expect(page.getByRole('group', { name: 'Branch 2' })).toBeVisible();

  // Tabs: switching saves the choice and clears the hidden tab's answers.
  const essay = second.getByRole('textbox', { name: 'Personal statement' });
  await essay.fill('Why I want to transfer.');
  await expect(second.getByText('Character count: 23 / 7000')).toBeVisible();
  await second.getByRole('tab', { name: 'Upload from your device' }).click();
  const dialog = second.getByRole('dialog', { name: 'Switch and clear your answers?' });
  await dialog.getByRole('button', { name: 'Switch and clear' }).click();
  await expect(second.getByLabel(/^Choose a file for /)).toHaveCount(2);
  await expectSaved(second);
  await second.reload();
  await expect(second.getByRole('tab', { name: 'Upload from your device' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  expect((await profileAnswers(page)).personal_statement_essay).toBe('');
  await second.route('**/api/tabs', (route) =>
    route.request().method() === 'PUT' ? route.fulfill({ status: 500 }) : route.fallback(),
  );
  await second.getByRole('tab', { name: 'Write it here' }).click();
  await expect(toasts(second).getByText('Error handling tabs for Write it here')).toBeVisible();
  await expect(second.getByRole('tab', { name: 'Upload from your device' })).toHaveAttribute(
    'aria-selected',
    'true',
  );

  // The first page change hides the welcome and saves the last page, restored on the next load.
  await steps(page)
    .getByRole('link', { name: /Final Steps/ })
    .click();
  await expect(page).toHaveURL(/\/final-steps$/);
  await expect(page.getByText('Welcome to your application!')).toHaveCount(0);
  await expect
    .poll(async () => {
      const response = await page.request.get('/api/profile');
      return ((await response.json()) as { last_page: string | null }).last_page;
    })
    .toBe('/final-steps');
  const third = await page.context().newPage();
  await third.goto('/about');
  await expect(third).toHaveURL(/\/final-steps$/);
});

test('a failed submit shows the summary for all three pages and its links land on the fields', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'summary');
  await page.goto('/final-steps');
  await page.getByRole('button', { name: 'Submit' }).click();

  await expect(page).toHaveURL(/\/about$/);
  const summary = page.getByRole('region', { name: ERROR_SUMMARY_TITLE });
  await expect(summary).toBeFocused();
  await expect(summary).toContainText('Fixes must be made on each page');
  for (const title of ['About You', 'Your Academics', 'Final Steps'])
    await expect(summary.getByRole('heading', { name: title })).toBeVisible();
  await expect(
    summary.getByRole('link', { name: 'Please enter your first name.' }),
  ).toHaveAttribute('href', '/about#first_name');

  // Each shown field shows its messages, tied to its input.
  const firstName = fieldOf(page, 'first_name').getByRole('textbox');
  await expect(fieldOf(page, 'first_name')).toContainText('Please enter your first name.');
  await expect(firstName).toHaveAttribute('aria-invalid', 'true');
  await expect(firstName).toHaveAttribute('aria-describedby', /first_name-error/);
  await expectNoAxeViolations(page, '/about with the summary');
  await screenshots(page, 'about-summary');

  await summary.getByRole('link', { name: 'Please enter your last name.' }).click();
  await expect(fieldOf(page, 'last_name').getByRole('textbox')).toBeFocused();
  // Live validation: a fix clears the message at once.
  await firstName.fill('Ada');
  await expect(fieldOf(page, 'first_name')).not.toContainText('Please enter your first name.');

  await summary.getByRole('link', { name: 'Please select your program of study.' }).click();
  await expect(page).toHaveURL(/\/education#applied_major$/);
  await expect(fieldOf(page, 'applied_major').getByRole('combobox')).toBeFocused();
  await expectNoAxeViolations(page, '/education with the summary');
  await screenshots(page, 'education-summary');

  await page
    .getByRole('region', { name: ERROR_SUMMARY_TITLE })
    .getByRole('link', { name: 'Please answer the question about criminal convictions.' })
    .click();
  await expect(page).toHaveURL(/\/final-steps#conviction$/);
  await expect(fieldOf(page, 'conviction').getByRole('radio').first()).toBeFocused();
  await expectNoAxeViolations(page, '/final-steps with the summary');
  await screenshots(page, 'final-steps-summary');
});

test('an answer whose option has gone shows no choice, and submit asks to choose again', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'old-term');
  await seedAnswers(page, validApplicationAnswers());
  // Saved under last cycle's terms: no save can store it now, so the profile is given it here.
  await page.route('**/api/profile', async (route) => {
    const response = await route.fetch();
    const profile = await response.json();
    profile.answer = { ...profile.answer, entry_term: 'FA1999', entry_term_desc: 'Fall 1999' };
    await route.fulfill({ response, json: profile });
  });
  await page.goto('/education');
  const entryTerm = fieldOf(page, 'entry_term');
  await expect(entryTerm.getByRole('combobox')).toHaveValue('');

  await page.goto('/final-steps');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/about$/);
  const summary = page.getByRole('region', { name: ERROR_SUMMARY_TITLE });
  await summary.getByRole('link', { name: ANSWER_MESSAGES.notAnOption }).click();
  await expect(page).toHaveURL(/\/education#entry_term$/);
  await expect(entryTerm).toContainText(ANSWER_MESSAGES.notAnOption);
  await entryTerm.getByRole('combobox').selectOption({ index: 1 });
  await expect(entryTerm).not.toContainText(ANSWER_MESSAGES.notAnOption);
  await expectSaved(page);
});

test('axe finds nothing on the three pages of an anonymous visitor', async ({ page }) => {
  for (const path of PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoAxeViolations(page, `${path} anonymous`);
    await screenshots(page, `${path.slice(1)}-anonymous`);
  }
  await page.goto('/education');
  await expect(
    page.getByText('This question can be finished once you have created an account.'),
  ).toHaveCount(1);
});
