import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/database';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { readDefaultList } from './default-lists';
import { countList, findListRecord } from './list-search';
import {
  importLookupCsv,
  LookupImportError,
  readLookupList,
  storeLookupList,
} from './lookup-import';

function importProblems(csv: string): readonly string[] {
  try {
    readLookupList(csv);
  } catch (error) {
    if (error instanceof LookupImportError) return error.problems;
    throw error;
  }
  throw new Error('the file was accepted');
}

describe('reading a list file', () => {
  it('reads the columns it knows, ignores the others and trims values', () => {
    const list = readLookupList(
      'ceeb,name,address_line_1,city,state,zip,country,ipeds_unitid\n' +
        '1005,Auburn University,"Auburn, Alabama", Auburn ,AL,36849,USA,100858\n',
    );
    expect(list.ignoredColumns).toEqual(['ipeds_unitid']);
    expect(list.rows).toEqual([
      {
        id: '1005',
        name: 'Auburn University',
        address_line_1: 'Auburn, Alabama',
        city: 'Auburn',
        state: 'AL',
        zip: '36849',
        ceeb: '1005',
        country: 'USA',
      },
    ]);
  });

  it('accepts the columns in any order and any case, without the optional ones', () => {
    const list = readLookupList('Name,CEEB\r\nLincoln High School,011635\r\n');
    expect(list.rows).toEqual([
      expect.objectContaining({ id: '011635', name: 'Lincoln High School', city: '', zip: '' }),
    ]);
  });

  it('numbers the campuses that share one code, and uses an id column when there is one', () => {
    const shared = readLookupList('ceeb,name\n1238,North Campus\n1238,South Campus\n1239,Other\n');
    expect(shared.rows.map((row) => row.id)).toEqual(['1238', '1238-2', '1239']);
    const withIds = readLookupList('id,ceeb,name\nA1,1238,North Campus\nA2,1238,South Campus\n');
    expect(withIds.rows.map((row) => row.id)).toEqual(['A1', 'A2']);
  });

  it('writes cities given in capitals as an applicant would, keeping military post offices', () => {
    const csv = [
      'ceeb,name,city',
      '1,One,NEW YORK',
      '2,Two,WINSTON-SALEM',
      "3,Three,COEUR D'ALENE",
      '4,Four,APO',
      '5,Five,McAllen',
      '6,Six,ST. LOUIS',
    ].join('\n');
    expect(readLookupList(csv).rows.map((row) => row.city)).toEqual([
      'New York',
      'Winston-Salem',
      "Coeur D'Alene",
      'APO',
      'McAllen',
      'St. Louis',
    ]);
  });

  it('leaves out rows without a name, saying which', () => {
    const list = readLookupList('ceeb,name,city\n010725,,COFFEEVILLE\n010726,Real School,X\n');
    expect(list.rows.map((row) => row.name)).toEqual(['Real School']);
    expect(list.skipped).toEqual([{ line: 2, reason: 'it has no name, so no one could find it' }]);
  });

  it.each([
    ['an empty file', '', /the file is empty/],
    [
      'a header without name',
      'ceeb,title\n1,x\n',
      /no "name" column; line 1 \(the header\) has: ceeb, title/,
    ],
    ['a header without ceeb', 'name,city\nx,y\n', /no "ceeb" column/],
    ['a repeated column', 'ceeb,name,name\n1,x,y\n', /names "name" twice/],
    ['an empty column name', 'ceeb,name,\n1,x,\n', /empty column name/],
    ['a header and no rows', 'ceeb,name\n', /no rows to import/],
    [
      'a short row',
      'ceeb,name,city\n1,x,y\n2,z\n',
      /^line 3: expected 3 fields as in the header, found 2\.$/,
    ],
    ['an unclosed quote', 'ceeb,name\n1,"x\n2,y\n', /^line 2: a quoted field is never closed\.$/],
    ['an empty code', 'ceeb,name\n,x\n', /^line 2: ceeb is empty\.$/],
    [
      'a code with punctuation',
      'ceeb,name\n12-3,x\n',
      /^line 2: ceeb "12-3" may hold only letters and digits\.$/,
    ],
    [
      'a name too long',
      `ceeb,name\n1,${'n'.repeat(101)}\n`,
      /^line 2: name is longer than 100 characters\.$/,
    ],
    [
      'a city too long',
      `ceeb,name,city\n1,x,${'c'.repeat(46)}\n`,
      /^line 2: city is longer than 45/,
    ],
    [
      'a control character',
      'ceeb,name\n1,"a\u0007b"\n',
      /^line 2: name holds control characters\.$/,
    ],
    ['a repeated id', 'id,ceeb,name\nA,1,x\nA,2,y\n', /^line 3: id "A" repeats line 2\.$/],
  ])('refuses %s with a clear message', (_case, csv, message) => {
    const problems = importProblems(csv);
    expect(
      problems.some((problem) => message.test(problem)),
      problems.join('\n'),
    ).toBe(true);
  });

  it('lists every problem up to a limit, each with its line', () => {
    const rows = Array.from({ length: 30 }, (_, i) => `${i},${'n'.repeat(101)}`).join('\n');
    const problems = importProblems(`ceeb,name\n${rows}\n`);
    expect(problems).toHaveLength(21);
    expect(problems[0]).toMatch(/^line 2: /);
    expect(problems[19]).toMatch(/^line 21: /);
    expect(problems[20]).toBe('(stopped after 20 problems)');
  });

  it('says in its message that nothing was imported', () => {
    expect(() => readLookupList('ceeb,name\n1,"x\n')).toThrow(/^Nothing was imported:\n {2}line 2/);
  });
});

describe.each(databaseKinds)('importing lists on %s', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('imports both default lists in full', async () => {
    const colleges = await importLookupCsv(
      database.db,
      'college_ceeb',
      readDefaultList('college_ceeb'),
    );
    expect(colleges).toMatchObject({
      imported: 2755,
      skipped: [],
      ignoredColumns: ['ipeds_unitid'],
    });
    const schools = await importLookupCsv(database.db, 'hs_ceeb', readDefaultList('hs_ceeb'));
    // One row of the crosswalk has no name.
    expect(schools).toMatchObject({ imported: 21434, ignoredColumns: ['nces_id'] });
    expect(schools.skipped).toHaveLength(1);
    expect(await countList(database.db, 'college_ceeb')).toBe(2755);
    expect(await countList(database.db, 'hs_ceeb')).toBe(21434);

    expect(await findListRecord(database.db, 'college_ceeb', '1005')).toEqual({
      id: '1005',
      name: 'Auburn University',
      address_line_1: 'Auburn, Alabama',
      city: 'Auburn University',
      state: 'AL',
      zip: '36849',
      ceeb: '1005',
      country: 'USA',
    });
    // Two institutions share code 1238; both are kept.
    expect(await findListRecord(database.db, 'college_ceeb', '1238')).not.toBeNull();
    expect(await findListRecord(database.db, 'college_ceeb', '1238-2')).not.toBeNull();
    expect(await findListRecord(database.db, 'hs_ceeb', '053849')).toMatchObject({
      name: 'Technology High',
      city: 'Rohnert Park,',
      ceeb: '053849',
    });
  });

  it('gives the same rows when the same file is imported again', async () => {
    const again = await importLookupCsv(
      database.db,
      'college_ceeb',
      readDefaultList('college_ceeb'),
    );
    expect(again.imported).toBe(2755);
    expect(await countList(database.db, 'college_ceeb')).toBe(2755);
    expect(await countList(database.db, 'hs_ceeb')).toBe(21434);
  });

  it('replaces only its own category', async () => {
    await importLookupCsv(database.db, 'college_ceeb', 'ceeb,name\n9999,Only College\n');
    expect(await countList(database.db, 'college_ceeb')).toBe(1);
    expect(await countList(database.db, 'hs_ceeb')).toBe(21434);
    await importLookupCsv(database.db, 'college_ceeb', readDefaultList('college_ceeb'));
  });

  it('keeps the old list whole when a file is malformed', async () => {
    const malformed = 'ceeb,name,city\n1,Good School,Town\n2,"Broken School,Town\n';
    await expect(importLookupCsv(database.db, 'college_ceeb', malformed)).rejects.toThrow(
      LookupImportError,
    );
    expect(await countList(database.db, 'college_ceeb')).toBe(2755);
  });

  it('keeps the old list whole when storing fails part way', async () => {
    const good = readLookupList(readDefaultList('college_ceeb'));
    // The same id twice only fails at the database, after the first rows went in.
    const failing = { ...good, rows: [...good.rows, good.rows[0] as (typeof good.rows)[number]] };
    await expect(storeLookupList(database.db, 'college_ceeb', failing)).rejects.toThrow();
    expect(await countList(database.db, 'college_ceeb')).toBe(2755);
  });
});
