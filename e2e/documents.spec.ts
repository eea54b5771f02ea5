import { mkdirSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { makePng, makePngOfSize, makeSampleDocx } from '../src/server/test/sample-files';
import { FILE_MAX_BYTES } from '../src/shared/constants';
import {
  FILE_EMPTY_MESSAGE,
  FILE_RULES_HINT,
  FILE_TOO_LARGE_MESSAGE,
  FILE_TYPE_MESSAGE,
} from '../src/shared/documents/file-rules';
import { toasts } from './helpers/accounts';
import { expectNoAxeViolations, fieldOf, profileAnswers, signedInAccount } from './helpers/form';

const SHOTS = '/tmp/shots-files';
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const STATEMENT = 'Personal statement document';
const TRANSCRIPT = 'Unofficial high school transcript';

/** The uploaded file's name as the question shows it (buttons also name it, for screen readers). */
function shownFile(question: Locator, fileName: string): Locator {
  return question
    .getByRole('paragraph')
    .filter({ hasText: new RegExp(`^${fileName.replace('.', '\\.')}$`) });
}

function chooser(question: Locator, label: string): Locator {
  return question.getByLabel(`Choose a file for ${label}`);
}

async function documentAnswers(page: Page): Promise<Record<string, { file_name: string }>> {
  const response = await page.request.get('/api/document-answer');
  expect(response.status()).toBe(200);
  return (await response.json()) as Record<string, { file_name: string }>;
}

/** The Documents section at a phone's and a desktop's width; a dialog, if open, as the viewport. */
async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const dialog = page.getByRole('dialog');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const path = `${SHOTS}/${name}-${width}.png`;
    if (await dialog.count()) await page.screenshot({ path });
    else await page.getByRole('region', { name: 'Documents' }).screenshot({ path });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('an applicant uploads, previews and deletes documents, and a tab waits for an upload', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'files');
  const presigned: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().endsWith('/api/presigned-url')) presigned.push(sent.postData() ?? '');
  });
  await page.goto('/education');
  const transcript = fieldOf(page, 'hs_transcript');
  const transcriptInput = chooser(transcript, TRANSCRIPT);

  // The limits are stated before choosing, and tied to the input.
  await expect(transcript.getByText(FILE_RULES_HINT)).toBeVisible();
  await expect(transcriptInput).toHaveAccessibleDescription(
    new RegExp(FILE_RULES_HINT.slice(0, 20)),
  );
  // Once: not a second time, in other words, from the question's own help.
  expect(((await transcript.textContent()) ?? '').split('1 MB').length - 1).toBe(1);

  // Files the browser can already refuse never reach the server.
  await transcriptInput.setInputFiles({
    name: 'scan.png',
    mimeType: 'image/png',
    buffer: Buffer.from(makePngOfSize(FILE_MAX_BYTES + 4096)),
  });
  await expect(transcript.getByText(FILE_TOO_LARGE_MESSAGE)).toBeVisible();
  await expect(transcriptInput).toHaveAttribute('aria-invalid', 'true');
  await expect(transcriptInput).toHaveAccessibleDescription(new RegExp(FILE_TOO_LARGE_MESSAGE));
  await transcriptInput.setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('my grades'),
  });
  await expect(transcript.getByText(FILE_TYPE_MESSAGE)).toBeVisible();
  await expect(transcript.getByText(FILE_TOO_LARGE_MESSAGE)).toHaveCount(0);
  await transcriptInput.setInputFiles({
    name: 'empty.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.alloc(0),
  });
  await expect(transcript.getByText(FILE_EMPTY_MESSAGE)).toBeVisible();
  expect(presigned).toEqual([]);

  // A real DOCX is uploaded and converted.
  await transcriptInput.setInputFiles({
    name: 'transcript.docx',
    mimeType: DOCX_TYPE,
    buffer: Buffer.from(makeSampleDocx()),
  });
  await expect(transcript.getByText(FILE_EMPTY_MESSAGE)).toHaveCount(0);
  // LibreOffice's run takes 1 s on a quiet machine and several of the app's 2000 ms polls on a
  // busy one, as the keyboard-only test allows for its DOCX.
  await expect(shownFile(transcript, 'transcript.docx')).toBeVisible({ timeout: 30_000 });
  await expect(transcript.getByText(/^\d+(\.\d)? KB · Converted to PDF$/)).toBeVisible();
  expect(presigned).toEqual([JSON.stringify({ answer_key: 'hs_transcript' })]);

  // The statement's upload tab: a PNG, and while it converts the tab cannot be switched.
  const statementTabs = page.getByRole('tablist', { name: 'Personal statement' });
  await statementTabs.getByRole('tab', { name: 'Upload from your device' }).click();
  const statement = fieldOf(page, 'personal_statement_doc');
  // The status reads wait until the blocked switch has been tried, so it happens mid-conversion.
  let releaseStatus = () => {};
  const statusHeld = new Promise<void>((release) => {
    releaseStatus = release;
  });
  const statusUrl = '**/api/pdf/document-answer/personal_statement_doc';
  await page.route(statusUrl, async (route) => {
    if (route.request().method() === 'GET') await statusHeld;
    await route.fallback();
  });
  await chooser(statement, STATEMENT).setInputFiles({
    name: 'essay.png',
    mimeType: 'image/png',
    buffer: Buffer.from(makePng({ width: 600, height: 400 })),
  });
  await expect(statement.getByLabel('Converting essay.png to PDF')).toBeVisible();
  await statement.screenshot({ path: `${SHOTS}/converting-1280.png` });
  const writeTab = statementTabs.getByRole('tab', { name: 'Write it here' });
  await writeTab.click();
  const blocked = page.getByRole('dialog', { name: 'File Upload in Progress' });
  await expect(blocked).toBeVisible();
  await expect(blocked).toContainText('Please wait until the file upload has completed.');
  await shot(page, 'blocked');
  await blocked.getByRole('button', { name: 'OK' }).click();
  await expect(blocked).toHaveCount(0);
  await expect(writeTab).toBeFocused();
  await expect(statementTabs.getByRole('tab', { name: 'Upload from your device' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  releaseStatus();
  await page.unroute(statusUrl);
  await expect(shownFile(statement, 'essay.png')).toBeVisible();
  await expect(statement.getByRole('status')).toHaveText(
    'essay.png is uploaded and converted to PDF.',
  );
  await expect
    .poll(async () => {
      const answers = await profileAnswers(page);
      return [answers.personal_statement_doc, answers.hs_transcript];
    })
    .toEqual(['ANSWERED', 'ANSWERED']);

  await expectNoAxeViolations(page, '/education with uploaded files');
  await shot(page, 'uploaded');

  // The preview: the converted PDF, fetched by its owner and shown in the page.
  const view = statement.getByRole('button', { name: 'View PDF of essay.png' });
  await view.click();
  const preview = page.getByRole('dialog', { name: 'Your file as a PDF' });
  await expect(preview.getByTitle('PDF of essay.png')).toBeVisible();
  await expect(preview.getByRole('link', { name: 'Open in a new tab' })).toHaveAttribute(
    'href',
    /^blob:/,
  );
  await expect(preview.getByRole('link', { name: 'Download essay.pdf' })).toHaveAttribute(
    'download',
    'essay.pdf',
  );
  await expectNoAxeViolations(page, 'the PDF preview');
  await page.screenshot({ path: `${SHOTS}/preview-1280.png` });
  await page.keyboard.press('Escape');
  await expect(preview).toHaveCount(0);
  await expect(view).toBeFocused();

  // Delete, behind its confirmation: Cancel keeps the file, Delete removes it.
  const remove = transcript.getByRole('button', { name: 'Delete transcript.docx' });
  await remove.click();
  const confirm = page.getByRole('dialog', { name: 'Delete File' });
  await expect(confirm).toContainText('Are you sure you want to delete your file?');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoAxeViolations(page, 'the Delete File dialog');
  await shot(page, 'delete-dialog');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(remove).toBeFocused();
  await remove.click();
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(confirm).toHaveCount(0);
  await expect(shownFile(transcript, 'transcript.docx')).toHaveCount(0);
  await expect(transcriptInput).toBeFocused();
  await expect
    .poll(async () => Object.keys(await documentAnswers(page)))
    .toEqual(['personal_statement_doc']);

  // The state is the server's: after a reload the statement is there and the transcript is not.
  await page.reload();
  await expect(shownFile(statement, 'essay.png')).toBeVisible();
  await expect(chooser(transcript, TRANSCRIPT)).toBeAttached();
  expect((await profileAnswers(page)).hs_transcript).toBe('');

  // Switching away from the uploaded statement deletes it, once confirmed.
  await writeTab.click();
  const clear = page.getByRole('dialog', { name: 'Switch and clear your answers?' });
  await clear.getByRole('button', { name: 'Switch and clear' }).click();
  await expect(writeTab).toHaveAttribute('aria-selected', 'true');
  await expect.poll(async () => Object.keys(await documentAnswers(page))).toEqual([]);
  await expect.poll(async () => (await profileAnswers(page)).personal_statement_doc).toBe('');
});

test('a file the server cannot convert is reported, cleared and deleted', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'files-failed');
  await page.goto('/education');
  const transcript = fieldOf(page, 'hs_transcript');
  // Named like a PNG, but its bytes are text: only the server's content check can tell.
  await chooser(transcript, TRANSCRIPT).setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: Buffer.from('this is not really a picture'),
  });
  await expect(
    toasts(page).getByText(`Error uploading file for ${TRANSCRIPT}`, { exact: true }),
  ).toBeVisible();
  const reason = transcript.locator(`[id="hs_transcript-upload-error"]`);
  await expect(reason).not.toBeEmpty();
  await expect(chooser(transcript, TRANSCRIPT)).toHaveAttribute('aria-invalid', 'true');
  await shot(page, 'failed');
  await expect
    .poll(async () => {
      const status = await page.request.get('/api/pdf/document-answer/hs_transcript');
      return ((await status.json()) as { status: string }).status;
    })
    .toBe('NOT_ANSWERED');
  expect((await profileAnswers(page)).hs_transcript).toBe('');
});
