import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { SESSION_INVALID_MESSAGE } from '../src/shared/api/errors';
import { INACTIVITY_PROMPT_BEFORE_MS, INACTIVITY_TIMEOUT_MS } from '../src/shared/constants';
import {
  confirmationCode,
  createAccount,
  logIn,
  NEW_PASSWORD,
  passwordInput,
  resetLinkPath,
  STRONG_PASSWORD,
  toasts,
  uniqueEmail,
} from './helpers/accounts';

const INACTIVITY_MESSAGE = 'You have been automatically logged out due to inactivity.';

async function openAccountMenu(page: Page) {
  await page.getByRole('button', { name: 'Account' }).click();
  return page.getByRole('dialog', { name: 'Account' });
}

test('sign up, confirm, log in, see the account and log out', async ({ page, request }) => {
  const email = uniqueEmail('flow');

  await page.goto('/signup');
  await page.getByLabel('Email address').fill(email);
  await passwordInput(page).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page).toHaveURL(/\/confirm$/);
  await expect(toasts(page).getByText(`We sent a confirmation code to ${email}.`)).toBeVisible();
  await expect(page.getByRole('main')).toContainText(email);

  await page.getByLabel('Confirmation code').fill(await confirmationCode(request, email));
  await page.getByRole('button', { name: 'Confirm Account' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(
    toasts(page).getByText('Your account is confirmed. You can log in now.'),
  ).toBeVisible();
  // The confirmed address carries over to the sign-in form.
  await expect(page.getByLabel('Email address')).toHaveValue(email);
  await passwordInput(page).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/about$/);

  let menu = await openAccountMenu(page);
  await expect(menu).toContainText(email);

  // A logout that fails says so in a dialog; the session stays.
  await page.route('**/api/logout', (route) => route.abort());
  await menu.getByRole('button', { name: 'Log Out' }).click();
  const failure = page.getByRole('dialog', { name: 'Unexpected Error' });
  await expect(failure).toContainText('We could not log you out');
  await page.unroute('**/api/logout');
  await failure.getByRole('button', { name: 'Try again' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(toasts(page).getByText('You have been logged out.')).toBeVisible();
  menu = await openAccountMenu(page);
  await expect(menu.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Log Out' })).toHaveCount(0);
});

test('forgot password, follow the emailed link, reset and log in', async ({ page, request }) => {
  const email = uniqueEmail('reset');
  await createAccount(request, email, { confirm: true });

  await page.goto('/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot$/);
  // The address typed on /login travels along.
  await expect(page.getByLabel('Email address')).toHaveValue(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(toasts(page).getByText(`If an account exists for ${email}`)).toBeVisible();

  await page.goto(await resetLinkPath(request, email));
  await expect(page.getByRole('main')).toContainText(email);
  await passwordInput(page, 'New password').fill(NEW_PASSWORD);
  const confirmInput = passwordInput(page, 'Confirm new password');
  await confirmInput.fill('Something-else-1');
  await confirmInput.blur();
  await expect(page.getByText('passwords must match')).toBeVisible();
  await expect(confirmInput).toHaveAttribute('aria-invalid', 'true');
  await confirmInput.fill(NEW_PASSWORD);
  await expect(page.getByText('passwords must match')).toHaveCount(0);
  await page.getByRole('button', { name: 'Reset Password' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(
    toasts(page).getByText('Your password has been reset. Please log in with your new password.'),
  ).toBeVisible();
  await logIn(page, email, NEW_PASSWORD);
});

test('log-in of an unconfirmed account offers resend, which leads to /confirm', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('unconfirmed');
  await createAccount(request, email, { confirm: false });

  await page.goto('/login');
  // Resend needs a valid address first.
  const username = page.getByLabel('Email address');
  await username.fill('not-an-email');
  await page.getByRole('button', { name: 'Resend confirmation code' }).click();
  await expect(
    page.getByText('You must provide a valid email address to resend a confirmation code.'),
  ).toBeVisible();
  await expect(username).toBeFocused();
  await expect(username).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/login$/);

  await username.fill(email);
  await passwordInput(page).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toContainText('Your account is not confirmed yet.');
  await alert.getByRole('button', { name: 'Resend confirmation code' }).click();

  await expect(page).toHaveURL(/\/confirm$/);
  await expect(toasts(page).getByText(`If ${email} has an account waiting`)).toBeVisible();
  await expect(page.getByRole('main')).toContainText(email);
  await expect(page.getByLabel('Confirmation code')).toBeVisible();
});

test('sign-up validation shows the messages and requirement rows and blocks submit', async ({
  page,
}) => {
  const signupCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/public/signup')) signupCalls.push(request.url());
  });

  await page.goto('/signup');
  const username = page.getByLabel('Email address');
  const password = passwordInput(page);
  const rows = page.getByRole('list', { name: 'Your password:' }).getByRole('listitem');
  await expect(rows).toHaveCount(6);
  // Before anything is typed every row is inactive: neither met nor failed.
  await expect(rows.filter({ hasText: 'not met' })).toHaveCount(0);

  await username.fill('someone@invalid');
  await password.fill('short');
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page.getByText('Your email address must be valid.')).toBeVisible();
  await expect(username).toBeFocused();
  await expect(username).toHaveAttribute('aria-invalid', 'true');
  await expect(username).toHaveAccessibleDescription(/Your email address must be valid\./);
  await expect(password).toHaveAttribute('aria-invalid', 'true');

  const row = (text: string) => rows.filter({ hasText: text });
  await expect(row('is at least 12 characters')).toContainText('(not met)');
  await expect(row('contains at least one uppercase letter')).toContainText('(not met)');
  await expect(row('contains at least one number')).toContainText('(not met)');
  await expect(row('contains at least one special character')).toContainText('(not met)');
  await expect(row('contains at least one lowercase letter')).toContainText('(met)');
  await expect(row('contains no leading or trailing whitespace')).toContainText('(met)');

  // The toggle shows the password and says so.
  const toggle = page.getByRole('button', { name: 'Show password' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(password).toHaveAttribute('type', 'text');
  await expect(page.getByRole('button', { name: 'Hide password' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // Fixing the address moves the refusal to the password.
  await username.fill('someone@example.com');
  await expect(page.getByText('Your email address must be valid.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(password).toBeFocused();
  await expect(page).toHaveURL(/\/signup$/);
  expect(signupCalls).toEqual([]);
});

test('inactivity prompts before the time-out, can be dismissed, and logs out when it runs out', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('idle');
  await createAccount(request, email, { confirm: true });
  await page.clock.install();
  await logIn(page, email, STRONG_PASSWORD);

  const prompt = page.getByRole('dialog', { name: 'Are you still there?' });
  const untilPrompt = INACTIVITY_TIMEOUT_MS - INACTIVITY_PROMPT_BEFORE_MS;

  await page.clock.fastForward(untilPrompt - 5000);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.clock.fastForward(6000);
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('you will be logged out in');
  await expect(prompt.getByRole('button', { name: 'Stay logged in' })).toBeFocused();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations, 'the inactivity prompt').toEqual([]);

  const keepAlive = page.waitForRequest(
    (req) => req.url().endsWith('/api/keep-alive') && req.method() === 'POST',
  );
  await prompt.getByRole('button', { name: 'Stay logged in' }).click();
  expect((await (await keepAlive).response())?.status()).toBe(204);
  await expect(prompt).toBeHidden();
  await expect(page).toHaveURL(/\/about$/);

  // The timer started over: the prompt is back only after the full wait again.
  await page.clock.fastForward(untilPrompt + 1000);
  await expect(prompt).toBeVisible();
  await page.clock.fastForward(INACTIVITY_PROMPT_BEFORE_MS);

  await expect(page).toHaveURL(/\/login$/);
  await expect(toasts(page).getByText(INACTIVITY_MESSAGE)).toBeVisible();
  const menu = await openAccountMenu(page);
  await expect(menu.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await page.keyboard.press('Escape');

  // A laptop lid closed past the time-out: timers never fired, so on waking it logs out at once.
  await logIn(page, email, STRONG_PASSWORD);
  await page.clock.fastForward(INACTIVITY_TIMEOUT_MS + 5 * 60_000);
  await expect(page).toHaveURL(/\/login$/);
  await expect(toasts(page).getByText(INACTIVITY_MESSAGE).first()).toBeVisible();
});

test('an invalid session sends the visitor to /login with the session-invalid message', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'tp_signed_in', value: '1', url: baseURL as string }]);
  await page.goto('/about');
  await expect(page).toHaveURL(/\/login$/);
  await expect(toasts(page).getByText(SESSION_INVALID_MESSAGE)).toBeVisible();
  // The server's 401 cleared the marker, so the next visit is simply anonymous.
  expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('tp_signed_in');
});

test('an anonymous visitor does not ask for the profile', async ({ page }) => {
  const profileCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/profile')) profileCalls.push(request.url());
  });
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
  expect(profileCalls).toEqual([]);
});

test.describe('accessibility of the account screens', () => {
  const screens = [
    { path: '/login', heading: 'Sign In' },
    { path: '/signup', heading: 'Create Account' },
    { path: '/confirm', heading: 'Confirm Your Account' },
    { path: '/forgot', heading: 'Forgot Password' },
    { path: '/reset?username=a@b.co&id=xxxxxxxxxxxxxxxxxxxxxxxx', heading: 'Reset Password' },
  ];

  for (const { path, heading } of screens) {
    test(`axe finds nothing on ${path}`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations).toEqual([]);
    });
  }

  test('axe finds nothing on /signup with validation errors shown', async ({ page }) => {
    await page.goto('/signup');
    await page.getByLabel('Email address').fill('bad');
    await passwordInput(page).fill('weak');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Your email address must be valid.')).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
  });

  test('a broken reset link says so and points to a new request', async ({ page }) => {
    await page.goto('/reset?username=a@b.co');
    await expect(
      page.getByText('This password reset link is not valid. Please request a new one.'),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/forgot',
    );
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
  });
});
