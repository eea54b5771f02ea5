import { mkdirSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectNoAxeViolations, fieldOf } from './helpers/form';

const SHOTS = '/tmp/shots-lookup-phone';
/** The page a phone shows above its on-screen keyboard. */
const PHONE = { width: 360, height: 520 };

test.use({
  viewport: PHONE,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
});

test.beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

/** The search widget of a lookup field, once it has loaded and taken the focus. */
async function search(page: Page, key: string, label: string): Promise<Locator> {
  await fieldOf(page, key).getByLabel(label).focus();
  const combobox = fieldOf(page, key).getByRole('combobox', { name: label });
  await expect(combobox).toBeFocused();
  return combobox;
}

/** The focus ring drawn for the focused element: its own outline or its field's box around it. */
async function focusRing(page: Page, key: string): Promise<string> {
  return page.evaluate((wrapperId) => {
    const wrapper = document.getElementById(wrapperId);
    for (let element = document.activeElement; element && element !== wrapper; ) {
      const style = getComputedStyle(element);
      if (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0)
        return `${style.outlineStyle} ${style.outlineWidth}`;
      element = element.parentElement;
    }
    return 'none';
  }, key);
}

test('the school and address searches show the focus ring of every other input', async ({
  page,
}) => {
  await page.goto('/about');
  await fieldOf(page, 'first_name').getByRole('textbox').focus();
  const inputRing = await focusRing(page, 'first_name');
  expect(inputRing).toBe('solid 3px');

  await search(page, 'address_line_1', 'Street address');
  expect(await focusRing(page, 'address_line_1')).toBe(inputRing);
  await fieldOf(page, 'address_line_1').screenshot({ path: `${SHOTS}/address-focused-360.png` });

  await page.goto('/education');
  await search(page, 'hs_name', 'High school name');
  expect(await focusRing(page, 'hs_name')).toBe(inputRing);
});

test('on a phone the suggestions open where they can be seen', async ({ page }) => {
  await page.goto('/education');
  const field = fieldOf(page, 'hs_name');
  await expect(field).toBeVisible();
  // The field near the bottom of the screen, where the list would open under the keyboard.
  await page.evaluate(() => {
    const wrapper = document.getElementById('hs_name');
    if (!wrapper) throw new Error('no hs_name field');
    const bottom = wrapper.getBoundingClientRect().bottom + window.scrollY;
    window.scrollTo({ top: bottom - window.innerHeight + 16, behavior: 'instant' });
  });
  const school = await search(page, 'hs_name', 'High school name');
  await school.pressSequentially('stuyves', { delay: 40 });
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option').first()).toContainText('Stuyvesant High School');
  await expect(listbox.getByRole('option', { name: 'Use: stuyves' })).toBeVisible();

  const visible = await page.evaluate(() => ({
    top: window.visualViewport?.offsetTop ?? 0,
    height: window.visualViewport?.height ?? window.innerHeight,
  }));
  const list = await listbox.boundingBox();
  const input = await school.boundingBox();
  expect(list, 'the suggestions are laid out').not.toBeNull();
  expect(input, 'the search field is laid out').not.toBeNull();
  if (!list || !input) return;
  expect(list.y + list.height, 'the last suggestion is on the screen').toBeLessThanOrEqual(
    visible.top + visible.height,
  );
  expect(input.y, 'the search field is still on the screen').toBeGreaterThanOrEqual(visible.top);
  await page.screenshot({ path: `${SHOTS}/school-suggestions-360.png` });
  await expectNoAxeViolations(page, 'school suggestions open on a phone');

  // A tap on a suggestion picks it from there.
  await listbox.getByRole('option').first().tap();
  await expect(fieldOf(page, 'hs_city').getByRole('textbox')).toHaveValue('New York');
});
