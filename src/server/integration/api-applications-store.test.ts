import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationPageSchema } from '../../shared/integration/api-schemas';
import type { DatabaseHandle } from '../db/database';
import { accounts, applicationReceipts, applicationSisIds, applications } from '../db/schema';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { createApiApplicationsStore } from './api-applications-store';
import { CHANGE_LOG_START } from './change-log-store';

describe.each(databaseKinds)('the change feed page built by the database (%s)', (kind) => {
  let database: DatabaseHandle;
  const ids: string[] = [];

  async function submitted(
    email: string,
    answers: Record<string, string>,
    submittedAt: Date | SQL | null,
  ): Promise<string> {
    const [account] = await database.db
      .insert(accounts)
      .values({ email })
      .returning({ id: accounts.id });
    const id = account?.id as string;
    await database.db.insert(applications).values({ accountId: id, answers, submittedAt });
    return id;
  }

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const tricky = await submitted(
      'tricky@example.edu',
      {
        applied_major: '209',
        applied_major_desc: 'Psychology "B.S." \\ Ψ\n\ttab\u0001',
        entry_term: 'FA2026',
        entry_term_desc: '',
      },
      // Microseconds, which the API's timestamps drop as JavaScript's Date does.
      sql`'2026-11-04T10:00:00.123987Z'::timestamptz`,
    );
    await database.db.insert(applicationReceipts).values({
      accountId: tricky,
      number: 'FA26-000001',
      cycle: 'FA26',
      sequence: 1,
      submittedAt: new Date('2026-11-04T10:00:00Z'),
      fingerprint: 'abc',
    });
    await database.db
      .insert(applicationSisIds)
      .values({ accountId: tricky, sisId: 'S1', setByLabel: 'SIS' });
    const plain = await submitted('plain@example.edu', {}, new Date('2026-11-05T08:30:00Z'));
    await submitted('draft@example.edu', { applied_major: '209' }, null);
    const last = await submitted('last@example.edu', {}, new Date('2026-11-06T08:30:00Z'));
    ids.push(tricky, plain, last);
  });

  afterAll(async () => {
    await database?.close();
  });

  it('pages as the API answers, keys in order, text escaped as JSON.stringify does', async () => {
    const store = createApiApplicationsStore(database.db);
    const first = await store.changedSincePage(CHANGE_LOG_START, 2);
    const items = JSON.parse(first.itemsJson);
    expect(items.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
    const [tricky] = items;
    expect(first.itemsJson.startsWith(`[${JSON.stringify(tricky)},`)).toBe(true);
    expect(tricky).toEqual({
      id: ids[0],
      submitted_at: '2026-11-04T10:00:00.123Z',
      changed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      confirmation_number: 'FA26-000001',
      program_code: '209',
      program_label: 'Psychology "B.S." \\ Ψ\n\ttab\u0001',
      entry_term: 'FA2026',
      entry_term_label: null,
      sis_id: 'S1',
      href: `/applications/${ids[0]}`,
    });
    expect(first.hasMore).toBe(true);
    expect(() =>
      applicationPageSchema.parse({ data: items, next_cursor: 'c', has_more: true }),
    ).not.toThrow();

    const rest = await store.changedSincePage(
      { seq: first.lastSeq ?? 0, snapshot: first.snapshot },
      2,
    );
    expect(JSON.parse(rest.itemsJson).map((item: { id: string }) => item.id)).toEqual([ids[2]]);
    expect(rest.hasMore).toBe(false);

    const empty = await store.changedSincePage(
      { seq: rest.lastSeq ?? 0, snapshot: rest.snapshot },
      2,
    );
    expect(empty).toMatchObject({ itemsJson: '[]', lastSeq: null, hasMore: false });
  });
});
