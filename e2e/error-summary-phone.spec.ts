import { mkdirSync } from 'node:fs';
import { expect, type Locator, test } from '@playwright/test';
import { ERROR_SUMMARY_TITLE } from '../src/shared/api/application-messages';
import { expectNoAxeViolations, fieldOf, signedInAccount } from './helpers/form';

const SHOTS = '/tmp/shots-summary';
const PHONE = { width: 360, height: 740 };

test.beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

/** The button that folds another page's errors, by the page's title. */
function pageGroup(summary: Locator, title: string): Locator {
  return summary.getByRole('button', { name: new RegExp(`^${title}: \\d+ answers$`) });
}

test('on a phone the summary shows this page first and folds the other pages with their counts', async ({
  page,
  request,
}) => {
  await page.setViewportSize(PHONE);
  await signedInAccount(page, request, 'summary-phone');
  await page.goto('/final-steps');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/about$/);

  const summary = page.getByRole('region', { name: ERROR_SUMMARY_TITLE });
  await expect(summary).toBeFocused();
  await expect(summary).toContainText('Fixes must be made on each page');
  const groups = summary.getByRole('heading', { level: 3 });
  await expect(groups.first()).toHaveText('On this page: About You');
  await expect(summary.getByRole('link', { name: 'Please enter your first name.' })).toBeVisible();

  // The other pages: folded, each with its count, in the order of the form.
  const academics = pageGroup(summary, 'Your Academics');
  const finalSteps = pageGroup(summary, 'Final Steps');
  await expect(groups.nth(1)).toContainText('Your Academics');
  await expect(groups.nth(2)).toContainText('Final Steps');
  for (const group of [academics, finalSteps]) {
    await expect(group).toHaveAttribute('aria-expanded', 'false');
  }
  const major = summary.getByRole('link', { name: 'Please select your program of study.' });
  await expect(major).toBeHidden();
  const academicsCount = Number(/(\d+) answers/.exec((await academics.textContent()) ?? '')?.[1]);
  expect(academicsCount).toBeGreaterThan(1);

  // Bounded: this page's errors and two folded lines, not every error of the application.
  const box = await summary.boundingBox();
  expect(box).not.toBeNull();
  expect(box?.height ?? Number.POSITIVE_INFINITY).toBeLessThan(PHONE.height * 1.5);
  await expectNoAxeViolations(page, 'the summary folded on a phone');
  await summary.screenshot({ path: `${SHOTS}/about-folded-360.png` });

  // This page's links still land on their fields.
  await summary.getByRole('link', { name: 'Please enter your last name.' }).click();
  await expect(fieldOf(page, 'last_name').getByRole('textbox')).toBeFocused();

  // Unfolded, another page's links show and lead to its fields.
  await academics.click();
  await expect(academics).toHaveAttribute('aria-expanded', 'true');
  await expect(major).toBeVisible();
  await expectNoAxeViolations(page, 'the summary with a page unfolded on a phone');
  await summary.screenshot({ path: `${SHOTS}/about-unfolded-360.png` });
  await major.click();
  await expect(page).toHaveURL(/\/education#applied_major$/);
  await expect(fieldOf(page, 'applied_major').getByRole('combobox')).toBeFocused();

  // On the next page, its own errors come first.
  const next = page.getByRole('region', { name: ERROR_SUMMARY_TITLE });
  await expect(next.getByRole('heading', { level: 3 }).first()).toHaveText(
    'On this page: Your Academics',
  );
  await expect(pageGroup(next, 'About You')).toHaveAttribute('aria-expanded', 'false');
  await expect(
    next.getByRole('link', { name: 'Please select your program of study.' }),
  ).toBeVisible();
  await next.screenshot({ path: `${SHOTS}/education-folded-360.png` });
});

test('wider than a phone, every page of the summary is open', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signedInAccount(page, request, 'summary-desktop');
  await page.goto('/final-steps');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/about$/);
  const summary = page.getByRole('region', { name: ERROR_SUMMARY_TITLE });
  for (const title of ['Your Academics', 'Final Steps'])
    await expect(pageGroup(summary, title)).toHaveAttribute('aria-expanded', 'true');
  await expect(
    summary.getByRole('link', { name: 'Please select your program of study.' }),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'the summary on a wide screen');
  await summary.screenshot({ path: `${SHOTS}/about-1280.png` });
});
