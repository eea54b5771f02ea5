import { expect, type Page, test } from '@playwright/test';
import type { ApplicationListResponse } from '../src/shared/staff/application-list-api';
import { DECISION_MESSAGES } from '../src/shared/staff/decision-api';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { applicantThroughApi, letters } from './helpers/applicants';
import { expectAxeClean, openFilters, screenshots, signInAsNewMember } from './helpers/staff';

const results = (page: Page) => page.getByRole('table', { name: /^Applications/ });

async function idsOf(page: Page, search: string): Promise<string[]> {
  const response = await page.request.get(`/staff/api/applications?${search}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as ApplicationListResponse).applications.map((row) => row.id);
}

test('an administrator records and releases decisions, one at a time and for a list', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  // One family for the single decision, another for the batch: each a search of its own.
  const single = `Decidewell${letters(5)}`;
  const batch = `Batchford${letters(5)}`;
  await applicantThroughApi(
    browser,
    request,
    { ...validApplicationAnswers(), first_name: 'Ada', last_name: single, preferred_name: '' },
    true,
  );
  for (const first of ['Ben', 'Cleo']) {
    await applicantThroughApi(
      browser,
      request,
      { ...validApplicationAnswers(), first_name: first, last_name: batch, preferred_name: '' },
      true,
    );
  }
  // Not submitted: in the list, but a batch leaves it alone.
  await applicantThroughApi(
    browser,
    request,
    { first_name: 'Dan', last_name: batch, preferred_name: '' },
    false,
  );
  await signInAsNewMember(page, 'admin', 'decisions');

  // One application: no decision yet, then Admit.
  const [id] = await idsOf(page, `q=${single}`);
  await page.goto(`/staff/applications/${id}?q=${single}`);
  const section = page.getByRole('region', { name: 'Decision', exact: true });
  await expect(section).toContainText('No decision has been recorded.');
  await section.getByLabel('Record a decision').selectOption({ label: 'Admit' });
  await section.getByRole('button', { name: 'Save decision' }).click();
  await expect(section.getByRole('status')).toHaveText('Decision recorded: Admit.');
  await expect(section).toContainText('Not released');
  await expect(section).toContainText(/By .+, \w{3} \d{1,2}, \d{4}/);
  const history = page.getByRole('region', { name: 'History' });
  // The history names the decision as the tenant labels it, not by its code.
  await expect(history).toContainText('Recorded the decision Admit');

  // A release time in the past is refused with the server's sentence.
  await section.getByLabel('Release at').fill('2020-01-06T09:30');
  await section.getByRole('button', { name: 'Schedule release' }).click();
  await expect(section.getByRole('alert')).toContainText(DECISION_MESSAGES.releaseInPast);

  await expectAxeClean(page, 'an application with an unreleased decision');
  await screenshots(page, 'decisions-application');

  // Release now asks first, since a release cannot be undone; Cancel leaves it unreleased.
  const releaseNow = section.getByRole('button', { name: 'Release now' });
  await releaseNow.click();
  const confirmRelease = page.getByRole('dialog', { name: 'Release this decision now?' });
  await expect(confirmRelease).toContainText('Admit');
  await expect(confirmRelease).toContainText('cannot be undone');
  const cancel = confirmRelease.getByRole('button', { name: 'Cancel' });
  await expect(cancel).toBeFocused();
  // Focus stays inside the dialog while it is open.
  for (let press = 0; press < 3; press++) {
    await page.keyboard.press('Tab');
    await expect(confirmRelease.locator(':focus')).toHaveCount(1);
  }
  await expectAxeClean(page, 'the confirmation of a single release');
  await screenshots(page, 'release-confirm');
  await cancel.click();
  await expect(confirmRelease).toBeHidden();
  await expect(releaseNow).toBeFocused();
  await expect(section).toContainText('Not released');
  await page.keyboard.press('Escape');
  await expect(section).toContainText('Not released');

  // Confirmed: the applicant sees it, and the controls are gone.
  await releaseNow.click();
  await confirmRelease.getByRole('button', { name: 'Release now' }).click();
  await expect(section.getByRole('status')).toHaveText(
    'Released: the applicant can see the decision.',
  );
  await expect(section).toContainText(/Released \w{3} \d{1,2}, \d{4}/);
  await expect(section).toContainText('No reply yet');
  await expect(section.getByRole('button')).toHaveCount(0);
  // The button pressed is gone with the controls: focus goes to the panel, not to the page.
  await expect(section.getByRole('heading', { name: 'Decision', exact: true })).toBeFocused();
  await expect(section.getByRole('combobox')).toHaveCount(0);
  // The release is the portal's own doing, named as such, not by an internal job name.
  const released = history.getByRole('listitem').filter({ hasText: 'Released the decision Admit' });
  await expect(released).toContainText('The portal (automatic release)');
  await expect(history).not.toContainText('decision release');

  // A batch: the list of one family, Waitlist recorded for its two submitted applications.
  await page.goto(`/staff?q=${batch}`);
  const rows = results(page).getByRole('row', { name: new RegExp(batch) });
  await expect(rows).toHaveCount(3);
  await expect(
    results(page).getByRole('columnheader', { name: 'Decision', exact: true }),
  ).toBeVisible();
  const panel = page.getByRole('region', { name: 'Decide for this list' });
  await panel.getByLabel('Decision to record').selectOption({ label: 'Waitlist' });
  await panel.getByRole('button', { name: 'Record for 2 submitted applications' }).click();
  const dialog = page.getByRole('dialog', {
    name: 'Record Waitlist for 2 submitted applications?',
  });
  await expect(dialog).toContainText(`Search “${batch}”`);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Record Waitlist' }).click();
  await expect(panel.getByRole('status')).toHaveText(
    'Recorded for 2; 1 left alone: not submitted or already released.',
  );
  await expect(rows.filter({ hasText: 'Waitlist (not released)' })).toHaveCount(2);
  await expectAxeClean(page, 'the list with unreleased decisions and the batch panel');
  await screenshots(page, 'decisions');

  // Then released now, after a confirmation naming the list.
  await panel.getByRole('button', { name: 'Release now' }).click();
  const release = page.getByRole('dialog', { name: 'Release this list’s decisions now?' });
  await release.getByRole('button', { name: 'Release now' }).click();
  await expect(panel.getByRole('status')).toContainText('Released for 2');
  await expect(rows.filter({ hasText: 'Waitlist' })).toHaveCount(2);
  await expect(rows.filter({ hasText: 'not released' })).toHaveCount(0);

  // The Decision filter keeps its choice in the address and lists the two.
  await openFilters(page);
  await page.getByLabel('Decision', { exact: true }).selectOption({ label: 'Waitlist' });
  await expect(page).toHaveURL(/decision=waitlist/);
  await expect(page.getByRole('status').filter({ hasText: '2 applications found' })).toBeAttached();
  await expect(rows).toHaveCount(2);
  await page.reload();
  await expect(page.getByLabel('Decision', { exact: true })).toHaveValue('waitlist');
  await expect(rows).toHaveCount(2);

  // The Admit of the first family is found by its decision too.
  await page.goto(`/staff?q=${single}&decision=admit`);
  await expect(results(page).getByRole('row', { name: new RegExp(single) })).toContainText('Admit');

  await page.goto(`/staff?q=${batch}&decision=waitlist`);
  await expect(rows).toHaveCount(2);
  await expectAxeClean(page, 'the list filtered by decision');
});
