import { expect, type Page, test } from '@playwright/test';
import { makePng } from '../src/server/test/sample-files';
import { toasts } from './helpers/accounts';
import { attachDocument } from './helpers/documents';
import { fieldOf, signedInAccount } from './helpers/form';

/** Counts the page's reads of the converted documents (GET /api/document-answer). */
function countDocumentReads(page: Page): { count: () => number } {
  let count = 0;
  page.on('request', (sent) => {
    if (sent.method() === 'GET' && new URL(sent.url()).pathname === '/api/document-answer')
      count += 1;
  });
  return { count: () => count };
}

test('deleting a document reads the document answers again', async ({ page, request }) => {
  await signedInAccount(page, request, 'refresh-delete');
  await attachDocument(page, 'hs_transcript', {
    name: 'transcript.png',
    mimeType: 'image/png',
    bytes: makePng({ width: 300, height: 200 }),
  });
  await page.goto('/education');
  const transcript = fieldOf(page, 'hs_transcript');
  const remove = transcript.getByRole('button', { name: 'Delete transcript.png' });
  await expect(remove).toBeVisible();
  const reads = countDocumentReads(page);

  await remove.click();
  await page
    .getByRole('dialog', { name: 'Delete File' })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(transcript.getByLabel(/^Choose a file for /)).toBeAttached();
  await expect.poll(() => reads.count()).toBeGreaterThan(0);
});

test('a failed tab switch resets the cached documents, which are read again', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'refresh-tabs');
  await page.goto('/education');
  await expect(fieldOf(page, 'hs_transcript').getByLabel(/^Choose a file for /)).toBeAttached();
  await page.route('**/api/tabs', (route) =>
    route.request().method() === 'PUT' ? route.fulfill({ status: 500 }) : route.fallback(),
  );
  const reads = countDocumentReads(page);

  await page.getByRole('tab', { name: 'Upload from your device' }).click();
  await expect(
    toasts(page).getByText('Error handling tabs for Upload from your device'),
  ).toBeVisible();
  await expect.poll(() => reads.count()).toBeGreaterThan(0);
  await expect(page.getByRole('tab', { name: 'Write it here' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
});
