import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { expectAxeClean, screenshots, signInAsNewMember } from './helpers/staff';

const TOKEN_URL = '/api/v1/oauth/token';

test('an administrator creates an API client, sees its secret once, gets a token, then revokes it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInAsNewMember(page, 'admin', 'api-admin');
  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'API clients' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'API clients' })).toBeFocused();
  await expectAxeClean(page, 'the API clients page');

  // A refused submit names each field and takes the focus to the summary.
  await page.getByRole('button', { name: 'Create client' }).click();
  const summary = page.getByRole('region', { name: 'There is a problem' });
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('listitem')).toHaveText([
    'Name: Enter a name for the client.',
    'Scopes: Choose at least one scope.',
  ]);
  await expectAxeClean(page, 'the API clients page with errors');

  const name = `Banner nightly ${randomBytes(3).toString('hex')}`;
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('checkbox', { name: /applications:read/ }).check();
  await page.getByRole('checkbox', { name: /decisions:read/ }).check();
  await page.getByRole('textbox', { name: 'Rate limit (calls a minute)' }).fill('120');
  await page.getByRole('button', { name: 'Create client' }).click();

  const result = page.getByRole('region', { name: `The client ${name} was created` });
  await expect(result).toBeFocused();
  await expect(result).toContainText('it will not be shown again');
  const clientId = ((await result.getByTestId('client-id').textContent()) ?? '').trim();
  const secret = ((await result.getByTestId('client-secret').textContent()) ?? '').trim();
  expect(clientId).toMatch(/^cli_/);
  expect(secret).toMatch(/^ics_/);
  await expect(result.getByRole('button', { name: 'Copy client secret' })).toBeVisible();

  const table = page.getByRole('table', { name: 'API clients' });
  const row = table.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(clientId);
  await expect(row).toContainText('applications:read');
  await expect(row).toContainText('120 calls a minute');
  await expect(row).toContainText('Active');
  // The list never holds the secret.
  await expect(table).not.toContainText(secret);
  await expectAxeClean(page, 'the API clients page with a new secret');
  await screenshots(page, 'api-clients-created');

  const asked = await page.request.post(TOKEN_URL, {
    form: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
  });
  expect(asked.status()).toBe(200);
  const token = (await asked.json()) as { access_token: string; scope: string };
  expect(token.scope).toBe('applications:read decisions:read');

  // Once stored, the secret leaves the page for good.
  await result.getByRole('button', { name: 'I have stored the secret' }).click();
  await expect(page.getByText(secret)).toHaveCount(0);

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Revoke ${name}?` });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAxeClean(page, 'the revoke confirmation');
  await dialog.getByRole('button', { name: 'Revoke client' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'was revoked' })).toContainText(name);
  await expect(row).toContainText('Revoked');
  await expect(row.getByRole('button', { name: `Revoke ${name}` })).toHaveCount(0);

  const refused = await page.request.post(TOKEN_URL, {
    form: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
  });
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { error: string }).error).toBe('invalid_client');
  await screenshots(page, 'api-clients-revoked');
});

test('a reader sees no API clients link and is sent home from the page', async ({ page }) => {
  await signInAsNewMember(page, 'reader', 'api-reader');
  await expect(page.getByRole('link', { name: 'API clients' })).toHaveCount(0);
  await page.goto('/staff/integrations');
  await expect(page).toHaveURL(/\/staff\/?$/);
  const listed = await page.request.get('/staff/api/integrations/clients');
  expect(listed.status()).toBe(403);
});
