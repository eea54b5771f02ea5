import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { applicantThroughApi } from './helpers/applicants';
import { expectAxeClean, screenshots, signInAsNewMember } from './helpers/staff';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

test('an administrator adds a webhook, keeps its secret, sees a delivery and replays it', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const received: Received[] = [];
  const receiver = createServer((incoming, response) => {
    let body = '';
    incoming.setEncoding('utf8');
    incoming.on('data', (chunk: string) => {
      body += chunk;
    });
    incoming.on('end', () => {
      received.push({ headers: incoming.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/admissions-events`;

  try {
    await signInAsNewMember(page, 'admin', 'hooks-admin');
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeFocused();
    await expect(page.getByText('No subscriptions yet.')).toBeVisible();

    // A submit without an event is refused, said in the summary and at the field.
    await page.getByLabel('Receiver URL').fill(url);
    await page.getByRole('button', { name: 'Add subscription' }).click();
    await expect(page.getByRole('region', { name: 'There is a problem' })).toBeFocused();
    await expect(page.getByText('Choose at least one event.').first()).toBeVisible();

    await page.getByLabel('Description').fill('Student information system');
    await page.getByRole('checkbox', { name: /application\.submitted/ }).check();
    await page.getByRole('checkbox', { name: /decision\.released/ }).check();
    await page.getByRole('button', { name: 'Add subscription' }).click();
    const secretBox = page.getByTestId('webhook-secret');
    await expect(secretBox).toBeVisible();
    const secret = (await secretBox.textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await expect(page.getByRole('button', { name: 'Copy signing secret' })).toBeVisible();
    const card = page.getByRole('listitem').filter({ hasText: url });
    await expect(card).toContainText('Active');
    await expect(card).toContainText('applications:read, decisions:read');
    await expectAxeClean(page, 'the webhooks page with a new secret');
    await screenshots(page, 'webhooks-added');

    // The secret is shown once: the page opened again does not show it.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(page.getByTestId('webhook-secret')).toHaveCount(0);
    await expect(page.getByText(secret)).toHaveCount(0);

    await applicantThroughApi(browser, request, validApplicationAnswers(), true);
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
    const first = received[0] as Received;
    const verified = new Webhook(secret).verify(first.body, {
      'webhook-id': String(first.headers['webhook-id']),
      'webhook-timestamp': String(first.headers['webhook-timestamp']),
      'webhook-signature': String(first.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({ type: 'application.submitted' });

    await card.getByRole('button', { name: 'Show deliveries' }).click();
    const delivery = card.getByRole('listitem').filter({ hasText: 'application.submitted' });
    await expect(delivery).toContainText('Delivered');
    await expect(delivery).toContainText('204');
    await expectAxeClean(page, 'the webhooks page with its delivery log');
    await screenshots(page, 'webhooks-log');

    await delivery.getByRole('button', { name: /^Replay/ }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Sent application.submitted again' }),
    ).toContainText('answered 204');
    await expect.poll(() => received.length).toBe(2);
    const again = received[1] as Received;
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(again.body).toBe(first.body);
    await expect(delivery).toContainText('1 replayed');

    await card.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this subscription?' });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectAxeClean(page, 'the delete dialog');
    await dialog.getByRole('button', { name: 'Delete subscription' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Subscriptions' })).toBeFocused();
    await expect(page.getByText('No subscriptions yet.')).toBeVisible();
  } finally {
    receiver.closeAllConnections();
    receiver.close();
  }
});

test('a reader sees no webhooks link and is sent home from the page', async ({ page }) => {
  await signInAsNewMember(page, 'reader', 'hooks-reader');
  await expect(page.getByRole('link', { name: 'Webhooks' })).toHaveCount(0);
  await page.goto('/staff/webhooks');
  await expect(page).toHaveURL(/\/staff\/?$/);
});
