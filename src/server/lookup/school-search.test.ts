import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/database';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { importLookupCsv } from './lookup-import';
import { createSchoolSearch } from './school-search';

describe.each(databaseKinds)('the in-memory school search on %s', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('sees a list this server stored at once, and one stored elsewhere after the interval', async () => {
    let clock = 1_000_000;
    const schools = createSchoolSearch(database.db, { checkEveryMs: 10_000, now: () => clock });
    const names = async () =>
      (await schools.search('hs_ceeb', 'school', 5)).map((result) => result.text);
    await importLookupCsv(database.db, 'hs_ceeb', 'ceeb,name\n000001,First School\n');
    expect(await names()).toEqual(['First School']);

    await importLookupCsv(database.db, 'hs_ceeb', 'ceeb,name\n000002,Second School\n');
    schools.changed('hs_ceeb');
    expect(await names()).toEqual(['Second School']);

    // Another process imports a list of the same length: the version still changes.
    await importLookupCsv(database.db, 'hs_ceeb', 'ceeb,name\n000003,Third School\n');
    clock += 5_000;
    expect(await names()).toEqual(['Second School']);
    clock += 5_000;
    // The search that notices answers from the index it has; the rebuild follows.
    await names();
    await expect.poll(names).toEqual(['Third School']);
  });
});
