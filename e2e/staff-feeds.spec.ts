import { expect, test } from '@playwright/test';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { applicantThroughApi } from './helpers/applicants';
import { expectAxeClean, screenshots, signInAsNewMember } from './helpers/staff';

// e2e/serve.ts gives the server one feed, e2e-nightly, written into a folder of the run's own.
test('an administrator dry-runs a feed, runs it, sees the run and runs it again', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  await applicantThroughApi(browser, request, validApplicationAnswers(), true);
  await signInAsNewMember(page, 'admin', 'feeds-admin');
  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Feeds' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Feeds' })).toBeFocused();
  const card = page.getByRole('listitem').filter({ hasText: 'e2e-nightly' });
  await expect(card).toContainText('Submitted applications for the student information system');
  await expect(card).toContainText('None: run by hand only');
  await expect(card).toContainText(/folder .*portal-e2e-feeds-.*out/);

  // Every term is kept as it is: the dry run lists them, and says a run is not stopped by them.
  await card.getByRole('button', { name: 'Dry run e2e-nightly' }).click();
  const result = page.getByRole('heading', { level: 2, name: 'Dry run of e2e-nightly' });
  await expect(result).toBeFocused();
  await expect(page.getByRole('status')).toHaveText('Dry run of e2e-nightly finished.');
  const problems = page.getByRole('table', { name: /Values that could not go into the file/ });
  await expect(problems).toBeVisible();
  await expect(problems.getByRole('row').nth(1)).toContainText('TERM (column 2)');
  await expect(problems.getByRole('row').nth(1)).toContainText('Not in the map');
  await expect(page.getByText(/\d+ rows? would be written\. None of these values/)).toBeVisible();
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAxeClean(page, `the feeds page with a dry run at ${width}px`);
  }
  await screenshots(page, 'feeds-dry-run');

  await card.getByRole('button', { name: 'Run now e2e-nightly' }).click();
  const status = page.getByRole('status');
  await expect(status).toHaveText(/^Ran e2e-nightly: \d+ rows? written to e2e-nightly-.+\.csv\.$/);
  const written = Number((await status.textContent())?.match(/: (\d+) row/)?.[1]);
  expect(written).toBeGreaterThan(0);
  const runs = page.getByRole('table', { name: 'Feed runs, newest first' });
  const newest = runs.getByRole('row').nth(1);
  await expect(newest).toContainText('e2e-nightly');
  await expect(newest).toContainText('All applications');
  await expect(newest).toContainText('Succeeded');
  await expect(newest.getByRole('cell').nth(3)).toHaveText(String(written));
  await expect(runs.getByRole('row').nth(2)).toContainText('Dry run');

  // Running again asks first; Cancel leaves things as they are.
  await newest.getByRole('button', { name: /^Run again e2e-nightly/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Run this again?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAxeClean(page, 'the run again dialog');
  await dialog.getByRole('button', { name: 'Run again' }).click();
  await expect(dialog).toBeHidden();
  await expect(status).toHaveText(
    new RegExp(`^Ran e2e-nightly: ${written} rows? written to e2e-nightly-.+\\.csv\\.$`),
  );
  await expect(runs.getByRole('row').nth(1)).toContainText('a run again');
  await expect(runs.getByRole('row').nth(1).getByRole('cell').nth(3)).toHaveText(String(written));
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAxeClean(page, `the feeds page with runs at ${width}px`);
  }
  await screenshots(page, 'feeds-runs');
});
