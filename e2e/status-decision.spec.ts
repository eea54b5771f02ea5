import { mkdir } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { SUBMITTED_MESSAGE } from '../src/shared/api/application-messages';
import type { ApplicationListResponse } from '../src/shared/staff/application-list-api';
import { decisionUrls } from '../src/shared/staff/decision-api';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { expectNoAxeViolations, seedAnswers, signedInAccount } from './helpers/form';
import { signInAsNewMember } from './helpers/staff';

const SHOTS = '/tmp/shots';

/** The headings of the page's main content, in reading order, as `h1 Text`. */
function headingOutline(page: Page): Promise<string[]> {
  return page
    .getByRole('main')
    .locator('h1, h2, h3, h4, h5, h6')
    .evaluateAll((headings) =>
      headings.map((heading) => `${heading.tagName.toLowerCase()} ${heading.textContent?.trim()}`),
    );
}

test('once a decision is released, the status page leads with it and its reply', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const email = await signedInAccount(page, page.request, 'status-decision');
  await seedAnswers(page, { ...validApplicationAnswers(), first_name: 'Imogen' });
  const submitted = await page.request.post('/api/submit');
  expect(submitted.status(), await submitted.text()).toBe(200);

  // Before a decision the page says the application is in and will be reviewed.
  await page.goto('/completion');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Application Submitted');
  await expect(page.getByText(/will review it/)).toBeVisible();

  // The office records an admit and releases it.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signInAsNewMember(staff, 'admin', 'status-decision');
  const list = await staff.request.get(`/staff/api/applications?q=${encodeURIComponent(email)}`);
  const [row] = ((await list.json()) as ApplicationListResponse).applications;
  expect(row, 'the application in the list').toBeDefined();
  const id = row?.id ?? '';
  const recorded = await staff.request.put(decisionUrls.record(id), { data: { code: 'admit' } });
  expect(recorded.status(), await recorded.text()).toBe(200);
  const released = await staff.request.post(decisionUrls.release(id), { data: {} });
  expect(released.status(), await released.text()).toBe(200);
  await staffContext.close();

  await page.reload();
  const decision = page.getByRole('region', { name: 'Decision on your application' });
  await expect(decision).toContainText('Congratulations, Imogen!');
  // The sample university sets no reply deadline: the letter asks for a reply without a date.
  await expect(decision).toContainText(
    'Please accept or decline this offer on your application status page.',
  );
  await expect(decision).not.toContainText('**');
  // The decision is the page's heading and its first section; what was submitted follows.
  expect(await headingOutline(page)).toEqual([
    'h1 Decision on your application',
    'h2 Congratulations, Imogen!',
    'h2 Application Submitted',
    'h2 Your receipt',
    'h2 What we still need',
    // A college is named: its coursework may still gain a term's grades.
    'h2 Your coursework',
    'h3 Broward College',
    'h2 Your application as a PDF',
  ]);
  await expect(decision.getByRole('button', { name: 'Accept offer' })).toBeVisible();
  // The spec's message is still on /completion, under its own heading, after the decision.
  await expect(page.getByText(SUBMITTED_MESSAGE, { exact: true })).toBeVisible();
  // Nothing above the decision says the application is still to be reviewed.
  await expect(page.getByText(/will review it/)).toHaveCount(0);

  // The first control a keyboard reaches in the page's content is the decision's.
  await page.getByRole('heading', { level: 1 }).focus();
  await page.keyboard.press('Tab');
  await expect(decision.locator(':focus')).toHaveCount(1);

  await expectNoAxeViolations(page, 'the status page with a released decision');
  await mkdir(SHOTS, { recursive: true });
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    // On a phone too, the decision and its letter begin on the first screen.
    const box = await page.getByRole('heading', { level: 1 }).boundingBox();
    expect(box?.y ?? Number.POSITIVE_INFINITY, `the decision's heading at ${width}px`).toBeLessThan(
      800,
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `sideways scroll at ${width}px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/status-decision-${width}.png`, fullPage: true });
  }
});
