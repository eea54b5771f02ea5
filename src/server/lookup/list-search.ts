import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type ListCategory, normaliseLookupText } from '../../shared/lookup/lookup-api';
import type { LookupRecord, LookupResult } from '../../shared/lookup/lookup-schemas';
import { type AppDatabase, rowsOf } from '../db/database';
import { lookupRecords } from '../db/schema';
import type { SchoolRow } from './school-index';

type ListRow = SchoolRow;

const columns = sql.join(
  [
    sql`${lookupRecords.id} as id`,
    sql`${lookupRecords.name} as name`,
    sql`${lookupRecords.city} as city`,
    sql`${lookupRecords.state} as state`,
    sql`${lookupRecords.zip} as zip`,
    sql`${lookupRecords.ceeb} as ceeb`,
  ],
  sql`, `,
);

/** Shorter texts match only at the start of a word: "a" anywhere would match most schools. */
const ANYWHERE_MIN_LENGTH = 3;
/** Below this many characters a near spelling finds noise rather than the school meant. */
const NEAR_SPELLING_MIN_LENGTH = 4;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * The smallest code above every code starting with `digits` ('129' -> '13'), so a code prefix is
 * a range the (category, ceeb) index can scan; null when there is none ('99').
 */
export function codePrefixUpperBound(digits: string): string | null {
  const kept = digits.replace(/9+$/, '');
  if (kept === '') return null;
  return `${kept.slice(0, -1)}${Number(kept.slice(-1)) + 1}`;
}

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
  const rows = await matchingRows(db, category, text, maxResults);
  const near =
    rows.length === 0 && text.length >= NEAR_SPELLING_MIN_LENGTH && !/^\d+$/.test(text)
      ? await nearSpellings(db, category, text, maxResults)
      : [];
  return [...rows, ...near].map(toResult);
}

export const toResult = (row: ListRow): LookupResult => ({
  text: row.name,
  id: row.id,
  sub_text: subText(row),
});

function matchingRows(
  db: AppDatabase,
  category: ListCategory,
  text: string,
  maxResults: number,
): Promise<ListRow[]> {
  const name = lookupRecords.name;
  const ceeb = lookupRecords.ceeb;
  const startsWith = `${escapeLike(text)}%`;
  const wordStartsWith = `% ${escapeLike(text)}%`;
  const everyWord = (haystack: SQL) =>
    sql`(${sql.join(
      text.split(' ').map((word) => sql`${haystack} ilike ${`%${escapeLike(word)}%`}`),
      sql` and `,
    )})`;
  const nameAndCity = sql`(${name} || ' ' || coalesce(${lookupRecords.city}, ''))`;
  const nameMatch =
    text.length >= ANYWHERE_MIN_LENGTH
      ? everyWord(nameAndCity)
      : sql`(${name} ilike ${startsWith} or ${name} ilike ${wordStartsWith})`;
  const isCode = /^\d+$/.test(text);
  const upper = isCode ? codePrefixUpperBound(text) : null;
  const codeMatch = isCode
    ? sql` or (${ceeb} >= ${text} ${upper === null ? sql`` : sql`and ${ceeb} < ${upper}`} and ${ceeb} like ${startsWith})`
    : sql``;
  const codeRanks = isCode
    ? sql`when ${ceeb} = ${text} then 0 when ${ceeb} like ${startsWith} then 1`
    : sql``;
  return db
    .execute(sql`
      select ${columns}
      from ${lookupRecords}
      where ${lookupRecords.category} = ${category} and (${nameMatch}${codeMatch})
      order by
        case ${codeRanks}
          when ${name} ilike ${startsWith} then 1
          when ${name} ilike ${wordStartsWith} then 2
          when ${everyWord(sql`${name}`)} then 3
          else 4
        end,
        ${isCode ? sql`${ceeb},` : sql``}
        length(${name}), ${name}, ${lookupRecords.state}, ${lookupRecords.city}, ${lookupRecords.id}
      limit ${maxResults}
    `)
    .then((result) => rowsOf<ListRow>(result));
}

/**
 * Names holding a word spelled like the text. Word similarity costs far more per row than the
 * planner assumes, so on a list this small it would compare every row; the trigram index narrows
 * the rows first when the planner is told not to read the whole table. `offset 0` keeps the
 * category test out of the scan, or the planner would reach for the (category, ceeb) index.
 */
async function nearSpellings(
  db: AppDatabase,
  category: ListCategory,
  text: string,
  maxResults: number,
): Promise<ListRow[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const result = await tx.execute(sql`
      select id, name, city, state, zip, ceeb
      from (
        select ${columns}, ${lookupRecords.category} as category
        from ${lookupRecords}
        where ${text} <% ${lookupRecords.name}
        offset 0
      ) as near
      where category = ${category}
      order by word_similarity(${text}, name) desc, length(name), name, id
      limit ${maxResults}
    `);
    return rowsOf<ListRow>(result);
  });
}

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
  const [row] = await db
    .select()
    .from(lookupRecords)
    .where(and(eq(lookupRecords.category, category), eq(lookupRecords.id, id)));
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
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(lookupRecords)
    .where(eq(lookupRecords.category, category));
  return Number(row?.count ?? 0);
}

/**
 * A list's version: its row count and the newest transaction that wrote a row. An import
 * replaces a category's rows in one transaction, so every import changes it, even one that keeps
 * the count; reading it scans only the category's rows (decision 039).
 */
export async function listVersion(db: AppDatabase, category: ListCategory): Promise<string> {
  const [row] = rowsOf<{ version: string }>(
    await db.execute(sql`
      select count(*)::text || ':' || coalesce(max((xmin::text)::bigint)::text, '') as version
      from ${lookupRecords}
      where ${lookupRecords.category} = ${category}
    `),
  );
  return row?.version ?? '0:';
}

/** A whole list for the in-memory index, with its version read from the same rows. */
export async function loadList(
  db: AppDatabase,
  category: ListCategory,
): Promise<{ rows: ListRow[]; version: string }> {
  const rows = rowsOf<ListRow & { writer: string }>(
    await db.execute(sql`
      select ${columns}, xmin::text as writer
      from ${lookupRecords}
      where ${lookupRecords.category} = ${category}
    `),
  );
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
