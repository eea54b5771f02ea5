import { type Browser, expect } from '@playwright/test';
import { EQUIVALENCY_COLUMNS } from '../../src/shared/credit/equivalency';
import { equivalencyUrls } from '../../src/shared/credit/equivalency-api';
import type { CreditTableRow } from '../../src/shared/test/credit-fixtures';
import { signInAsNewMember } from './staff';

/** A sending college's equivalency table as the office's file writes it. */
export function equivalencyCsv(ceeb: string, rows: readonly CreditTableRow[]): string {
  return [
    EQUIVALENCY_COLUMNS.join(','),
    ...rows.map(([subject, number, local, units, kind, satisfies]) =>
      [
        ceeb,
        subject,
        number,
        `${subject} ${number}`,
        units,
        local,
        units,
        kind,
        satisfies.join(';'),
      ].join(','),
    ),
  ].join('\n');
}

/**
 * Imports a table through the console's route, as a new administrator in a context of its own.
 * Each spec uses a CEEB code of its own: an import replaces that college's whole table.
 */
export async function importEquivalencies(browser: Browser, csv: string): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAsNewMember(page, 'admin', 'credit-tables');
  const imported = await page.request.post(`${equivalencyUrls.tables}?file_name=table.csv`, {
    headers: { 'content-type': 'text/csv' },
    data: csv,
  });
  expect(imported.status(), await imported.text()).toBe(200);
  await context.close();
}
