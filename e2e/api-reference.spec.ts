import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

/*
 * The integrators' reference page, rendered by the server from the OpenAPI document: readable
 * and accessible on a phone and on a desktop, and nothing on it runs a script.
 */

for (const width of [360, 1280]) {
  test(`the API reference reads at ${width} px, passes axe and has no script`, async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') violations.push(message.text());
    });
    await page.setViewportSize({ width, height: 900 });
    const response = await page.goto('/api/v1/reference');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toBe('no-store');
    await expect(page.getByRole('heading', { level: 1, name: /integrators’ API/ })).toBeVisible();
    await expect(page.getByRole('main')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Contents' })).toBeVisible();
    await expect(page.locator('script')).toHaveCount(0);
    // The page itself never scrolls sideways; wide tables and examples scroll in their own box.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);

    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to the reference' })).toBeFocused();

    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
    // A style or script the Content-Security-Policy refused would be reported here.
    expect(violations).toEqual([]);
    await page.screenshot({ path: `/tmp/api-reference-${width}.png`, fullPage: false });
  });
}
