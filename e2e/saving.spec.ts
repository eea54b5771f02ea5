import { expect, type Page, test } from '@playwright/test';
import { makePdf } from '../src/server/test/sample-files';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { attachDocument } from './helpers/documents';
import {
  expectNoAxeViolations,
  expectSaved,
  fieldOf,
  profileAnswers,
  saveStatus,
  seedAnswers,
  signedInAccount,
} from './helpers/form';

const KEPT = 'Your answers are kept on this device and will be saved when you try again.';

/** Answers PUT /api/answer with these replies in turn, the last one from then on; counts the saves. */
async function failSaves(page: Page, ...replies: Array<{ status: number; message: string }>) {
  const saves: string[] = [];
  await page.route('**/api/answer', (route) => {
    if (route.request().method() !== 'PUT') return route.fallback();
    saves.push(route.request().postData() ?? '');
    const reply = replies.length > 1 ? replies.shift() : replies[0];
    if (!reply) return route.fallback();
    return route.fulfill({ status: reply.status, json: { message: reply.message } });
  });
  return saves;
}

function errorDialog(page: Page) {
  return page.getByRole('dialog', { name: 'Unexpected Error' });
}

test('a failing save is retried, a refused one is shown at once, and the typed text is kept', async ({
  page,
  request,
}) => {
  await page.clock.install();
  await signedInAccount(page, request, 'save-refused');
  await page.goto('/about');
  const saves = await failSaves(
    page,
    { status: 500, message: 'Something broke on our side.' },
    { status: 500, message: 'Something broke on our side.' },
    { status: 400, message: 'These answers cannot be saved as they are.' },
  );

  const firstName = fieldOf(page, 'first_name').getByRole('textbox');
  await firstName.fill('Grace');
  await expect(saveStatus(page)).toHaveText('Not saved: retrying');

  // The 400 would only fail again: it is shown in a dialog, not sent again.
  const dialog = errorDialog(page);
  await expect(dialog).toContainText('These answers cannot be saved as they are.');
  await expect(dialog).toContainText(KEPT);
  await expect(dialog.getByRole('button', { name: 'Try again' })).toBeFocused();
  expect(saves).toHaveLength(3);
  await expectNoAxeViolations(page, '/about with the save error dialog');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(firstName).toBeFocused();
  await expect(saveStatus(page)).toHaveText('Not saved: kept on this device');
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(2);
  await expectNoAxeViolations(page, '/about with saving given up');
  await page.clock.fastForward(5 * 60_000);
  expect(saves).toHaveLength(3);

  // Typing goes on being kept while saving waits, and all of it survives a reload.
  await fieldOf(page, 'last_name').getByRole('textbox').fill('Hopper');
  await expect(saveStatus(page)).toHaveText('Not saved: kept on this device');
  await page.reload();
  // The reloaded page sends them at once and is refused again; the dialog hides the page from
  // assistive technology meanwhile, so the fields are found by their input.
  await expect(dialog).toContainText('These answers cannot be saved as they are.');
  await expect(fieldOf(page, 'first_name').locator('input')).toHaveValue('Grace');
  await expect(fieldOf(page, 'last_name').locator('input')).toHaveValue('Hopper');

  // Once the server takes them, Try again saves everything.
  await page.unroute('**/api/answer');
  await dialog.getByRole('button', { name: 'Try again' }).click();
  await expect(dialog).toHaveCount(0);
  await expectSaved(page);
  expect(await profileAnswers(page)).toMatchObject({ first_name: 'Grace', last_name: 'Hopper' });
  await page.reload();
  await expect(firstName).toHaveValue('Grace');
  await expectSaved(page);
});

test('a save that keeps failing gives up after its last retry and offers Try again', async ({
  page,
  request,
}) => {
  await page.clock.install();
  await signedInAccount(page, request, 'save-gives-up');
  await page.goto('/about');
  const saves = await failSaves(page, {
    status: 503,
    message: 'The application is closed for maintenance.',
  });

  await fieldOf(page, 'first_name').getByRole('textbox').fill('Ada');
  await expect(saveStatus(page)).toHaveText('Not saved: retrying');
  const dialog = errorDialog(page);
  // Each step moves the page's clock past the next wait (1, 2, 5, 10 and 30 seconds).
  await expect
    .poll(
      async () => {
        await page.clock.fastForward(5000);
        return dialog.isVisible();
      },
      { intervals: [50], timeout: 30_000 },
    )
    .toBe(true);
  await expect(dialog).toContainText('The application is closed for maintenance.');
  expect(saves).toHaveLength(6);
  await page.clock.fastForward(10 * 60_000);
  expect(saves).toHaveLength(6);

  await dialog.getByRole('button', { name: 'Close' }).click();
  const footerStatus = page.getByRole('status').filter({ hasText: 'Not saved' });
  await expect(footerStatus).toHaveText('Not saved: kept on this device');
  await page.unroute('**/api/answer');
  await page.getByRole('button', { name: 'Try again' }).last().click();
  await expectSaved(page);
  expect((await profileAnswers(page)).first_name).toBe('Ada');
});

test('a failed submit is shown in a dialog with the server’s message, and Try again submits', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'submit-fails');
  const answers = { ...validApplicationAnswers() };
  delete answers.legal_agree;
  await seedAnswers(page, answers);
  await attachDocument(page, 'hs_transcript', {
    name: 'transcript.pdf',
    mimeType: 'application/pdf',
    bytes: await makePdf([['Plantation High School transcript of records']]),
  });
  await page.route('**/api/submit', (route) =>
    route.fulfill({ status: 503, json: { message: 'Submissions reopen at noon.' } }),
  );

  await page.goto('/final-steps');
  await fieldOf(page, 'legal_agree').getByRole('checkbox').check();
  const submit = page.getByRole('button', { name: 'Submit' });
  await submit.click();
  const dialog = errorDialog(page);
  await expect(dialog).toContainText('Submissions reopen at noon.');
  await expect(dialog.getByRole('button', { name: 'Try again' })).toBeFocused();
  await expect(page.getByText('Submit Error')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(submit).toBeFocused();

  await submit.click();
  await expect(dialog).toContainText('Submissions reopen at noon.');
  await page.unroute('**/api/submit');
  await dialog.getByRole('button', { name: 'Try again' }).click();
  await expect(page).toHaveURL(/\/completion$/);
});
