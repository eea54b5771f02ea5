import type { Page } from '@playwright/test';

/** Types a row's cells by keyboard: each Enter moves on, the last one to a new row. */
export async function typeRow(page: Page, cells: string[]): Promise<void> {
  for (const cell of cells) {
    await page.keyboard.type(cell);
    await page.keyboard.press('Enter');
  }
}

/** A paste of spreadsheet lines into the focused cell, as the clipboard delivers it. */
export async function pasteIntoFocused(page: Page, text: string): Promise<void> {
  await page.evaluate((pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    document.activeElement?.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}
