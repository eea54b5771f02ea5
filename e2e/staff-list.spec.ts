import { expect, type Page, test } from '@playwright/test';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { applicantThroughApi, letters } from './helpers/applicants';
import { expectAxeClean, openFilters, screenshots, signInAsNewMember } from './helpers/staff';

const results = (page: Page) => page.getByRole('table', { name: /^Applications/ });

test('a reader searches, filters, sorts, saves a view and exports a CSV of the list', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(150_000);
  const family = `Brightwater${letters(5)}`;
  const submittedEmail = await applicantThroughApi(
    browser,
    request,
    { ...validApplicationAnswers(), first_name: 'Zoë', last_name: family, preferred_name: '' },
    true,
  );
  const startedEmail = await applicantThroughApi(
    browser,
    request,
    { first_name: 'Amélie', last_name: family, preferred_name: 'Millie' },
    false,
  );
  await signInAsNewMember(page, 'reader', 'list');

  await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
  await expect(results(page)).toBeVisible();

  // A misspelled family name (a letter left out) and no accent still find both applicants.
  const misspelled = family.replace('ght', 'gt');
  await page.getByRole('searchbox', { name: 'Search' }).fill(`${misspelled} zoe`);
  await expect(page).toHaveURL(new RegExp(`q=${misspelled}`));
  await expect(page.getByRole('status').filter({ hasText: '1 application found' })).toBeAttached();
  const row = results(page).getByRole('row', { name: new RegExp(family) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(submittedEmail);
  await expect(row).toContainText('Submitted');
  await expect(row).toContainText('Psychology (B.S.)');
  await expect(row.getByRole('link', { name: `${family}, Zoë` })).toHaveAttribute(
    'href',
    new RegExp(`^/staff/applications/[^?]+\\?q=${misspelled}`),
  );

  // The filters live in the address: a status there is a ticked box and a narrower list.
  await page.goto(`/staff?q=${family}&status=started`);
  await expect(page.locator('summary', { hasText: 'Filters (1 applied)' })).toBeVisible();
  await openFilters(page);
  await expect(page.getByRole('checkbox', { name: 'Started' })).toBeChecked();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(family);
  await expect(results(page).getByRole('row', { name: /Amélie/ })).toContainText(startedEmail);
  await expect(results(page).getByRole('row', { name: /Zoë/ })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: '1 application found' })).toBeAttached();

  // Ticking another status widens it again.
  await page.getByRole('checkbox', { name: 'Submitted' }).check();
  await expect(page).toHaveURL(/status=started&status=submitted/);
  await expect(results(page).getByRole('row', { name: new RegExp(family) })).toHaveCount(2);

  // A column header sorts, and says so.
  const nameHeader = results(page).getByRole('columnheader', { name: 'Name' });
  await nameHeader.getByRole('button').click();
  await expect(page).toHaveURL(/sort=name&direction=asc/);
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(results(page).getByRole('row').nth(1)).toContainText('Amélie');
  // By keyboard, the Sort by choice above the table (the header buttons are for the pointer,
  // out of the Tab order so the rows are one Tab from the table).
  await page.getByLabel('Sort by').selectOption({ label: 'Name, descending' });
  await expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(results(page).getByRole('row').nth(1)).toContainText('Zoë');

  await expectAxeClean(page, 'the list of applications');
  await screenshots(page, 'list');

  // Save the view, leave it, and come back to it by name.
  const viewName = `Brightwater ${letters(4)}`;
  await page.getByLabel('Name of this view').fill(viewName);
  await page.getByRole('button', { name: 'Save this view' }).click();
  await expect(page.getByText(`The view “${viewName}” is saved.`)).toBeVisible();
  const views = page.getByRole('list', { name: 'Your views' });
  await expect(views.getByRole('link', { name: viewName })).toHaveAttribute('aria-current', 'true');
  // The same name again is refused in the server's words.
  await page.getByLabel('Name of this view').fill(viewName);
  await page.getByRole('button', { name: 'Save this view' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /already/ })).toBeVisible();

  await page.getByRole('link', { name: 'Clear search and filters' }).click();
  await expect(page).toHaveURL(/\/staff\?sort=name&direction=desc$/);
  await expect(page.getByRole('checkbox', { name: 'Started' })).not.toBeChecked();
  await views.getByRole('link', { name: viewName }).click();
  await expect(page).toHaveURL(new RegExp(`q=${family}&status=started&status=submitted`));
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(family);
  await expect(results(page).getByRole('row', { name: new RegExp(family) })).toHaveCount(2);

  // A filter the server refuses says why.
  await page.goto('/staff?submitted_from=2026-05-01&submitted_to=2026-04-01');
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'The first date of the range comes before the last.' }),
  ).toBeVisible();

  // The CSV of the list as filtered (the session's second factor is fresh: no step-up asked).
  await views.getByRole('link', { name: viewName }).click();
  await expect(results(page).getByRole('row', { name: new RegExp(family) })).toHaveCount(2);
  // An export asks for a fresh second factor when the server says so; closing the dialog
  // cancels quietly.
  let refused = false;
  await page.route('**/staff/api/exports/applications.csv?*', async (route) => {
    if (refused) return route.continue();
    refused = true;
    await route.fulfill({
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'Confirm it is you.', code: 'step_up_required' }),
    });
  });
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
  await page.unroute('**/staff/api/exports/applications.csv?*');

  // The columns come in the order the reader picks them, not the catalogue's.
  await page.getByText(/^Choose columns/).click();
  await page.getByRole('button', { name: 'Choose none' }).click();
  const picker = (group: string, name: string) =>
    page
      .getByRole('group', { name: group, exact: true })
      .getByRole('checkbox', { name, exact: true });
  await picker('Application', 'Email address').check();
  await picker('Receipt and decision', 'Decision (label)').check();
  await picker('Receipt and decision', 'Confirmation number').check();
  await picker('Application', 'Application id').check();
  await expect(page.getByText('The file’s columns, in the order chosen:')).toHaveText(
    'The file’s columns, in the order chosen: Email address, Decision (label), Confirmation number, Application id.',
  );
  const csv = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const download = await csv;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const text = await download.createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  });
  expect(text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
    'email,decision_label,confirmation_number,id',
  );
  expect(text).toContain(submittedEmail);
  expect(text).toContain(startedEmail);

  // The PDFs of the same list as a ZIP: a job whose progress shows, then a download.
  await page.getByRole('button', { name: 'Export PDFs (ZIP)' }).click();
  await expect(page.getByRole('progressbar')).toBeVisible();
  await expect(page.getByRole('link', { name: /^Download the ZIP file/ })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByText(/Available until/)).toBeVisible();
  const zip = page.waitForEvent('download');
  await page.getByRole('link', { name: /^Download the ZIP file/ }).click();
  expect((await zip).suggestedFilename()).toMatch(/\.zip$/);
  await expectAxeClean(page, 'the list with a finished export');

  // Delete the view.
  await views.getByRole('button', { name: `Delete the view ${viewName}` }).click();
  await expect(page.getByText(`The view “${viewName}” is deleted.`)).toBeVisible();
  await expect(page.getByText('No saved views yet.', { exact: false })).toBeVisible();
});

test('a reader filters by transfer GPA, sees it in its column and exports the courses', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(90_000);
  const family = `Gradewell${letters(5)}`;
  // (4 x 4.0 + 3 x 3.0 + 3 x 2.0) / 10 = 3.10 on 10 transferable units.
  const coursework = {
    system: 'semester',
    terms: [
      {
        season: 'fall',
        year: 2023,
        status: 'completed',
        courses: [
          { subject: 'MATH', number: '1A', title: 'Calculus', units: '4', grade: 'A' },
          { subject: 'ENGL', number: '1', title: 'Composition', units: '3', grade: 'B' },
          { subject: 'HIST', number: '10', title: 'World History', units: '3', grade: 'C' },
        ],
      },
    ],
  };
  await applicantThroughApi(
    browser,
    request,
    {
      ...validApplicationAnswers(),
      last_name: family,
      college_coursework: JSON.stringify(coursework),
    },
    true,
  );
  await signInAsNewMember(page, 'reader', 'gpa');

  await page.goto(`/staff?q=${family}`);
  const row = results(page).getByRole('row', { name: new RegExp(family) });
  await expect(row).toHaveCount(1);
  const gpaHeader = results(page).getByRole('columnheader', { name: 'Transfer GPA' });
  await expect(gpaHeader).toBeVisible();
  await expect(row.getByRole('cell').nth(9)).toHaveText('3.10');
  await expect(row.getByRole('cell').nth(10)).toHaveText('10.00');
  // No equivalency table for the college: none of the three courses is mapped yet.
  await expect(results(page).getByRole('columnheader', { name: 'Mapped' })).toBeVisible();
  await expect(row.getByRole('cell').nth(11)).toHaveText('0/3');

  // Transfer credit and the tenant's requirements are selects, each in the address.
  await openFilters(page);
  await page.getByLabel('Transfer credit').selectOption({ label: 'Needs review' });
  await expect(page).toHaveURL(/credit=needs_review/);
  await expect(row).toHaveCount(1);
  const requirement = page.getByLabel('Requirement', { exact: true });
  await requirement.selectOption({ label: '60 transferable semester units: Not met' });
  await expect(page).toHaveURL(/requirement=units_60%3Anot_met/);
  await expect(row).toHaveCount(1);
  await expectAxeClean(page, 'the list filtered by transfer credit and a requirement');
  await requirement.selectOption({ label: '60 transferable semester units: Met' });
  await expect(page).toHaveURL(/requirement=units_60%3Amet/);
  await expect(row).toHaveCount(0);
  await page.goto(`/staff?q=${family}`);
  await expect(row).toHaveCount(1);
  await openFilters(page);

  // At least the applicant's GPA keeps the row; a hundredth more leaves it out.
  const gpa = page.getByRole('spinbutton', { name: 'Transfer GPA at least' });
  await gpa.fill('3.1');
  await expect(page).toHaveURL(/gpa_min=3\.1(&|$)/);
  await expect(row).toHaveCount(1);
  await page.getByRole('spinbutton', { name: 'Transferable units at least' }).fill('10');
  await expect(page).toHaveURL(/gpa_min=3\.1&units_min=10/);
  await expect(row).toHaveCount(1);
  await expectAxeClean(page, 'the list filtered by transfer GPA and units');
  // Typed key by key, the box passes through `3.` without clearing itself or the filter.
  await gpa.fill('');
  await gpa.pressSequentially('3.11', { delay: 150 });
  await expect(page).toHaveURL(/gpa_min=3\.11/);
  await expect(gpa).toHaveValue('3.11');
  await expect(row).toHaveCount(0);

  // The address is the filter: the box shows it, and the courses export takes it.
  await page.goto(`/staff?q=${family}&gpa_min=3.1`);
  await openFilters(page);
  await expect(gpa).toHaveValue('3.1');
  await expect(row).toHaveCount(1);
  const courses = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download courses CSV' }).click();
  const download = await courses;
  expect(download.suggestedFilename()).toMatch(/^courses-.*\.csv$/);
  const text = await download.createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  });
  const lines = text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe(
    'application_id,college_ceeb,college_name,term,subject,number,title,units,grade,repeat',
  );
  expect(lines).toHaveLength(4);
  expect(lines[1]).toMatch(/,,Broward College,Fall 2023,MATH,1A,Calculus,4,A,no$/);
});

test('a reader marks a checklist item for a list, finds what is new, and reaches rows by keyboard', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(150_000);
  const family = `Markwell${letters(5)}`;
  for (const first of ['Ada', 'Bea', 'Cal']) {
    await applicantThroughApi(
      browser,
      request,
      { first_name: first, last_name: family, college_name: 'Valley College' },
      false,
    );
  }
  await signInAsNewMember(page, 'reader', 'bulk');

  // The rows at once on a laptop's screen: the filters are closed until asked for.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/staff?q=${family}&sort=name`);
  const rows = results(page).getByRole('row', { name: new RegExp(family) });
  await expect(rows).toHaveCount(3);
  const firstLink = rows.first().getByRole('link');
  const box = await firstLink.boundingBox();
  expect(box && box.y + box.height).toBeLessThanOrEqual(800);

  // From the page's load, the long way: Tab until the first row's name.
  await page.goto(`/staff?q=${family}&sort=name`);
  await expect(rows).toHaveCount(3);
  let longWay = 0;
  while (!(await firstLink.evaluate((link) => link === document.activeElement))) {
    await page.keyboard.press('Tab');
    longWay += 1;
    if (longWay > 60) break;
  }
  // And by "Skip to results", the first stop of the page.
  await page.goto(`/staff?q=${family}&sort=name`);
  await expect(rows).toHaveCount(3);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to results' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(results(page)).toBeFocused();
  let skipWay = 1;
  while (!(await firstLink.evaluate((link) => link === document.activeElement))) {
    await page.keyboard.press('Tab');
    skipWay += 1;
    if (skipWay > 60) break;
  }
  console.info(
    `Tab presses to the first row: ${longWay} the long way, ${skipWay} by the skip link`,
  );
  expect(skipWay).toBe(2);
  expect(longWay).toBeGreaterThan(skipWay);

  // `/` goes to the search from anywhere, but is a character while typing.
  await page.keyboard.press('/');
  const searchBox = page.getByRole('searchbox', { name: 'Search' });
  await expect(searchBox).toBeFocused();
  await expect(searchBox).toHaveValue(family);
  await page.keyboard.press('End');
  await page.keyboard.press('/');
  await expect(searchBox).toHaveValue(`${family}/`);
  await page.keyboard.press('Backspace');

  // Mark the official transcript received for the whole list, confirming its count.
  await page
    .getByRole('combobox', { name: 'Checklist item', exact: true })
    .selectOption({ label: 'Official transcript (first college)' });
  await page.getByRole('radio', { name: 'Received', exact: true }).check();
  await expect(page.getByRole('radio', { name: 'All 3 in this list' })).toBeChecked();
  await page.getByRole('button', { name: 'Mark checklist item' }).click();
  const confirm = page.getByRole('dialog', { name: 'Mark checklist item' });
  await expect(confirm).toContainText(
    'Mark Official transcript (first college) received for 3 applications?',
  );
  await expectAxeClean(page, 'the bulk mark confirmation');
  await confirm.getByRole('button', { name: 'Mark 3' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Marked Official transcript' }),
  ).toHaveText('Marked Official transcript (first college) received for 3 applications.');
  // The missing counts follow: the high school transcript and the fee are still awaited.
  await expect(rows.first().getByRole('cell').nth(8)).toHaveText('2');

  // Ticked rows: two of them, marked back to not received.
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await expect(page.getByText('2 selected', { exact: true })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'The 2 selected' })).toBeChecked();
  await page.getByRole('radio', { name: 'Not received' }).check();
  await page.getByRole('button', { name: 'Mark checklist item' }).click();
  await expect(confirm).toContainText(
    'Mark Official transcript (first college) not received for 2 applications?',
  );
  await confirm.getByRole('button', { name: 'Mark 2' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Marked Official transcript' }),
  ).toHaveText('Marked Official transcript (first college) not received for 2 applications.');
  await expectAxeClean(page, 'the list with rows ticked and a bulk mark done');
  await screenshots(page, 'list-bulk');

  // A list that changed since its count was confirmed is refused in the server's words.
  await page.route('**/staff/api/checklist/bulk', async (route) => {
    const body = route.request().postDataJSON() as Record<string, unknown>;
    await route.continue({ postData: JSON.stringify({ ...body, expected_count: 4 }) });
  });
  await page.getByRole('radio', { name: 'All 3 in this list' }).check();
  await page.getByRole('button', { name: 'Mark checklist item' }).click();
  await confirm.getByRole('button', { name: 'Mark 3' }).click();
  await expect(
    page.getByRole('region', { name: 'Mark checklist item' }).getByRole('alert'),
  ).toContainText('The list now holds 3 applications, not 4. Check the list and confirm again.');
  await page.unroute('**/staff/api/checklist/bulk');

  // New since I last looked: opening one leaves the other two.
  await page.goto(`/staff?q=${family}&sort=name&new_since=true`);
  await expect(rows).toHaveCount(3);
  await rows.first().getByRole('link').click();
  // The application's own heading, not the list's: the opening is recorded once it has loaded.
  await expect(page).toHaveURL(/\/staff\/applications\//);
  await expect(
    page.getByRole('heading', { level: 1, name: new RegExp(`Ada ${family}`) }),
  ).toBeVisible();
  await page.goto(`/staff?q=${family}&sort=name&new_since=true`);
  await expect(rows).toHaveCount(2);
  await expect(results(page)).not.toContainText('Ada');
  await openFilters(page);
  await expect(page.getByRole('combobox', { name: 'New since I last looked' })).toHaveValue('true');
  await expectAxeClean(page, 'the list of what is new since I last looked');
});
