import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './helpers/form';

const SHOTS = '/tmp/shots-privacy';
const OPT_OUT_KEY = 'portal:analytics-opt-out';

async function openPrivacy(page: Page) {
  await page.getByRole('contentinfo').getByRole('button', { name: 'Privacy' }).click();
  const dialog = page.getByRole('dialog', { name: 'Privacy' });
  await expect(dialog).toBeVisible();
  return dialog;
}

function storedChoice(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), OPT_OUT_KEY);
}

test.beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

test('without analytics configured, the privacy notice says the site uses none', async ({
  page,
}) => {
  await page.goto('/about');
  const dialog = await openPrivacy(page);
  const analytics = dialog.getByRole('region', { name: 'Analytics' });
  await expect(analytics).toHaveText(/This site uses no analytics\./);
  await expect(analytics.getByRole('checkbox')).toHaveCount(0);
  await expectNoAxeViolations(page, 'the privacy notice without analytics');
});

test('with analytics configured, the privacy notice names it and keeps an opt-out in this browser', async ({
  page,
}) => {
  await page.route('**/public/tenant', async (route) => {
    const response = await route.fetch();
    const tenant = await response.json();
    await route.fulfill({
      response,
      json: {
        ...tenant,
        analytics: { name: 'Campus Analytics', policy_url: 'https://example.edu/analytics-policy' },
      },
    });
  });
  await page.goto('/about');
  let dialog = await openPrivacy(page);
  const analytics = dialog.getByRole('region', { name: 'Analytics' });
  await expect(analytics).toContainText('Campus Analytics');
  await expect(
    analytics.getByRole('link', { name: /how Campus Analytics handles your data/ }),
  ).toHaveAttribute('href', 'https://example.edu/analytics-policy');
  const optOut = analytics.getByRole('checkbox', {
    name: 'Do not measure my visits with Campus Analytics',
  });
  await expect(optOut).not.toBeChecked();
  expect(await storedChoice(page)).toBeNull();
  await expectNoAxeViolations(page, 'the privacy notice with an analytics opt-out');

  await optOut.check();
  await expect(analytics.getByRole('status')).toHaveText(
    'Your visits from this browser are not measured with Campus Analytics.',
  );
  expect(await storedChoice(page)).toBe('true');
  const cookies = await page.context().cookies();
  expect(cookies.map((cookie) => cookie.name).join(' ')).not.toMatch(/analytics/i);
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/privacy-opt-out-${width}.png` });
  }

  // The choice outlives the notice and the visit.
  await page.reload();
  dialog = await openPrivacy(page);
  const again = dialog.getByRole('checkbox', {
    name: 'Do not measure my visits with Campus Analytics',
  });
  await expect(again).toBeChecked();
  await again.uncheck();
  expect(await storedChoice(page)).toBe('false');
});
