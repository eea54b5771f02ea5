import { type ListCategory, normaliseLookupText } from '../../shared/lookup/lookup-api';
import type { LookupRecord, LookupResult } from '../../shared/lookup/lookup-schemas';
import type { AppDatabase } from '../db/database';
import { createLookupStore } from './lookup-store';
import type { SchoolRow } from './school-index';

type ListRow = SchoolRow;

/** Below this many characters a near spelling finds noise rather than the school meant. */
const NEAR_SPELLING_MIN_LENGTH = 4;

export { codePrefixUpperBound } from './lookup-store';

/**
 * Schools in one list matching what the applicant typed, best first:
 * 0. the typed CEEB code itself;
 * 1. names, or codes, that start with the text;
 * 2. names in which a word starts with the text;
 * 3. names holding every typed word;
 * 4. names and cities that together hold every typed word ("lincoln portland").
 * Within a rank: codes in order, else the shorter name first, then A to Z. When nothing matches,
 * near spellings ("stuyvesent") by pg_trgm word similarity.
 */
export async function searchList(
  db: AppDatabase,
  category: ListCategory,
  typed: string,
  maxResults: number,
): Promise<LookupResult[]> {
  const text = normaliseLookupText(typed);
  if (text === '') return [];
  const store = createLookupStore(db);
  const rows = await store.matching(category, text, maxResults);
  const near =
    rows.length === 0 && text.length >= NEAR_SPELLING_MIN_LENGTH && !/^\d+$/.test(text)
      ? await store.nearSpellings(category, text, maxResults)
      : [];
  return [...rows, ...near].map(toResult);
}

export const toResult = (row: ListRow): LookupResult => ({
  text: row.name,
  id: row.id,
  sub_text: subText(row),
});

/** Where the school is and its code, to tell apart schools of the same name. */
export function subText(row: Pick<ListRow, 'city' | 'state' | 'zip' | 'ceeb'>): string {
  const region = [row.state, row.zip].filter(Boolean).join(' ');
  const place = [row.city, region].filter(Boolean).join(', ');
  const code = row.ceeb ? `CEEB ${row.ceeb}` : '';
  return [place, code].filter(Boolean).join(' · ');
}

export async function findListRecord(
  db: AppDatabase,
  category: ListCategory,
  id: string,
): Promise<LookupRecord | null> {
  const row = await createLookupStore(db).findRecord(category, id);
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    address_line_1: row.addressLine1 ?? '',
    city: row.city ?? '',
    state: row.state ?? '',
    zip: row.zip ?? '',
    ceeb: row.ceeb ?? '',
    country: row.country ?? '',
  };
}

/** How many records a category holds (a development start imports only into an empty one). */
export async function countList(db: AppDatabase, category: ListCategory): Promise<number> {
  return createLookupStore(db).count(category);
}

/**
 * A list's version: its row count and the newest transaction that wrote a row. An import
 * replaces a category's rows in one transaction, so every import changes it, even one that keeps
 * the count; reading it scans only the category's rows (decision 039).
 */
export async function listVersion(db: AppDatabase, category: ListCategory): Promise<string> {
  return (await createLookupStore(db).version(category)) ?? '0:';
}

/** A whole list for the in-memory index, with its version read from the same rows. */
export async function loadList(
  db: AppDatabase,
  category: ListCategory,
): Promise<{ rows: ListRow[]; version: string }> {
  const rows = await createLookupStore(db).rowsWithWriter(category);
  let newest: bigint | null = null;
  for (const row of rows) {
    const writer = BigInt(row.writer);
    if (newest === null || writer > newest) newest = writer;
  }
  return {
    rows: rows.map(({ writer: _, ...row }) => row),
    version: `${rows.length}:${newest ?? ''}`,
  };
}
