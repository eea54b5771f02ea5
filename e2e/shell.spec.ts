import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

test('an unknown path redirects to /about keeping the query string', async ({ page }) => {
  await page.goto('/nowhere?x=1');
  await expect(page).toHaveURL(/\/about\?x=1$/);
  await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Application steps' })).toBeVisible();
});

test('the shell shows the tenant, the steps and the account menu', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('link', { name: /Northfield State University/ })).toBeVisible();
  const steps = page.getByRole('navigation', { name: 'Application steps' });
  await expect(steps.getByRole('link', { name: /About You/ })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await steps.getByRole('link', { name: /Your Academics/ }).click();
  await expect(page).toHaveURL(/\/education$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your Academics' })).toBeVisible();

  await page.getByRole('button', { name: 'Account' }).click();
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create Account' })).toBeVisible();
});

test('the theme colours come from the tenant configuration', async ({ page }) => {
  await page.goto('/about');
  const primary = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--color-primary-main').trim(),
  );
  expect(primary).toBe('#0b3d91');
});

test('the footer opens the Help dialog with the tenant contacts', async ({ page }) => {
  await page.goto('/about');
  await page.getByRole('button', { name: 'Help' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByRole('link', { name: /apply-help@northfield\.example\.edu/ }),
  ).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('the shell has no accessibility violations', async ({ page }) => {
  for (const path of ['/about', '/login', '/completion']) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations, path).toEqual([]);
  }
});
