import { expect, type Locator, type Page } from '@playwright/test';

/** Whether the element the locator names (any of its matches) has the focus. */
export function hasFocus(locator: Locator): Promise<boolean> {
  return locator.evaluateAll((elements) =>
    elements.some((element) => element === document.activeElement),
  );
}

/** What has the focus, as a person would name it, for failure messages. */
export function focusedElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) return 'body';
    const role = active.getAttribute('role') ?? active.tagName.toLowerCase();
    const name =
      active.getAttribute('aria-label') ??
      (active.id
        ? document.querySelector(`label[for="${CSS.escape(active.id)}"]`)?.textContent
        : null) ??
      active.textContent ??
      '';
    return `${role}: ${name.trim().slice(0, 80)}`;
  });
}

async function pressUntilFocused(
  page: Page,
  target: Locator,
  key: 'Tab' | 'Shift+Tab',
  max: number,
): Promise<number> {
  const visited: string[] = [];
  for (let presses = 0; presses <= max; presses++) {
    if (await hasFocus(target)) return presses;
    if (presses === max) break;
    await page.keyboard.press(key);
    visited.push(await focusedElement(page));
  }
  expect(
    false,
    `${key} did not reach ${target} within ${max} presses; it went through:\n${visited.join('\n')}`,
  ).toBe(true);
  return max;
}

/**
 * Presses Tab until the locator has the focus, and fails if it does not get there within `max`
 * presses: a control the keyboard cannot reach, or a trap that holds the focus, fails the test.
 */
export function tabTo(page: Page, target: Locator, { max = 40 }: { max?: number } = {}) {
  return pressUntilFocused(page, target, 'Tab', max);
}

/** Presses Shift+Tab until the locator has the focus, within `max` presses. */
export function shiftTabTo(page: Page, target: Locator, { max = 40 }: { max?: number } = {}) {
  return pressUntilFocused(page, target, 'Shift+Tab', max);
}

/** Waits until the focus is on the locator. */
export async function expectFocusOn(target: Locator, what: string): Promise<void> {
  await expect.poll(() => hasFocus(target), { message: `the focus is on ${what}` }).toBe(true);
}

/** Waits until the focus is somewhere inside the locator (a dialog, a card). */
export async function expectFocusInside(container: Locator, what: string): Promise<void> {
  await expect
    .poll(
      () =>
        container.evaluateAll((elements) =>
          elements.some((element) => element.contains(document.activeElement)),
        ),
      { message: `the focus is inside ${what}` },
    )
    .toBe(true);
}

export interface ChosenFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/**
 * Opens the operating system's file picker from the focused file input with the keyboard (Space,
 * as a keyboard user would), and picks the file there: the one step outside the page.
 */
export async function chooseFileWithKeyboard(page: Page, file: ChosenFile): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Space');
  await (await chooser).setFiles(file);
}
