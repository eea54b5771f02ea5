import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListCategory } from '../../shared/lookup/lookup-api';
import { type DatabaseHandle, rowsOf } from '../db/database';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { readDefaultList } from './default-lists';
import { loadList, searchList } from './list-search';
import { readLookupList, storeLookupList } from './lookup-import';
import { buildSchoolIndex, type SchoolRow } from './school-index';
import { wordSimilarity } from './word-similarity';

const school = (id: string, name: string, more: Partial<SchoolRow> = {}): SchoolRow => ({
  id,
  name,
  city: null,
  state: null,
  zip: null,
  ceeb: id,
  ...more,
});

describe('the school index', () => {
  const index = buildSchoolIndex([
    school('000003', 'West High School', { city: 'Salt Lake City' }),
    school('000001', 'High Point Academy'),
    school('000002', 'Lincoln High School', { city: 'Portland', state: 'OR' }),
    school('000004', 'Lincoln High School', { city: 'Tacoma', state: 'WA' }),
    school('100005', 'Stuyvesant High School', { city: 'New York' }),
  ]);
  const names = (text: string, max = 5) => index.search(text, max).map((row) => row.id);

  it('ranks a name starting with the text before a word starting with it', () => {
    expect(names('high')).toEqual(['000001', '000003', '000002', '000004', '100005']);
    expect(names('hi', 2)).toEqual(['000001', '000003']);
  });

  it('ranks the typed code, then codes starting with it, in code order', () => {
    expect(names('000004')).toEqual(['000004']);
    expect(names('0000')).toEqual(['000001', '000002', '000003', '000004']);
  });

  it('finds name and city together, and near spellings only when nothing matches', () => {
    expect(names('lincoln tacoma')).toEqual(['000004']);
    expect(names('stuyvesent')).toEqual(['100005']);
    expect(names('100%_\\')).toEqual([]);
    expect(names('   ')).toEqual([]);
  });
});

/** A small seeded generator, so every run types the same things. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** What applicants type: names whole, cut short, misspelled or shouted, codes, cities, letters. */
function typedTexts(rows: readonly SchoolRow[], schools: number, seed: number): string[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const texts = ['a', 'h', 'st', 'sc', '1', '12', 'the', 'high', 'saint', 'st.', 'zzzz', 'école'];
  // Pieces inside thousands of names, which the index stops scanning once it has enough.
  texts.push('igh', 'chool', 'ool hi', 'igh sch', 'n high');
  for (let n = 0; n < schools; n++) {
    const { name, ceeb, city } = pick(rows);
    const words = name.split(' ');
    const middle = Math.max(1, Math.floor(name.length / 2));
    const swapped = `${name.slice(0, middle - 1)}${name[middle]}${name[middle - 1]}${name.slice(middle + 1)}`;
    const dropped = `${name.slice(0, middle)}${name.slice(middle + 1)}`;
    texts.push(
      name,
      name.slice(0, 1 + Math.floor(next() * 6)),
      `${words[0]} ${(words[1] ?? '').slice(0, 3)}`,
      swapped,
      dropped.toUpperCase(),
      (words[1] ?? name).slice(1),
      ceeb ?? '',
      (ceeb ?? '').slice(0, 1 + Math.floor(next() * 4)),
      city ?? 'x',
      `${words[0]} ${city ?? ''}`,
    );
  }
  return texts;
}

describe('near spellings in the school index', () => {
  it('are those of word similarity over every name, best first', () => {
    const { rows } = readLookupList(readDefaultList('hs_ceeb'));
    const schools = rows.map((row, i) => ({
      id: String(i).padStart(6, '0'),
      name: row.name,
      city: row.city || null,
      state: row.state || null,
      zip: row.zip || null,
      ceeb: row.ceeb || null,
    }));
    const index = buildSchoolIndex(schools);
    const next = random(31);
    const texts = [
      'Plenty Coup sHigh School',
      'West HardinHigh School',
      'stuyvesent',
      'hgih school',
    ];
    while (texts.length < 16) {
      const { name } = schools[Math.floor(next() * schools.length)] as SchoolRow;
      const at = 1 + Math.floor(next() * (name.length - 2));
      const misspelled = `${name.slice(0, at - 1)}${name[at]}${name[at - 1]}${name.slice(at + 1)}`;
      texts.push(texts.length % 3 === 0 ? (misspelled.split(' ')[0] as string) : misspelled);
    }
    const byLength = (name: string) => [...name].length;
    for (const text of texts) {
      const everyName = schools
        .map((row) => ({ row, similarity: wordSimilarity(text, row.name) }))
        .filter((entry) => entry.similarity >= 0.6)
        .sort(
          (a, b) =>
            b.similarity - a.similarity ||
            byLength(a.row.name) - byLength(b.row.name) ||
            (a.row.name < b.row.name ? -1 : a.row.name > b.row.name ? 1 : 0) ||
            (a.row.id < b.row.id ? -1 : 1),
        )
        .slice(0, 5)
        .map((entry) => entry.row.id);
      expect(
        index.nearSpellings(text, 5).map((row) => row.id),
        text,
      ).toEqual(everyName);
    }
  }, 60_000);
});

describe.each(databaseKinds)('the school index against the SQL search on %s', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    for (const category of ['hs_ceeb', 'college_ceeb'] as const) {
      await storeLookupList(database.db, category, readLookupList(readDefaultList(category)));
    }
  }, 60_000);
  afterAll(async () => {
    await database.close();
  });

  it.each<[ListCategory, number]>([
    ['hs_ceeb', 30],
    ['college_ceeb', 12],
  ])(
    'answers the same schools in the same order on %s',
    async (category, schools) => {
      const { rows } = await loadList(database.db, category);
      const index = buildSchoolIndex(rows);
      const texts = typedTexts(rows, schools, category === 'hs_ceeb' ? 7 : 11);
      const differences: string[] = [];
      for (const text of texts) {
        const fromSql = (await searchList(database.db, category, text, 5)).map((row) => row.id);
        const fromIndex = index.search(text, 5).map((row) => row.id);
        if (fromSql.join() !== fromIndex.join())
          differences.push(`${text}: SQL ${fromSql.join()} index ${fromIndex.join()}`);
      }
      expect(texts.length).toBeGreaterThan(schools * 10);
      expect(differences).toEqual([]);
    },
    120_000,
  );

  it("computes pg_trgm's word similarity", async () => {
    const pairs: Array<[string, string]> = [
      ['stuyvesent', 'Stuyvesant High School'],
      ['word', 'two words'],
      ['Farmington Seinor High School', 'Farmington Senior High School'],
      ['hgih school', 'Lincoln High School'],
      ['École', 'Ecole Saint-Jean'],
      ['abc abc', 'xx abc yabc abcd'],
      ['ab', 'a b ab ba'],
      ['!!', 'x'],
    ];
    for (const [query, target] of pairs) {
      const [row] = rowsOf<{ similarity: number }>(
        await database.db.execute(sql`select word_similarity(${query}, ${target}) as similarity`),
      );
      expect(Math.fround(wordSimilarity(query, target)), `${query} / ${target}`).toBe(
        Math.fround(Number(row?.similarity)),
      );
    }
  });
});
