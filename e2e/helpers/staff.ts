import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { generate } from 'otplib';
import type { TestOidcAccount } from '../../src/server/test/oidc-test-provider';
import type { StaffRole } from '../../src/shared/staff/permissions';
import { clientAddressHeader } from './accounts';
import { devToolsPath } from './dev-tools';
import { animationsSettled } from './form';

/** Meets every password rule; staff choose theirs on the invitation page. */
export const STAFF_PASSWORD = 'Admissions-2026-ok';

export const STAFF_SHOTS = '/tmp/staff-shots';
export const SHOT_WIDTHS = [360, 768, 1280] as const;

export function uniqueStaffEmail(tag: string): string {
  const random = Math.random().toString(36).slice(2, 8);
  return `e2e-staff-${tag}-${Date.now()}-${random}@example.edu`;
}

/** An invitation made as the `staff invite` command makes it; returns the link's path and query. */
export async function inviteStaff(
  request: APIRequestContext,
  email: string,
  role: StaffRole,
): Promise<string> {
  const response = await request.post(devToolsPath('/dev/staff-invitation'), {
    data: { email, role },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const { link } = (await response.json()) as { link: string };
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/**
 * The authenticator's code now, but never one from a time step the server has already taken:
 * it accepts each step once. Polls until the code changes instead of sleeping a fixed time.
 */
export async function freshCode(secret: string, used: ReadonlySet<string>): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        code = await generate({ secret });
        return used.has(code);
      },
      { message: 'a code from a new 30-second step', timeout: 40_000, intervals: [500] },
    )
    .toBe(false);
  return code;
}

/** No axe violations on the page as it is now. */
export async function expectAxeClean(page: Page, what: string): Promise<void> {
  await animationsSettled(page);
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((violation) => `${violation.id}: ${violation.help}`),
    `axe violations on ${what}`,
  ).toEqual([]);
}

/** The page at each width the console supports (and a phone's), saved for review; not committed. */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(STAFF_SHOTS, { recursive: true });
  const original = page.viewportSize() ?? { width: 1280, height: 720 };
  for (const width of SHOT_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${STAFF_SHOTS}/${name}-${width}.png`, fullPage: true });
    // The page never scrolls sideways, on a phone either (a wide table scrolls in its frame).
    const overflow = await page.evaluate(() => {
      const limit = document.documentElement.clientWidth;
      const beyond = [...document.querySelectorAll('body *')]
        .filter((element) => element.getBoundingClientRect().right > limit + 0.5)
        // Inside a scrolling frame is fine: the frame clips it.
        .filter((element) => {
          for (let up = element.parentElement; up; up = up.parentElement) {
            if (getComputedStyle(up).overflowX !== 'visible') return false;
          }
          return true;
        })
        .slice(0, 5)
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
      return { by: document.documentElement.scrollWidth - limit, beyond };
    });
    expect(
      overflow.by,
      `${name} scrolls sideways at ${width}px: ${overflow.beyond.join(', ')}`,
    ).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize(original);
}

/** The test identity provider's client and accounts, shared by e2e/serve.ts and the specs. */
export const E2E_OIDC = {
  clientId: 'transfer-portal-e2e',
  clientSecret: 'e2e-client-secret-0123456789abcdef',
  label: 'Sign in with Test University',
  adminGroup: 'admissions-admins',
  readerGroup: 'admissions-readers',
  accounts: {
    'sso-admin': {
      email: 'e2e-sso-admin@example.edu',
      email_verified: true,
      name: 'Sam Single-Sign-On',
      groups: ['admissions-admins'],
    },
    'sso-nobody': {
      email: 'e2e-sso-nobody@example.edu',
      email_verified: true,
      name: 'No Role',
      groups: ['library'],
    },
  } satisfies Record<string, TestOidcAccount>,
};

/**
 * A new member who accepts an invitation and turns on an authenticator in this page, ending on the
 * console's home. Returns the address and the authenticator's key (for step-up codes).
 */
export async function signInAsNewMember(
  page: Page,
  role: StaffRole,
  tag: string,
): Promise<{ email: string; secret: string }> {
  const email = uniqueStaffEmail(tag);
  // The invitation's steps from an address of their own: the suite accepts more invitations than
  // one address may in 15 minutes (30 checks and acceptances), as it makes more accounts.
  await page.setExtraHTTPHeaders(clientAddressHeader());
  await page.goto(await inviteStaff(page.request, email, role));
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(STAFF_PASSWORD);
  await page
    .getByRole('textbox', { name: 'Confirm new password', exact: true })
    .fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Set password and continue' }).click();
  await expect(page).toHaveURL(/\/staff\/enrol$/);
  const secret = ((await page.getByTestId('totp-key').textContent()) ?? '').replace(/\s+/g, '');
  await page.getByLabel('6-digit code').fill(await generate({ secret }));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByLabel('I have saved these codes').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/staff$/);
  await page.setExtraHTTPHeaders({});
  return { email, secret };
}

/** The list's filters sit in a disclosure, closed on each load so the rows show without scrolling. */
export async function openFilters(page: Page): Promise<void> {
  const details = page.locator('details', {
    has: page.locator('summary', { hasText: /^Filters/ }),
  });
  if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open)))
    await details.locator('summary').click();
}
