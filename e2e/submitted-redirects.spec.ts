import { expect, type Page, test } from '@playwright/test';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { passwordInput, STRONG_PASSWORD } from './helpers/accounts';
import { seedAnswers, signedInAccount } from './helpers/form';

/** A complete application, submitted through the API by the page's session. */
async function submitThroughApi(page: Page): Promise<void> {
  await seedAnswers(page, validApplicationAnswers());
  const validating = await page.request.post('/api/web-status', {
    data: { web_status: 'validating' },
  });
  expect(validating.status(), await validating.text()).toBe(200);
  const submitted = await page.request.post('/api/submit');
  expect(submitted.status(), await submitted.text()).toBe(200);
}

test('a signed-in student whose application is submitted is sent to /completion from every route', async ({
  page,
  request,
}) => {
  const email = await signedInAccount(page, request, 'submitted-routes');
  await submitThroughApi(page);

  for (const path of [
    '/login',
    '/signup',
    '/confirm',
    '/forgot',
    '/reset?username=someone%40example.com&id=abc',
    '/about',
    '/final-steps',
    '/no-such-page',
  ]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/completion$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Application Submitted' }),
    ).toBeVisible();
  }

  // Signed out, the account screens are there again; signing in leads back to /completion,
  // with the focus on its heading like any page reached by a navigation.
  const out = await page.request.get('/api/logout');
  expect(out.ok()).toBe(true);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email address').fill(email);
  await passwordInput(page).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/completion$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Application Submitted' }),
  ).toBeFocused();
});
