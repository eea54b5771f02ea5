import { expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { SSO_ERROR_MESSAGES } from '../src/shared/staff/sso-errors';
import { createAccount, STRONG_PASSWORD, uniqueEmail } from './helpers/accounts';
import {
  E2E_OIDC,
  expectAxeClean,
  freshCode,
  inviteStaff,
  STAFF_PASSWORD,
  screenshots,
  uniqueStaffEmail,
} from './helpers/staff';

const SESSION_ENDED = 'Your staff session has ended. Please sign in again.';

function heading(page: Page, name: string) {
  return page.getByRole('heading', { level: 1, name });
}

/** Accepts an invitation and enrols an authenticator; returns the key and the code it used. */
async function acceptAndEnrol(page: Page, link: string, email: string, shots: boolean) {
  await page.goto(link);
  await expect(heading(page, 'Accept Your Invitation')).toBeVisible();
  await expect(page.getByLabel('Email address')).toBeVisible();
  if (shots) {
    await expectAxeClean(page, 'the invitation page');
    await screenshots(page, 'invitation');
    // A refused submit: the summary takes the focus and names each field.
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    const summary = page.getByRole('region', { name: 'There is a problem' });
    await expect(summary).toBeFocused();
    await expect(summary.getByRole('link', { name: /^Email address:/ })).toBeVisible();
    await expectAxeClean(page, 'the invitation page with errors');
  }
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(STAFF_PASSWORD);
  await page
    .getByRole('textbox', { name: 'Confirm new password', exact: true })
    .fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Set password and continue' }).click();

  await expect(page).toHaveURL(/\/staff\/enrol$/);
  await expect(heading(page, 'Set Up Your Authenticator')).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = ((await page.getByTestId('totp-key').textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  if (shots) {
    await expectAxeClean(page, 'the enrolment page');
    await screenshots(page, 'enrol');
  }
  const code = await generate({ secret });
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Turn on' }).click();

  await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  if (shots) {
    await expectAxeClean(page, 'the recovery codes');
    await screenshots(page, 'recovery-codes');
    // Continue asks for the box first.
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Confirm that you have saved the codes')).toBeVisible();
    await expect(page.getByLabel('I have saved these codes')).toBeFocused();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download as text' }).click();
    expect((await download).suggestedFilename()).toBe('recovery-codes.txt');
  }
  await page.getByLabel('I have saved these codes').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/staff$/);
  await expect(heading(page, 'Applications')).toBeVisible();
  return { secret, used: new Set([code]) };
}

test('an invited admin enrols, works in the console, signs out and signs in again', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const email = uniqueStaffEmail('admin');
  const link = await inviteStaff(request, email, 'admin');
  const { secret, used } = await acceptAndEnrol(page, link, email, true);

  const banner = page.getByRole('banner');
  await expect(banner).toContainText(email);
  await expect(banner).toContainText('Administrator');
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link', { name: 'Applications' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expectAxeClean(page, 'the home page');
  await screenshots(page, 'home');

  // A search that finds nothing says so in words.
  await page.getByRole('searchbox', { name: 'Search' }).fill('nobody-here@example.com');
  await expect(
    page.getByText('No application matches this search and these filters.'),
  ).toBeVisible();

  // Staff: invite a reader; the session's second factor is fresh, so no step-up is asked.
  await nav.getByRole('link', { name: 'Staff' }).click();
  await expect(heading(page, 'Staff')).toBeFocused();
  const colleague = uniqueStaffEmail('reader');
  await page.getByLabel('Email address').fill(colleague);
  await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('reader');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`We emailed an invitation to ${colleague}.`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(colleague) })).toBeVisible();
  await expectAxeClean(page, 'the staff page');
  await screenshots(page, 'team');
  // Change the new colleague's role, then turn their access off and on again.
  const row = page.getByRole('row', { name: new RegExp(colleague) });
  await row.getByLabel(`Role of ${colleague}`, { exact: true }).selectOption('admin');
  await row.getByRole('button', { name: `Save the role of ${colleague}` }).click();
  await expect(page.getByText(`${colleague} is now administrator.`)).toBeVisible();
  await row.getByRole('button', { name: `Disable ${colleague}` }).click();
  await expect(page.getByText(`${colleague} can no longer sign in.`)).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Disabled', exact: true })).toBeVisible();
  await row.getByRole('button', { name: `Enable ${colleague}` }).click();
  await expect(page.getByText(`${colleague} can sign in again.`)).toBeVisible();

  // Audit log: the invitation is on record; a filter goes into the address.
  await nav.getByRole('link', { name: 'Audit log' }).click();
  await expect(heading(page, 'Audit log')).toBeFocused();
  await expect(page.getByRole('table')).toContainText(colleague);
  await expectAxeClean(page, 'the audit log');
  await screenshots(page, 'audit');
  await page.getByLabel('Person', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/actor=/);
  await expect(page.getByRole('table')).toBeVisible();
  const csv = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  expect((await csv).suggestedFilename()).toMatch(/\.csv$/);

  // Sign out, then in again by keyboard alone with the password and a code of a new step.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/staff\/sign-in$/);
  await expect(page.getByText('You have signed out.')).toBeVisible();
  await expectAxeClean(page, 'the sign-in page');
  await screenshots(page, 'sign-in');

  await page.getByLabel('Email address').focus();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(STAFF_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/staff\/sign-in\/code$/);
  await expect(heading(page, 'Enter Your Code')).toBeVisible();
  await expectAxeClean(page, 'the code page');
  await screenshots(page, 'code');
  const code = await freshCode(secret, used);
  used.add(code);
  await page.getByLabel('6-digit code').fill(code);
  await page.keyboard.press('Enter');
  await expect(heading(page, 'Applications')).toBeVisible();

  // Step-up: the server asks for a fresh second factor (the first invitation call is answered as
  // a session whose factor is older than ten minutes would be); the dialog asks, then retries.
  await nav.getByRole('link', { name: 'Staff' }).click();
  let refused = false;
  await page.route('**/staff/api/staff/invitations', async (route) => {
    if (refused) return route.continue();
    refused = true;
    await route.fulfill({
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'Confirm it is you.', code: 'step_up_required' }),
    });
  });
  const third = uniqueStaffEmail('stepup');
  await page.getByLabel('Email address').fill(third);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('6-digit code')).toBeFocused();
  await expectAxeClean(page, 'the step-up dialog');
  await screenshots(page, 'step-up');
  const stepUpCode = await freshCode(secret, used);
  used.add(stepUpCode);
  await dialog.getByLabel('6-digit code').fill(stepUpCode);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`We emailed an invitation to ${third}.`)).toBeVisible();
  await page.unroute('**/staff/api/staff/invitations');
  await nav.getByRole('link', { name: 'Applications' }).click();

  // The server ends the session: the next call brings the sign-in page with the sentence.
  await page.context().clearCookies();
  await nav.getByRole('link', { name: 'Staff' }).click();
  await expect(page).toHaveURL(/\/staff\/sign-in$/);
  await expect(page.getByText(SESSION_ENDED)).toBeVisible();
});

test('a reader finds an application and creates and revokes a read-only link to it', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const applicant = uniqueEmail('linked');
  await createAccount(request, applicant, { confirm: true });
  // The application exists from the applicant's first sign-in.
  const signIn = await request.post('/public/login', {
    data: { username: applicant, password: STRONG_PASSWORD },
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const email = uniqueStaffEmail('reader');
  await acceptAndEnrol(page, await inviteStaff(request, email, 'reader'), email, false);

  // A reader's console has their queue, and no staff management, reading settings or audit log.
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link')).toHaveText(['Applications', /^My queue/]);
  await expect(nav.getByRole('link', { name: /^My queue\s*,\s*0 open$/ })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('Reader');

  // The list finds the application by its address; its row opens the read-only links.
  await page.getByRole('searchbox', { name: 'Search' }).fill(applicant);
  await page
    .getByRole('button', { name: `Read-only links to the application of ${applicant}` })
    .click();
  await expect(page.getByRole('dialog', { name: 'Read-only links' })).toBeVisible();
  await expect(page.getByText('No read-only links yet.')).toBeVisible();

  // Out of range first: the summary names the field.
  const days = page.getByLabel('Days the link works');
  await days.fill('45');
  await page.getByRole('button', { name: 'Create a read-only link' }).click();
  await expect(page.getByRole('region', { name: 'There is a problem' })).toBeFocused();
  await days.fill('3');
  await page.getByRole('button', { name: 'Create a read-only link' }).click();
  await expect(page.getByText(/It is shown only now/)).toBeVisible();
  const url =
    (await page.locator('code', { hasText: 'service_token' }).first().textContent()) ?? '';
  expect(url).toMatch(/^https?:\/\//);
  await expect(page.getByRole('cell', { name: 'Works', exact: true })).toBeVisible();
  await expectAxeClean(page, 'the home page with a link');
  await screenshots(page, 'home-links');

  await page.getByRole('button', { name: /^Revoke the link created/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'no longer works' })).toBeVisible();
  await expect(page.getByRole('cell', { name: /^Revoked/ })).toBeVisible();

  // Pages the role does not allow send the reader home.
  await page.goto('/staff/audit');
  await expect(page).toHaveURL(/\/staff$/);
});

test('the sign-in page refuses a wrong password and says why, with the focus on the summary', async ({
  page,
}) => {
  await page.goto('/staff/sign-in');
  await expect(heading(page, 'Staff Sign In')).toBeVisible();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('region', { name: 'There is a problem' })).toBeFocused();
  await page.getByLabel('Email address').fill(uniqueStaffEmail('nobody'));
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Not-the-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toBeVisible();
  await expect(page).toHaveURL(/\/staff\/sign-in$/);
});

test('an invitation link that is not valid says so', async ({ page }) => {
  await page.goto('/staff/invitation?token=not-a-real-token-but-long-enough-0000');
  await expect(page.getByRole('alert')).toContainText(/expired|not valid/i);
});

test('a page under /staff without a session goes to the sign-in page; unknown API paths are JSON 404', async ({
  page,
  request,
}) => {
  await page.goto('/staff/audit');
  await expect(page).toHaveURL(/\/staff\/sign-in$/);
  await expect(page.getByText(SESSION_ENDED)).toHaveCount(0);
  const unknown = await request.get('/staff/api/no-such-thing');
  expect(unknown.status()).toBe(404);
  expect(unknown.headers()['content-type']).toContain('application/json');
});

test('a member of the university signs in through its identity provider', async ({ page }) => {
  await page.goto('/staff/sign-in');
  await page.getByRole('link', { name: E2E_OIDC.label }).click();
  await page.getByLabel('Username').fill('sso-admin');
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(/\/staff$/);
  await expect(heading(page, 'Applications')).toBeVisible();
  const banner = page.getByRole('banner');
  await expect(banner).toContainText(E2E_OIDC.accounts['sso-admin'].email);
  await expect(banner).toContainText('Administrator');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('You have signed out.')).toBeVisible();
});

test('a provider account without a staff role is refused with the reason', async ({ page }) => {
  await page.goto('/staff/sign-in');
  await page.getByRole('link', { name: E2E_OIDC.label }).click();
  await page.getByLabel('Username').fill('sso-nobody');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/staff\/sign-in\?error=sso_no_role$/);
  await expect(
    page.getByRole('alert').filter({ hasText: SSO_ERROR_MESSAGES.sso_no_role }),
  ).toBeVisible();
});

test('an idle staff session warns a minute before the time-out, then signs out', async ({
  page,
}) => {
  const idleMs = 30 * 60_000;
  await page.clock.install();
  await page.goto('/staff/sign-in');
  await page.getByRole('link', { name: E2E_OIDC.label }).click();
  await page.getByLabel('Username').fill('sso-admin');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(heading(page, 'Applications')).toBeVisible();

  const prompt = page.getByRole('dialog', { name: 'Are you still there?' });
  await page.clock.fastForward(idleMs - 60_000 - 5000);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.clock.fastForward(6000);
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('you will be signed out in');
  await expect(prompt.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
  await expectAxeClean(page, 'the inactivity prompt');
  await prompt.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(prompt).toBeHidden();

  await page.clock.fastForward(idleMs - 60_000 + 1000);
  await expect(prompt).toBeVisible();
  await page.clock.fastForward(60_000);
  await expect(page).toHaveURL(/\/staff\/sign-in$/);
  await expect(page.getByText('signed out because you were not active')).toBeVisible();
});
