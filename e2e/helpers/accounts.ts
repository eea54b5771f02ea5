import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { devToolsPath } from './dev-tools';

/** Meets every password rule of spec 000 section 5. */
export const STRONG_PASSWORD = 'Transfer-2026-ok';
export const NEW_PASSWORD = 'Changed-Pass-2027!';

interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
  html: string;
  sent_at: string;
}

/** An address no other test (or earlier run against the same database) uses. */
export function uniqueEmail(tag: string): string {
  const random = Math.random().toString(36).slice(2, 8);
  return `e2e-${tag}-${Date.now()}-${random}@example.com`;
}

/** Polls the development outbox until a message to `to` whose text matches `pattern` arrives. */
export async function waitForMail(
  request: APIRequestContext,
  to: string,
  pattern: RegExp,
): Promise<OutboxEntry> {
  let found: OutboxEntry | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(devToolsPath('/dev/mail.json'));
        const messages = (await response.json()) as OutboxEntry[];
        // Newest first, so a resent code wins over the first one.
        found = messages.find((message) => message.to === to && pattern.test(message.text));
        return found !== undefined;
      },
      { message: `mail to ${to} matching ${pattern}`, timeout: 15_000 },
    )
    .toBe(true);
  return found as OutboxEntry;
}

export async function confirmationCode(request: APIRequestContext, to: string): Promise<string> {
  const mail = await waitForMail(request, to, /Your confirmation code is \d{6}\./);
  const code = /Your confirmation code is (\d{6})\./.exec(mail.text)?.[1];
  expect(code, 'a code in the confirmation mail').toBeTruthy();
  return code as string;
}

/** The path and query of the reset link in the newest reset mail to `to`. */
export async function resetLinkPath(request: APIRequestContext, to: string): Promise<string> {
  const mail = await waitForMail(request, to, /https?:\/\/\S+\/reset\?\S+/);
  const link = /(https?:\/\/\S+\/reset\?\S+)/.exec(mail.text)?.[1];
  expect(link, 'a reset link in the mail').toBeTruthy();
  const url = new URL(link as string);
  return `${url.pathname}${url.search}`;
}

/**
 * An address of its own for each account the API makes (the e2e server trusts this machine as
 * a proxy, e2e/serve.ts): sign-up and confirmation limits are per address, and the whole suite
 * makes more accounts than one address may. Drawn from the benchmarking range 198.18.0.0/15.
 */
export function clientAddressHeader(): Record<string, string> {
  const part = () => Math.floor(Math.random() * 254) + 1;
  return { 'x-forwarded-for': `198.18.${part()}.${part()}` };
}

/** Signs up through the API (no browser needed), optionally confirming with the emailed code. */
export async function createAccount(
  request: APIRequestContext,
  email: string,
  { confirm }: { confirm: boolean },
): Promise<void> {
  const headers = clientAddressHeader();
  const signup = await request.post('/public/signup', {
    headers,
    data: { username: email, password: STRONG_PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(200);
  if (!confirm) {
    return;
  }
  const code = await confirmationCode(request, email);
  const confirmed = await request.post('/public/confirm', {
    headers,
    data: { username: email, code },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
}

/** The toasts' region; Radix also announces each toast in a hidden live region outside it. */
export function toasts(page: Page): Locator {
  return page.getByRole('region', { name: /Notifications/ });
}

export function passwordInput(page: Page, label = 'Password'): Locator {
  return page.getByLabel(label, { exact: true });
}

export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email address').fill(email);
  await passwordInput(page).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/about$/);
}
