import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import type { ApplicationListResponse } from '../src/shared/staff/application-list-api';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { applicantThroughApi, letters } from './helpers/applicants';
import { expectFocusOn, tabTo } from './helpers/keyboard';
import { expectAxeClean, STAFF_SHOTS, screenshots, signInAsNewMember } from './helpers/staff';

const READING_VIEWPORT = { width: 1280, height: 800 };
const CRITERIA = [
  'Academic preparation',
  'Coursework for the program',
  'Personal statement',
  'Trajectory and context',
];

/** A member signed in in a browser context of their own, reading at 1280 by 800. */
async function memberPage(browser: Browser, role: 'admin' | 'reader', tag: string) {
  const context = await browser.newContext({ viewport: READING_VIEWPORT });
  const page = await context.newPage();
  const { email } = await signInAsNewMember(page, role, tag);
  return { page, email, close: () => context.close() };
}

async function idsOf(page: Page, search: string): Promise<string[]> {
  const response = await page.request.get(`/staff/api/applications?${search}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as ApplicationListResponse).applications.map((row) => row.id);
}

const reviewPanel = (page: Page) => page.getByRole('region', { name: 'Your read' });
const queuePlace = (page: Page) =>
  reviewPanel(page)
    .getByRole('status')
    .filter({ hasText: /in your queue|Your queue|Not in your queue/ });

/** Chooses a point of a criterion's scale with the keyboard: Tab into it, Space, arrows. */
async function scoreByKeyboard(page: Page, criterion: string, point: number): Promise<void> {
  const group = reviewPanel(page).getByRole('group', { name: new RegExp(`^${criterion}`) });
  await tabTo(page, group.getByRole('radio'), { max: 60 });
  // Tab lands on the checked point, or on the first when none is.
  await page.keyboard.press('Space');
  const first = Number(
    await group
      .getByRole('radio')
      .evaluateAll(
        (radios) =>
          (radios.find((radio) => radio === document.activeElement) as HTMLInputElement | undefined)
            ?.value ?? '1',
      ),
  );
  for (let step = first; step < point; step++) await page.keyboard.press('ArrowRight');
  for (let step = first; step > point; step--) await page.keyboard.press('ArrowLeft');
  await expect(group.locator(`input[value="${point}"]`)).toBeChecked();
}

/** The whole read by keyboard: every criterion, the comment, the recommendation. */
async function readByKeyboard(page: Page, point: number, comment: string): Promise<void> {
  for (const criterion of CRITERIA) await scoreByKeyboard(page, criterion, point);
  const comments = reviewPanel(page).getByLabel('Comments for the committee');
  await tabTo(page, comments);
  await page.keyboard.type(comment);
  const recommendation = reviewPanel(page).getByRole('combobox', { name: /Recommendation/ });
  await tabTo(page, recommendation);
  // Typing a label's first letters chooses it in a closed select, as a keyboard user does.
  await page.keyboard.type('Admit');
  await expect(recommendation).toHaveValue('admit');
}

async function expectReadKept(page: Page, point: number, comment: string): Promise<void> {
  for (const criterion of CRITERIA) {
    const group = reviewPanel(page).getByRole('group', { name: new RegExp(`^${criterion}`) });
    await expect(group.locator(`input[value="${point}"]`)).toBeChecked();
  }
  await expect(reviewPanel(page).getByLabel('Comments for the committee')).toHaveValue(comment);
  await expect(reviewPanel(page).getByRole('combobox', { name: /Recommendation/ })).toHaveValue(
    'admit',
  );
}

/** The part of the page in question at a phone's width and the console's, to look at closely. */
async function closeUps(page: Page, part: Locator, name: string): Promise<void> {
  const original = page.viewportSize() ?? READING_VIEWPORT;
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await part.screenshot({ path: `${STAFF_SHOTS}/${name}-part-${width}.png` });
  }
  await page.setViewportSize(original);
}

function committeeSection(page: Page): Locator {
  return page.getByRole('region', { name: 'Committee: every read' });
}

test('a list is assigned, read by keyboard beside the PDF, blind, a third read, the committee', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const family = `Readwell${letters(6)}`;
  for (const first of ['Ada', 'Bea']) {
    await applicantThroughApi(
      browser,
      request,
      { ...validApplicationAnswers(), first_name: first, last_name: family, preferred_name: '' },
      true,
    );
  }
  const admin = await memberPage(browser, 'admin', 'reading-admin');
  const readerA = await memberPage(browser, 'reader', 'reader-a');
  const readerB = await memberPage(browser, 'reader', 'reader-b');
  const commentA = `First reader's note ${letters(8)}`;
  const commentB = `Second reader's note ${letters(8)}`;

  // 1. The administrator assigns the list of the family to the two readers, second reads blind.
  await admin.page.goto(`/staff?q=${family}`);
  const rows = admin.page
    .getByRole('table', { name: /^Applications/ })
    .getByRole('row', { name: new RegExp(family) });
  await expect(rows).toHaveCount(2);
  const assign = admin.page.getByRole('region', { name: 'Assign this list' });
  await expect(assign).toContainText('2 applications');
  await assign.getByRole('checkbox', { name: new RegExp(readerA.email) }).check();
  await assign.getByRole('checkbox', { name: new RegExp(readerB.email) }).check();
  await expect(
    assign.getByRole('checkbox', { name: 'Add a blind second read by a different reader' }),
  ).toBeChecked();
  await expectAxeClean(admin.page, 'the list with the assign panel open');
  await assign.getByRole('button', { name: 'Assign readers' }).click();
  const confirm = admin.page.getByRole('dialog', { name: 'Assign 2 applications to 2 readers?' });
  await expect(confirm).toContainText('blind second read');
  await confirm.getByRole('button', { name: 'Assign', exact: true }).click();
  await expect(assign.getByRole('status')).toContainText('Assigned 4 reads.');
  await expect(assign.getByRole('status')).toContainText(`${readerA.email}: 2`);

  // 2. Reader A: the queue with its count, then the first application, by keyboard only.
  const a = readerA.page;
  await a.goto('/staff');
  const queueLink = a.getByRole('link', { name: /^My queue/ });
  await tabTo(a, queueLink, { max: 60 });
  await a.keyboard.press('Enter');
  await expect(a).toHaveURL(/\/staff\/queue$/);
  await expect(a.getByRole('heading', { level: 1 })).toHaveText('My queue (2)');
  const queueRows = a.getByRole('table').getByRole('row', { name: new RegExp(family) });
  await expect(queueRows).toHaveCount(2);
  await expectAxeClean(a, 'My queue');
  await screenshots(a, 'reading-queue');

  const firstLink = queueRows.first().getByRole('link');
  const firstName = (await firstLink.textContent()) ?? '';
  await tabTo(a, firstLink, { max: 60 });
  await a.keyboard.press('Enter');
  await expect(a).toHaveURL(/\/staff\/applications\/[^/?]+\?queue=mine$/);
  const applicationId = new URL(a.url()).pathname.split('/').at(-1) ?? '';
  await expect(a.getByRole('heading', { level: 1 })).toHaveText(firstName);
  await expect(queuePlace(a)).toHaveText('1 of 2 in your queue');
  // Reading beside the PDF: the document pane holds the application's PDF.
  const frame = a.getByRole('region', { name: 'Documents' }).locator('iframe');
  await expect(frame).toHaveAttribute('title', 'Application PDF');
  await expect(frame).toHaveAttribute('src', /^blob:/, { timeout: 30_000 });

  await readByKeyboard(a, 5, commentA);
  const saveDraft = reviewPanel(a).getByRole('button', { name: 'Save draft' });
  await tabTo(a, saveDraft);
  await a.keyboard.press('Enter');
  // The waiting autosave may have saved it a moment before the button did.
  const saveStatus = reviewPanel(a).getByRole('status').filter({ hasText: /save/i });
  await expect(saveStatus).toHaveText(
    /^(Draft saved at \d\d:\d\d|No changes since the last save)$/,
  );
  await a.reload();
  await expectReadKept(a, 5, commentA);
  await expect(saveStatus).toHaveText(/^Draft saved at \d\d:\d\d$/);
  await expectAxeClean(a, 'the application page with the review panel');
  await screenshots(a, 'reading-application');
  await closeUps(a, reviewPanel(a), 'reading-panel');
  await a.screenshot({ path: `${STAFF_SHOTS}/reading-application-top-1280.png` });

  // j and k step through the queue, and the place is announced.
  await a.keyboard.press('j');
  await expect(queuePlace(a)).toHaveText('2 of 2 in your queue');
  await expect(a).not.toHaveURL(new RegExp(applicationId));
  await a.keyboard.press('k');
  await expect(queuePlace(a)).toHaveText('1 of 2 in your queue');
  await expect(a).toHaveURL(new RegExp(`${applicationId}\\?queue=mine$`));
  await expectReadKept(a, 5, commentA);
  const submitA = reviewPanel(a).getByRole('button', { name: 'Submit read' });
  await tabTo(a, submitA, { max: 80 });
  await a.keyboard.press('Enter');
  await expect(reviewPanel(a)).toContainText(/First read( \(blind\))?: submitted/);
  await expect(reviewPanel(a)).toContainText('Weighted score');
  // The pressed button is gone with the form: the focus is on the panel, not the page's start.
  await expectFocusOn(reviewPanel(a).getByRole('heading', { name: 'Your read' }), 'the panel');
  await expect(queuePlace(a)).toHaveText('Not in your queue (1 open)');
  // j goes on to the next read to do.
  await a.keyboard.press('j');
  await expect(queuePlace(a)).toHaveText('1 of 1 in your queue');
  await expect(a).not.toHaveURL(new RegExp(applicationId));

  // 3. Reader B opens the same application: nothing of A's read before submitting their own.
  const b = readerB.page;
  await b.goto(`/staff/applications/${applicationId}?queue=mine`);
  await expect(reviewPanel(b).getByRole('button', { name: 'Submit read' })).toBeVisible();
  const others = reviewPanel(b).getByRole('region', { name: 'Other reads' });
  await expect(others).toContainText('Scores hidden until you submit your read');
  await expect(b.locator('body')).not.toContainText(commentA);
  await readByKeyboard(b, 1, commentB);
  const submitB = reviewPanel(b).getByRole('button', { name: 'Submit read' });
  await tabTo(b, submitB);
  await b.keyboard.press('Enter');
  await expect(reviewPanel(b)).toContainText(/Second read( \(blind\))?: submitted/);
  // Now the other read may be seen.
  await expect(others).not.toContainText('Scores hidden');

  // 4. The committee: every read, a third started by the gap, each criterion's mean and spread.
  const adminPage = admin.page;
  await adminPage.goto(`/staff/applications/${applicationId}`);
  const committee = committeeSection(adminPage);
  const reads = committee.getByRole('table').locator('tbody tr');
  await expect(reads).toHaveCount(3);
  await expect(reads.filter({ hasText: 'Submitted' })).toHaveCount(2);
  await expect(reads.filter({ hasText: /Third read/ })).toHaveCount(1);
  await expect(committee).toContainText(commentA);
  await expect(committee).toContainText(commentB);
  await expect(committee).toContainText('Academic preparation');
  await expect(committee).toContainText('Mean score');
  await expectAxeClean(adminPage, 'the committee view');
  await committee.scrollIntoViewIfNeeded();
  await screenshots(adminPage, 'reading-committee');
  await closeUps(adminPage, committee, 'reading-committee');
  const bands = committee.getByRole('checkbox', { name: 'Show score bands' });
  await bands.check();
  await expect(committee.getByRole('table')).toContainText('Strong');
  await expect(committee.getByRole('table')).toContainText('Below range');
  await bands.uncheck();

  // The list finds it as needing a third read.
  expect(await idsOf(adminPage, `q=${family}&review_status=needs_third_read`)).toEqual([
    applicationId,
  ]);

  await committee
    .getByRole('link', { name: 'Decide for this list by recommendation: Admit' })
    .click();
  await expect(adminPage).toHaveURL(/recommendation=admit/);
  const decide = adminPage.getByRole('region', { name: 'Decide for this list' });
  await decide.getByLabel('Decision to record').selectOption({ label: 'Admit' });
  await decide.getByRole('button', { name: /^Record for \d+ submitted application/ }).click();
  const decideDialog = adminPage.getByRole('dialog', { name: /^Record Admit for \d+ submitted/ });
  await decideDialog.getByRole('button', { name: 'Record Admit' }).click();
  await expect(decide.getByRole('status')).toContainText('Recorded for');
  await adminPage.goto(`/staff?q=${family}`);
  await expect(rows.filter({ hasText: 'Admit (not released)' })).toHaveCount(1);

  // 5. The reading settings page.
  await adminPage.goto('/staff/reading');
  await expect(adminPage.getByRole('heading', { level: 1 })).toBeVisible();
  await expectAxeClean(adminPage, 'the reading settings page');

  await readerA.close();
  await readerB.close();
  await admin.close();
});

test('a submit with a missing score shows the error summary and the message under the field', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const family = `Misscore${letters(6)}`;
  await applicantThroughApi(
    browser,
    request,
    { ...validApplicationAnswers(), first_name: 'Cy', last_name: family, preferred_name: '' },
    true,
  );
  // An administrator may start a read of an application nobody assigned them.
  const reader = await memberPage(browser, 'admin', 'reader-missing');
  const page = reader.page;
  const [id] = await idsOf(page, `q=${family}`);
  await page.goto(`/staff/applications/${id}`);
  await reviewPanel(page).getByRole('button', { name: 'Start a read' }).click();
  const academic = reviewPanel(page).getByRole('group', { name: /^Academic preparation/ });
  await academic.locator('input[value="3"]').check();
  await reviewPanel(page).getByRole('button', { name: 'Submit read' }).click();
  const summary = reviewPanel(page).getByRole('region', { name: 'There is a problem' });
  await expectFocusOn(summary, 'the error summary');
  await expect(summary).toContainText('Coursework for the program');
  const missing = reviewPanel(page).getByRole('group', { name: /^Coursework for the program/ });
  await expect(missing).toContainText(/Error:/);
  await expect(missing.getByRole('radio').first()).toHaveAttribute('aria-invalid', 'true');

  // On a phone the form comes after the application: one button takes the reader to it.
  await page.setViewportSize({ width: 360, height: 800 });
  const toReview = page.getByRole('button', { name: 'Go to your read' });
  await toReview.click();
  await expect(reviewPanel(page).getByRole('heading', { name: 'Your read' })).toBeInViewport();
  // The focus is on the form's frame (the panel's parent), so Tab goes on into the form.
  await expect
    .poll(() =>
      reviewPanel(page).evaluate((panel) => panel.parentElement === document.activeElement),
    )
    .toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(toReview).toBeHidden();
  await reader.close();
});
