import { expect, type Locator, type Page, test } from '@playwright/test';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../src/shared/api/errors';
import {
  confirmationCode,
  passwordInput,
  STRONG_PASSWORD,
  toasts,
  uniqueEmail,
} from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/form';

const PHONE = { width: 360, height: 740 };
const LAPTOP = { width: 1280, height: 800 };

/** One toast, by its title; found while a modal dialog hides the rest of the page too. */
function toast(page: Page, title: string): Locator {
  return page
    .getByRole('region', { name: /Notifications/, includeHidden: true })
    .getByRole('listitem', { includeHidden: true })
    .filter({ has: page.getByText(title, { exact: true }) });
}

/** Whether a tap at the centre of the element would reach it, rather than something drawn above it. */
async function receivesTapAtCentre(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && element.contains(hit);
  });
}

/**
 * Whether the element is painted beneath something else at its centre. Pointer events are
 * switched on everywhere for the check, because a modal dialog switches them off outside itself,
 * which would hide what is drawn on top.
 */
async function drawnBeneathAtCentre(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const style = document.createElement('style');
    style.textContent = '* { pointer-events: auto !important; }';
    document.head.append(style);
    try {
      const box = element.getBoundingClientRect();
      const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return hit !== null && !element.contains(hit);
    } finally {
      style.remove();
    }
  });
}

async function signUp(page: Page, email: string): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Email address').fill(email);
  await passwordInput(page).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/confirm$/);
}

test.describe('toasts on a phone', () => {
  test.use({ viewport: PHONE });

  test('a wrong code’s error ends with the right code, and no toast stands in the way', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('toast-phone');
    await signUp(page, email);
    const code = await confirmationCode(request, email);

    await page.getByLabel('Confirmation code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirm Account' }).click();
    await expect(toast(page, 'Confirm Card Error')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Confirm Account' })).toBeEnabled();
    expect(await receivesTapAtCentre(page.getByLabel('Confirmation code'))).toBe(true);
    expect(await receivesTapAtCentre(page.getByRole('button', { name: 'Confirm Account' }))).toBe(
      true,
    );
    await expectNoAxeViolations(page, '/confirm with an error toast');

    await page.getByLabel('Confirmation code').fill(code);
    await page.getByRole('button', { name: 'Confirm Account' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page, 'Account Confirmed')).toBeVisible();
    await expect(toast(page, 'Confirm Card Error')).toHaveCount(0);

    // Nothing covers the button the applicant needs next.
    const signIn = page.getByRole('button', { name: 'Sign In', exact: true });
    expect(await receivesTapAtCentre(signIn)).toBe(true);

    // The space of the toast area that no toast fills lets taps through to the page.
    const region = toasts(page);
    const listBox = await region.getByRole('list').boundingBox();
    const toastBox = await toast(page, 'Account Confirmed').boundingBox();
    if (!listBox || !toastBox) throw new Error('the toast list and its toast have a box');
    const besideTheToast = { x: listBox.x + 2, y: listBox.y + 2 };
    expect(besideTheToast.y).toBeLessThan(toastBox.y);
    const tapped = await page.evaluate(({ x, y }) => {
      const hit = document.elementFromPoint(x, y);
      return hit?.closest('[role="region"]') ? 'toast area' : (hit?.tagName ?? 'nothing');
    }, besideTheToast);
    expect(tapped).not.toBe('toast area');
    await expectNoAxeViolations(page, '/login with a success toast');

    await passwordInput(page).fill(STRONG_PASSWORD);
    await signIn.click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(toast(page, 'Confirm Card Error')).toHaveCount(0);
  });

  test('a failed resend’s error ends when a resend gets through', async ({ page }) => {
    const email = uniqueEmail('toast-resend');
    await signUp(page, email);
    await page.route('**/public/resend-confirm', (route) =>
      route.fulfill({ status: 503, json: { message: 'The mail service is busy.' } }),
    );
    await page.getByRole('button', { name: 'Resend confirmation code' }).click();
    await expect(toast(page, 'Resend Confirmation Code Error')).toContainText(
      'The mail service is busy.',
    );
    await page.unroute('**/public/resend-confirm');
    await page.getByRole('button', { name: 'Resend confirmation code' }).click();
    await expect(toast(page, 'Confirmation Code Sent')).toBeVisible();
    await expect(toast(page, 'Resend Confirmation Code Error')).toHaveCount(0);
  });
});

for (const [device, viewport] of [
  ['a phone', PHONE],
  ['a laptop', LAPTOP],
] as const) {
  test.describe(`toasts and dialogs on ${device}`, () => {
    test.use({ viewport });

    test('an open dialog is drawn above the toasts and stays usable', async ({ page }) => {
      await page.route('**/public/login', (route) =>
        route.fulfill({ status: 503, json: { message: 'Signing in is paused for a minute.' } }),
      );
      await page.goto('/login');
      await page.getByLabel('Email address').fill(uniqueEmail('toast-dialog'));
      await passwordInput(page).fill(STRONG_PASSWORD);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      const failure = toast(page, 'Login Card Error');
      await expect(failure).toContainText('Signing in is paused for a minute.');

      await page.getByRole('button', { name: 'Help' }).click();
      const help = page.getByRole('dialog', { name: 'Help' });
      await expect(help).toBeVisible();
      expect(await drawnBeneathAtCentre(failure)).toBe(true);
      const close = help.getByRole('button', { name: 'Close' });
      expect(await receivesTapAtCentre(close)).toBe(true);
      await close.click();
      await expect(help).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Help' })).toBeFocused();
      await expect(failure).toBeVisible();
    });
  });
}

test('an error nothing else handles shows a toast titled Error', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('a mistake in the code');
    });
  });
  await expect(toast(page, 'Error')).toContainText(GENERIC_SERVER_ERROR_MESSAGE);

  // A second one replaces the first instead of stacking.
  await page.evaluate(() => {
    void Promise.reject(new Error('a promise nobody waited for'));
  });
  await expect(toast(page, 'Error')).toHaveCount(1);
  await expect(toast(page, 'Error')).toContainText(GENERIC_SERVER_ERROR_MESSAGE);

  // It belongs to the screen it happened on.
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(toast(page, 'Error')).toHaveCount(0);
});
