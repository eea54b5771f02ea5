import { expect, type Page, test } from '@playwright/test';
import { makePng } from '../src/server/test/sample-files';
import { createAccount, passwordInput, STRONG_PASSWORD, uniqueEmail } from './helpers/accounts';
import { fieldOf, signedInAccount } from './helpers/form';
import { holdRequests } from './helpers/held-requests';

/** What has the focus, as a person would name it: 'body', or the element's role and text. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) return 'body';
    const role = active.getAttribute('role') ?? active.tagName.toLowerCase();
    return `${role}: ${active.textContent?.trim() ?? ''}`;
  });
}

test('when an upload finishes, the focus moves from the chooser to the new file card', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'focus-upload');
  await page.goto('/education');
  const transcript = fieldOf(page, 'hs_transcript');
  const input = transcript.getByLabel('Choose a file for Unofficial high school transcript');
  // A keyboard user: the chooser has the focus when the file is picked.
  await input.focus();
  await input.setInputFiles({
    name: 'transcript.png',
    mimeType: 'image/png',
    buffer: Buffer.from(makePng({ width: 300, height: 200 })),
  });
  const view = transcript.getByRole('button', { name: 'View PDF of transcript.png' });
  await expect(view).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => focused(page)).toBe('button: View PDF of transcript.png');
  await expect(view).toBeFocused();
  await expect(transcript.getByRole('status')).toHaveText(
    'transcript.png is uploaded and converted to PDF.',
  );
});

test('after "Switch and clear" chosen with a pointer, the focus is on the chosen tab', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'focus-tabs');
  await page.goto('/education');
  await page.getByRole('textbox', { name: 'Personal statement' }).fill('Why I want to transfer.');
  const write = page.getByRole('tab', { name: 'Write it here' });
  const upload = page.getByRole('tab', { name: 'Upload from your device' });
  const dialog = page.getByRole('dialog', { name: 'Switch and clear your answers?' });

  // Cancelled, the focus goes back to the tab that was pressed; the chosen tab stays chosen.
  await upload.click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(write).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => focused(page)).toBe('tab: Upload from your device');

  await upload.click();
  await dialog.getByRole('button', { name: 'Switch and clear' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(upload).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => focused(page)).toBe('tab: Upload from your device');
  await expect(upload).toBeFocused();
});

test('typing in a tab group before its tab list loads goes on in the same box', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'focus-tab-list');
  // The tab list's code is held back until the applicant is already typing.
  const releaseTabList = await holdRequests(page, '**/assets/signed-in-tabs-*.js');
  await page.goto('/education');
  const statement = page.getByRole('textbox', { name: 'Personal statement' });
  await statement.click();
  await page.keyboard.type('Why I want');
  await expect(page.getByRole('tab', { name: 'Write it here' })).toHaveCount(0);

  releaseTabList();
  await expect(page.getByRole('tab', { name: 'Write it here' })).toBeVisible();
  await expect(statement).toBeFocused();
  await page.keyboard.type(' to transfer.');
  await expect(statement).toHaveValue('Why I want to transfer.');
});

test('after log-in the focus is on the heading of the page that opens', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('focus-login');
  await createAccount(request, email, { confirm: true });
  await page.goto('/login');
  await page.getByLabel('Email address').fill(email);
  await passwordInput(page).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect.poll(() => focused(page)).toBe('h1: About You');
  await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeFocused();
});
