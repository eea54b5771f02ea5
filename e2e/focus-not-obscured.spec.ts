import { expect, type Page, test } from '@playwright/test';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { passwordInput, STRONG_PASSWORD } from './helpers/accounts';
import { fieldOf, seedAnswers, signedInAccount } from './helpers/form';
import { holdRequests } from './helpers/held-requests';
import { focusedElement } from './helpers/keyboard';

const PHONE = { width: 360, height: 740 };
const LAPTOP = { width: 1280, height: 800 };
const TAB_STOPS = 45;

/**
 * What of the focused control a fixed layer (a toast, a dialog, the loading overlay) is drawn
 * over, probed at its centre and just inside its corners; '' when nothing fixed covers it. A
 * visually hidden radio or checkbox is judged by its label, which is what the eye follows.
 */
function coveredBy(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || active === document.body) return '';
    const fixedLayerOf = (node: Element | null): Element | null => {
      for (let at = node; at; at = at.parentElement)
        if (getComputedStyle(at).position === 'fixed') return at;
      return null;
    };
    let target: HTMLElement = active;
    let box = active.getBoundingClientRect();
    const label = active instanceof HTMLInputElement ? active.labels?.[0] : undefined;
    if ((box.width < 4 || box.height < 4) && label) {
      target = label;
      box = label.getBoundingClientRect();
    }
    const own = fixedLayerOf(active);
    const inset = Math.min(2, box.width / 2, box.height / 2);
    const points = [
      [box.left + box.width / 2, box.top + box.height / 2],
      [box.left + inset, box.top + inset],
      [box.right - inset, box.top + inset],
      [box.left + inset, box.bottom - inset],
      [box.right - inset, box.bottom - inset],
    ] as const;
    const centre = points[0];
    if (centre[1] < 0 || centre[1] > window.innerHeight) return 'out of view';
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || target.contains(hit) || active.contains(hit)) continue;
      const layer = fixedLayerOf(hit);
      if (layer && layer !== own)
        return `${layer.tagName.toLowerCase()}.${layer.className} at ${Math.round(x)},${Math.round(y)}`;
    }
    return '';
  });
}

for (const [name, viewport] of Object.entries({ phone: PHONE, laptop: LAPTOP })) {
  test.describe(`on a ${name}`, () => {
    test.use({ viewport });

    test('tabbing through Your Academics with a toast showing, no fixed layer covers the focus', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await signedInAccount(page, page.request, `obscured-${name}`);
      // An error toast stays for minutes: a failed Add Another gives one on this page.
      await page.route('**/api/add-another', (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({ status: 500, json: { message: 'Down for the test.' } })
          : route.fallback(),
      );
      await page.goto('/education');
      await page.getByRole('button', { name: 'Add Another high school' }).click();
      const toast = page
        .getByRole('region', { name: /Notifications/ })
        .getByRole('listitem')
        .filter({ hasText: 'Error adding another high school' });
      await expect(toast).toBeVisible();

      // From the top of the page, through the header, the steps and the page's questions.
      await page.evaluate(() => {
        window.scrollTo(0, 0);
        (document.activeElement as HTMLElement | null)?.blur();
      });
      const credits = fieldOf(page, 'transfer_student_credits');
      let passedCredits = false;
      const visited: string[] = [];
      // Past the college credits question and on into the questions after it.
      for (let stop = 0; stop < TAB_STOPS; stop++) {
        await page.keyboard.press('Tab');
        const what = await focusedElement(page);
        visited.push(what);
        await expect.poll(() => coveredBy(page), { message: `the focus on ${what}` }).toBe('');
        if (await credits.locator(':focus').count()) passedCredits = true;
      }
      expect(passedCredits, `the college credits question among:\n${visited.join('\n')}`).toBe(
        true,
      );
      await expect(toast).toBeVisible();
    });

    test('a toast that arrives over the focused control does not stay over it', async ({
      page,
    }) => {
      await signedInAccount(page, page.request, `obscured-late-${name}`);
      await page.goto('/education');
      const radio = fieldOf(page, 'transfer_student_credits').getByRole('radio').first();
      await radio.focus();
      // The control at the top edge of the screen, where toasts appear.
      await radio.evaluate((element) => {
        const label = (element as HTMLInputElement).labels?.[0] ?? element;
        window.scrollBy(0, label.getBoundingClientRect().top - 4);
      });
      await page.evaluate(() => {
        setTimeout(() => {
          throw new Error('a mistake in the code');
        });
      });
      await expect(
        page.getByRole('region', { name: /Notifications/ }).getByRole('listitem'),
      ).toContainText('Error');
      await expect(radio).toBeFocused();
      await expect.poll(() => coveredBy(page), { message: 'the focused radio' }).toBe('');

      // And at the very top of the page, where the page cannot scroll down to make room.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByRole('link', { name: /Northfield State University/ }).focus();
      await expect.poll(() => coveredBy(page), { message: 'the focused home link' }).toBe('');
    });
  });
}

test('while the loading overlay covers the screen, the keyboard cannot reach what is beneath it', async ({
  page,
  context,
}) => {
  const email = await signedInAccount(page, page.request, 'obscured-overlay');
  await seedAnswers(page, validApplicationAnswers());
  const submitted = await page.request.post('/api/submit');
  expect(submitted.status(), await submitted.text()).toBe(200);
  await context.clearCookies();

  // Signing in leads to /completion, whose loader waits for the decision: held here.
  const answer = await holdRequests(page, '**/api/decision');
  await page.goto('/login');
  await page.getByLabel('Email address').fill(email);
  await passwordInput(page).fill(STRONG_PASSWORD);
  await passwordInput(page).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Loading...' })).toBeVisible();
  for (let stop = 0; stop < 6; stop++) {
    await page.keyboard.press('Tab');
    const what = await focusedElement(page);
    expect(await coveredBy(page), `the focus on ${what}`).toBe('');
  }
  answer();
  await expect(page).toHaveURL(/\/completion$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Application Submitted');
  // The page is the keyboard's again.
  await page.keyboard.press('Tab');
  await expect
    .poll(() =>
      page.evaluate(() => {
        const active = document.activeElement;
        return active !== null && active !== document.body && active.closest('[inert]') === null;
      }),
    )
    .toBe(true);
});
