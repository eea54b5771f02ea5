import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import type { Answers } from '../../src/shared/form/model';
import { createAccount, STRONG_PASSWORD, uniqueEmail } from './accounts';

/** A confirmed account, signed in inside the page's browser context (cookies shared with the page). */
export async function signedInAccount(
  page: Page,
  request: APIRequestContext,
  tag: string,
): Promise<string> {
  const email = uniqueEmail(tag);
  await createAccount(request, email, { confirm: true });
  await logInThroughApi(page, email);
  return email;
}

export async function logInThroughApi(page: Page, email: string): Promise<void> {
  const response = await page.request.post('/public/login', {
    data: { username: email, password: STRONG_PASSWORD },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Saves answers straight into the signed-in account (PUT /api/answer), as the form would. */
export async function seedAnswers(page: Page, answers: Answers): Promise<void> {
  const response = await page.request.put('/api/answer', { data: answers });
  expect(response.status(), await response.text()).toBe(200);
}

export async function profileAnswers(page: Page): Promise<Answers> {
  const response = await page.request.get('/api/profile');
  expect(response.status()).toBe(200);
  return ((await response.json()) as { answer: Answers }).answer;
}

/** The save indicator of a signed-in student. */
export function saveStatus(page: Page): Locator {
  return page.getByRole('status').filter({ hasText: /Saved|Saving|Not saved/ });
}

export async function expectSaved(page: Page): Promise<void> {
  await expect(saveStatus(page)).toHaveText('Saved');
}

/** The field wrapper whose id is the answer key (the target of '/{page}#{key}'). */
export function fieldOf(page: Page, key: string): Locator {
  return page.locator(`[id="${key}"]`);
}

export function steps(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Application steps' });
}

/**
 * Waits for every animation that ends (spinners never do) to finish: colours measured halfway
 * through a toast's or a dialog's fade-in are not the colours anyone reads.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
}

export async function expectNoAxeViolations(page: Page, what: string): Promise<void> {
  await animationsSettled(page);
  // A toast whose time ran out after that wait fades out while axe reads it: it is leaving, and
  // its fading colours are not read either.
  const results = await new AxeBuilder({ page }).exclude('li[data-state="closed"]').analyze();
  expect(results.violations, what).toEqual([]);
}

export const SHOTS_DIR = '/tmp/shots-form';

export async function screenshots(page: Page, name: string): Promise<void> {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS_DIR}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}
