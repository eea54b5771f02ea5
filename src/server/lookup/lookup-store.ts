import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { ListCategory } from '../../shared/lookup/lookup-api';
import type { LookupRecord } from '../../shared/lookup/lookup-schemas';
import { type AppDatabase, rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import { lookupRecords } from '../db/schema';
import type { SchoolRow } from './school-index';

export type LookupRecordRow = typeof lookupRecords.$inferSelect;

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

/** The lookup lists (schools, colleges): searched, read whole, and counted. */
export function createLookupStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** Holds the category's import lock until the transaction ends. */
    async lockCategory(category: ListCategory, tx: Executor): Promise<void> {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`lookup_records:${category}`}))`,
      );
    },

    async holdsAny(category: ListCategory, tx: Executor = db): Promise<boolean> {
      const [held] = await tx
        .select({ id: lookupRecords.id })
        .from(lookupRecords)
        .where(eq(lookupRecords.category, category))
        .limit(1);
      return held !== undefined;
    },

    async deleteCategory(category: ListCategory, tx: Executor = db): Promise<void> {
      await tx.delete(lookupRecords).where(eq(lookupRecords.category, category));
    },

    /** One statement for all the rows given: the caller sizes the batches. */
    async insertRecords(
      category: ListCategory,
      records: readonly LookupRecord[],
      tx: Executor = db,
    ): Promise<void> {
      await tx.insert(lookupRecords).values(
        records.map((row) => ({
          category,
          id: row.id,
          name: row.name,
          addressLine1: row.address_line_1 || null,
          city: row.city || null,
          state: row.state || null,
          zip: row.zip || null,
          ceeb: row.ceeb || null,
          country: row.country || null,
        })),
      );
    },

    /** Records of one list matching the typed text, best first (see `searchList`). */
    matching(
      category: ListCategory,
      text: string,
      maxResults: number,
      tx: Executor = db,
    ): Promise<SchoolRow[]> {
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
      return tx
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
        .then((result) => rowsOf<SchoolRow>(result));
    },

    /**
     * Names holding a word spelled like the text. Word similarity costs far more per row than the
     * planner assumes, so on a list this small it would compare every row; the trigram index narrows
     * the rows first when the planner is told not to read the whole table. `offset 0` keeps the
     * category test out of the scan, or the planner would reach for the (category, ceeb) index.
     */
    async nearSpellings(
      category: ListCategory,
      text: string,
      maxResults: number,
      tx: Executor = db,
    ): Promise<SchoolRow[]> {
      return tx.transaction(async (own) => {
        await own.execute(sql`set local enable_seqscan = off`);
        const result = await own.execute(sql`
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
        return rowsOf<SchoolRow>(result);
      });
    },

    async findRecord(
      category: ListCategory,
      id: string,
      tx: Executor = db,
    ): Promise<LookupRecordRow | null> {
      const [row] = await tx
        .select()
        .from(lookupRecords)
        .where(and(eq(lookupRecords.category, category), eq(lookupRecords.id, id)));
      return row ?? null;
    },

    async count(category: ListCategory, tx: Executor = db): Promise<number> {
      const [row] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(lookupRecords)
        .where(eq(lookupRecords.category, category));
      return Number(row?.count ?? 0);
    },

    /** The row count and the newest writing transaction, as `count:xid` (decision 039). */
    async version(category: ListCategory, tx: Executor = db): Promise<string | null> {
      const [row] = rowsOf<{ version: string }>(
        await tx.execute(sql`
      select count(*)::text || ':' || coalesce(max((xmin::text)::bigint)::text, '') as version
      from ${lookupRecords}
      where ${lookupRecords.category} = ${category}
    `),
      );
      return row?.version ?? null;
    },

    /** Every record of a list, each with the transaction that wrote it. */
    async rowsWithWriter(
      category: ListCategory,
      tx: Executor = db,
    ): Promise<Array<SchoolRow & { writer: string }>> {
      return rowsOf<SchoolRow & { writer: string }>(
        await tx.execute(sql`
      select ${columns}, xmin::text as writer
      from ${lookupRecords}
      where ${lookupRecords.category} = ${category}
    `),
      );
    },
  };
}
