import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupResult } from '../../shared/lookup/lookup-schemas';
import type { DatabaseHandle } from '../db/database';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { countList, searchList } from './list-search';
import { importLookupCsv, readLookupList, storeLookupList } from './lookup-import';

const INSTITUTION_SCHOOLS = 'ceeb,name,city,state\n999001,Lincoln Institution School,Salem,OR\n';

async function names(app: FastifyInstance, text: string, category: string): Promise<string[]> {
  const response = await app.inject({
    url: `/lookup/find?${new URLSearchParams({ text, category })}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LookupResult[]>().map((result) => result.text);
}

// Each import stores some 24,000 schools; on a busy machine PGlite takes longer than the default.
describe.each(databaseKinds)('the default school lists on %s', { timeout: 120_000 }, (kind) => {
  it('are found on a fresh server that imports them', async () => {
    const app = await buildTestApp(kind, { defaultLookupLists: true });
    try {
      expect(await names(app, 'Lincoln', 'hs_ceeb')).toContain('Lincoln High School');
      expect(await names(app, 'University of Florida', 'college_ceeb')).toContain(
        'University of Florida',
      );
    } finally {
      await app.close();
    }
  });

  it('are not imported with LOOKUP_DEFAULT_LISTS=false', async () => {
    const app = await buildTestApp(kind, {
      defaultLookupLists: true,
      env: { LOOKUP_DEFAULT_LISTS: 'false' },
    });
    try {
      expect(await countList(testDatabaseOf(app), 'hs_ceeb')).toBe(0);
      expect(await names(app, 'Lincoln', 'hs_ceeb')).toEqual([]);
    } finally {
      await app.close();
    }
  });

  describe('across starts on one database', () => {
    let database: DatabaseHandle;
    // Each start closes its app; the database stays for the next start, as a server's does.
    const start = () =>
      buildTestApp(kind, {
        defaultLookupLists: true,
        database: { ...database, close: async () => {} },
      });
    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    afterAll(async () => {
      await database.close();
    });

    it('never replaces a list the institution imported, at the next start or later', async () => {
      const first = await start();
      await first.close();
      expect(await countList(database.db, 'hs_ceeb')).toBe(21_434);

      await importLookupCsv(database.db, 'hs_ceeb', INSTITUTION_SCHOOLS);
      const second = await start();
      try {
        expect(await names(second, 'Lincoln', 'hs_ceeb')).toEqual(['Lincoln Institution School']);
        expect(await countList(database.db, 'college_ceeb')).toBe(2_755);
      } finally {
        await second.close();
      }
    });
  });

  it('are stored once when servers on one empty table import them at the same time', async () => {
    const database = await createTestDatabase(kind);
    try {
      const list = readLookupList(INSTITUTION_SCHOOLS);
      // Both have found the table empty; the second to take the lock finds the first's rows.
      const stored = await Promise.all([
        storeLookupList(database.db, 'hs_ceeb', list, { onlyIntoEmpty: true }),
        storeLookupList(database.db, 'hs_ceeb', list, { onlyIntoEmpty: true }),
      ]);
      expect(stored.filter((summary) => summary !== null)).toHaveLength(1);
      expect(await countList(database.db, 'hs_ceeb')).toBe(1);
      // A list already there is left as it is.
      const other = readLookupList('ceeb,name\n000002,Other School\n');
      expect(await storeLookupList(database.db, 'hs_ceeb', other, { onlyIntoEmpty: true })).toBe(
        null,
      );
      const found = await searchList(database.db, 'hs_ceeb', 'school', 5);
      expect(found.map((result) => result.text)).toEqual(['Lincoln Institution School']);
    } finally {
      await database.close();
    }
  });
});
