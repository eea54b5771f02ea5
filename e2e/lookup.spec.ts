import { mkdirSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { LOOKUP_PATH } from '../src/shared/lookup/lookup-api';
import {
  expectNoAxeViolations,
  expectSaved,
  fieldOf,
  profileAnswers,
  signedInAccount,
} from './helpers/form';
import { holdRequests } from './helpers/held-requests';

const SHOTS_DIR = '/tmp/shots-lookup';

test.beforeAll(async ({ request }) => {
  // The server imports the default lists into its fresh database before it is ready: say so
  // plainly when the high schools are missing.
  const response = await request.get(`${LOOKUP_PATH}?text=stuyvesant&category=hs_ceeb`);
  expect(response.status()).toBe(200);
  expect(
    await response.json(),
    'no high schools in the database: is lookup-lists/high_schools.csv there, and LOOKUP_DEFAULT_LISTS not false?',
  ).not.toEqual([]);
  mkdirSync(SHOTS_DIR, { recursive: true });
});

/**
 * The search field of a school or address block, by its answer key and label. It is a plain text
 * input until the applicant first reaches for a lookup field; then the widget loads and takes over.
 */
async function search(page: Page, key: string, label: string): Promise<Locator> {
  await fieldOf(page, key).getByLabel(label).focus();
  const combobox = fieldOf(page, key).getByRole('combobox', { name: label });
  await expect(combobox).toBeFocused();
  return combobox;
}

function textOf(page: Page, key: string): Locator {
  return fieldOf(page, key).getByRole('textbox');
}

function choiceOf(page: Page, key: string): Locator {
  return fieldOf(page, key).getByRole('combobox');
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS_DIR}/${name}.png`, fullPage: false });
}

test('picking a high school fills its name, city, state, ZIP code, CEEB code and country', async ({
  page,
  request,
}) => {
  // react-select styles itself through <style> elements: the policy must let them in.
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  await signedInAccount(page, request, 'lookup-pick');
  await page.goto('/education');
  const school = await search(page, 'hs_name', 'High school name');
  await expect(school).toBeVisible();
  await school.scrollIntoViewIfNeeded();
  await school.pressSequentially('stuyves', { delay: 40 });

  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option').first()).toContainText('Stuyvesant High School');
  await expect(listbox.getByRole('option').first()).toContainText('New York, NY 10282');
  await expect(listbox.getByRole('option', { name: 'Use: stuyves' })).toBeVisible();
  await expect(school).toHaveAttribute('aria-expanded', 'true');
  await shot(page, 'high-school-suggestions');
  await expectNoAxeViolations(page, 'school suggestions open');

  // The keyboard picks the first suggestion.
  await school.press('ArrowDown');
  await school.press('ArrowUp');
  await school.press('Enter');
  await expect(textOf(page, 'hs_city')).toHaveValue('New York');
  await expect(choiceOf(page, 'hs_state')).toHaveValue('NY');
  await expect(textOf(page, 'hs_zip')).toHaveValue('10282');
  await expect(textOf(page, 'hs_ceeb')).toHaveValue('334070');
  await expect(choiceOf(page, 'hs_country')).toHaveValue('USA');
  await expect(fieldOf(page, 'hs_name')).toContainText('Stuyvesant High School');
  await shot(page, 'high-school-picked');

  await expectSaved(page);
  await expect
    .poll(async () => {
      const answers = await profileAnswers(page);
      return {
        hs_name: answers.hs_name,
        hs_city: answers.hs_city,
        hs_state: answers.hs_state,
        hs_state_desc: answers.hs_state_desc,
        hs_zip: answers.hs_zip,
        hs_ceeb: answers.hs_ceeb,
        hs_country: answers.hs_country,
        hs_country_desc: answers.hs_country_desc,
      };
    })
    .toEqual({
      hs_name: 'Stuyvesant High School',
      hs_city: 'New York',
      hs_state: 'NY',
      hs_state_desc: 'New York',
      hs_zip: '10282',
      hs_ceeb: '334070',
      hs_country: 'USA',
      hs_country_desc: 'United States of America',
    });

  // Coming back puts the name in the input to edit; Escape closes the list and keeps the text.
  await textOf(page, 'hs_city').focus();
  await school.focus();
  await expect(school).toHaveValue('Stuyvesant High School');
  await school.press('End');
  await school.pressSequentially(' Annex');
  await expect(
    page.getByRole('option', { name: 'Use: Stuyvesant High School Annex' }),
  ).toBeVisible();
  await school.press('Escape');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(school).toHaveValue('Stuyvesant High School Annex');
  await expectNoAxeViolations(page, 'school picked');
  expect(refused).toEqual([]);
});

test('a school that is not listed is kept as typed', async ({ page }) => {
  await page.goto('/education');
  const college = await search(page, 'college_name', 'College name');
  await college.scrollIntoViewIfNeeded();
  await college.pressSequentially('Atlantis Community College');
  const useTyped = page.getByRole('option', { name: 'Use: Atlantis Community College' });
  await expect(useTyped).toBeVisible();
  await shot(page, 'college-use-typed');
  await page.setViewportSize({ width: 360, height: 800 });
  await useTyped.scrollIntoViewIfNeeded();
  await shot(page, 'college-use-typed-360');
  await page.setViewportSize({ width: 1280, height: 720 });
  await useTyped.click();
  await expect(fieldOf(page, 'college_name')).toContainText('Atlantis Community College');
  await expect(textOf(page, 'college_ceeb')).toHaveValue('');

  // Leaving the field with text typed keeps it too.
  const school = await search(page, 'hs_name', 'High school name');
  await school.pressSequentially('Home School of the Rockies');
  await school.press('Tab');
  await expect(fieldOf(page, 'hs_name')).toContainText('Home School of the Rockies');

  // After a reload the fields are plain inputs again, holding the typed names.
  await page.reload();
  await expect(fieldOf(page, 'college_name').getByLabel('College name')).toHaveValue(
    'Atlantis Community College',
  );
  await expect(fieldOf(page, 'hs_name').getByLabel('High school name')).toHaveValue(
    'Home School of the Rockies',
  );
  await expectNoAxeViolations(page, 'typed schools');

  // The name can be edited like any text; deleting it all and leaving empties the answer.
  const again = await search(page, 'hs_name', 'High school name');
  await expect(again).toHaveValue('Home School of the Rockies');
  await again.press('ControlOrMeta+a');
  await again.press('Delete');
  await again.press('Tab');
  await expect(fieldOf(page, 'hs_name')).not.toContainText('Home School of the Rockies');
  await page.reload();
  await expect(fieldOf(page, 'hs_name').getByLabel('High school name')).toHaveValue('');
});

test('typing quickly sends few searches, and the address line suggests city, state and ZIP code', async ({
  page,
}) => {
  const searches: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === LOOKUP_PATH && url.searchParams.has('text'))
      searches.push(url.searchParams.get('text') ?? '');
  });
  await page.goto('/about');
  const street = await search(page, 'address_line_1', 'Street address');
  await street.scrollIntoViewIfNeeded();
  // 17 keystrokes 30 ms apart: one search at the 500 ms maximum wait and one after the last key.
  await street.pressSequentially('12 Main St, 33314', { delay: 30 });
  const suggestion = page.getByRole('option', { name: /12 Main St, Fort Lauderdale, FL 33314/ });
  await expect(suggestion).toBeVisible();
  expect(searches.length).toBeLessThanOrEqual(3);
  expect(searches.at(-1)).toBe('12 Main St, 33314');
  await shot(page, 'address-suggestions');
  await expectNoAxeViolations(page, 'address suggestions open');

  await suggestion.click();
  await expect(fieldOf(page, 'address_line_1')).toContainText('12 Main St');
  await expect(textOf(page, 'city')).toHaveValue('Fort Lauderdale');
  await expect(choiceOf(page, 'state')).toHaveValue('FL');
  await expect(textOf(page, 'zip')).toHaveValue('33314');
  await expect(choiceOf(page, 'country')).toHaveValue('USA');
  await shot(page, 'address-picked');
});

test('what is typed before the search widget has loaded is kept, and the search goes on from it', async ({
  page,
}) => {
  const release = await holdRequests(page, /lookup-combobox-[^/]*\.js$/);
  await page.goto('/education');
  const plain = fieldOf(page, 'hs_name').getByRole('textbox', { name: 'High school name' });
  await plain.pressSequentially('Stuyv');
  await expect(plain).toHaveValue('Stuyv');
  release();
  const school = fieldOf(page, 'hs_name').getByRole('combobox', { name: 'High school name' });
  await expect(school).toBeFocused();
  await expect(school).toHaveValue('Stuyv');
  await school.pressSequentially('esant');
  await expect(school).toHaveValue('Stuyvesant');
  await expect(page.getByRole('listbox').getByRole('option').first()).toContainText(
    'Stuyvesant High School',
  );
});
