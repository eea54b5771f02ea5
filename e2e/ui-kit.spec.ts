import { expect, type Locator, test } from '@playwright/test';
import { DEFAULT_THEME_COLOURS } from '../src/shared/tenant/tenant-config';
import { passwordInput, STRONG_PASSWORD, uniqueEmail } from './helpers/accounts';
import { fieldOf, saveStatus, signedInAccount } from './helpers/form';

/** '#eceef1' as the browser reports a computed colour. */
function rgb(hex: string): string {
  const [red, green, blue] = [1, 3, 5].map((start) =>
    Number.parseInt(hex.slice(start, start + 2), 16),
  );
  return `rgb(${red}, ${green}, ${blue})`;
}

/** The three dots of the 'circles' loading indicator inside the element. */
function loadingCircles(locator: Locator): Locator {
  return locator.locator('[aria-hidden="true"]:has(> span:nth-child(3))');
}

test('the tenant stylesheet carries the white, error and disabled colours', async ({ page }) => {
  await page.goto('/login');
  const colours = await page.evaluate(() => {
    const root = getComputedStyle(document.documentElement);
    return ['white-main', 'error-main', 'error-extra-light', 'disabled-extra-light'].map((name) =>
      root.getPropertyValue(`--color-${name}`).trim(),
    );
  });
  expect(colours).toEqual([
    DEFAULT_THEME_COLOURS.white.main,
    DEFAULT_THEME_COLOURS.error.main,
    DEFAULT_THEME_COLOURS.error.extraLight,
    DEFAULT_THEME_COLOURS.disabled.extraLight,
  ]);
});

test('a button waiting for its call takes the disabled colours and shows loading circles', async ({
  page,
}) => {
  const held: { answer?: () => void } = {};
  await page.route('**/public/login', async (route) => {
    await new Promise<void>((resolve) => {
      held.answer = resolve;
    });
    await route.fulfill({ status: 503, json: { message: 'Try again in a minute.' } });
  });
  await page.goto('/login');
  await page.getByLabel('Email address').fill(uniqueEmail('ui-kit'));
  await passwordInput(page).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();

  const waiting = page.getByRole('button', { name: 'Signing in...' });
  await expect(waiting).toBeDisabled();
  await expect(waiting).toHaveCSS(
    'background-color',
    rgb(DEFAULT_THEME_COLOURS.disabled.extraLight),
  );
  await expect(waiting).toHaveCSS('color', rgb(DEFAULT_THEME_COLOURS.disabled.main));
  await expect(loadingCircles(waiting)).toHaveCount(1);
  await expect.poll(() => held.answer !== undefined).toBe(true);
  held.answer?.();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled();
  await expect(
    loadingCircles(page.getByRole('button', { name: 'Sign In', exact: true })),
  ).toHaveCount(0);
});

test('the save indicator shows loading circles while saving', async ({ page, request }) => {
  await signedInAccount(page, request, 'ui-kit-saving');
  await page.goto('/about');
  const held: { answer?: () => void } = {};
  await page.route('**/api/answer', async (route) => {
    await new Promise<void>((resolve) => {
      held.answer = resolve;
    });
    await route.fallback();
  });
  await fieldOf(page, 'first_name').getByRole('textbox').fill('Ada');
  await expect(saveStatus(page)).toHaveText('Saving...');
  await expect(loadingCircles(saveStatus(page))).toHaveCount(1);
  await expect.poll(() => held.answer !== undefined).toBe(true);
  held.answer?.();
  await expect(saveStatus(page)).toHaveText('Saved');
  await expect(loadingCircles(saveStatus(page))).toHaveCount(0);
});
