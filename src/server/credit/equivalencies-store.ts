import { asc, inArray, sql } from 'drizzle-orm';
import {
  type Equivalency,
  type EquivalencyKind,
  equivalencyKey,
} from '../../shared/credit/equivalency';
import { type AppDatabase, rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import { equivalencies, equivalencyTables } from '../db/schema';

/** A row of a file: the equivalency and the line it came from. */
export type EquivalencyRow = Equivalency & { line: number };

/** One college's table as the console lists it. */
export interface EquivalencyTableRow {
  ceeb: string;
  name: string | null;
  rowCount: number;
  fileName: string;
  importedByLabel: string;
  importedAt: Date;
}

/** Where a table was imported from, stored beside its rows. */
export interface EquivalencyTableSource {
  ceeb: string;
  rowCount: number;
  fileName: string;
  importedByLabel: string;
}

const toEquivalency = (row: typeof equivalencies.$inferSelect): EquivalencyRow => ({
  sendingCeeb: row.sendingCeeb,
  subject: row.subject,
  number: row.number,
  title: row.title,
  units: Number(row.units),
  localCourse: row.localCourse,
  localUnits: Number(row.localUnits),
  kind: row.kind as EquivalencyKind,
  satisfies: row.satisfies,
  line: row.line,
});

/** The sending colleges' equivalency tables: replaced whole by an import, read by mapping. */
export function createEquivalenciesStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /**
     * Holds each college's import lock until the transaction ends, in one order (sorted), so two
     * imports naming the same colleges run one after the other and never wait on each other.
     */
    async lockColleges(ceebs: readonly string[], tx: Executor): Promise<void> {
      for (const ceeb of [...ceebs].sort())
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`equivalencies:${ceeb}`}))`);
    },

    async deleteColleges(ceebs: readonly string[], tx: Executor = db): Promise<void> {
      if (ceebs.length === 0) return;
      await tx.delete(equivalencies).where(inArray(equivalencies.sendingCeeb, [...ceebs]));
      await tx.delete(equivalencyTables).where(inArray(equivalencyTables.sendingCeeb, [...ceebs]));
    },

    /**
     * One statement for all the rows given, the caller sizing the batches: each column goes as one
     * array parameter and `unnest` makes the rows, so a batch of 1,000 rows is 11 parameters to
     * bind rather than 11,000 (several times faster on both databases; docs/benchmarks.md).
     */
    async insertRows(rows: readonly EquivalencyRow[], tx: Executor = db): Promise<void> {
      if (rows.length === 0) return;
      const column = <T>(value: (row: EquivalencyRow) => T) => sql.param(rows.map(value));
      await tx.execute(sql`
      insert into ${equivalencies} (sending_ceeb, course_key, subject, number, title, units,
        local_course, local_units, kind, satisfies, line)
      select * from unnest(
        ${column((row) => row.sendingCeeb)}::text[],
        ${column((row) => equivalencyKey(row.subject, row.number))}::text[],
        ${column((row) => row.subject)}::text[],
        ${column((row) => row.number)}::text[],
        ${column((row) => row.title)}::text[],
        ${column((row) => String(row.units))}::numeric[],
        ${column((row) => row.localCourse)}::text[],
        ${column((row) => String(row.localUnits))}::numeric[],
        ${column((row) => row.kind)}::text[],
        ${column((row) => JSON.stringify(row.satisfies))}::jsonb[],
        ${column((row) => row.line)}::integer[]
      )
    `);
    },

    async insertTables(
      tables: readonly EquivalencyTableSource[],
      tx: Executor = db,
    ): Promise<void> {
      if (tables.length === 0) return;
      await tx.insert(equivalencyTables).values(
        tables.map((table) => ({
          sendingCeeb: table.ceeb,
          rowCount: table.rowCount,
          fileName: table.fileName,
          importedByLabel: table.importedByLabel,
        })),
      );
    },

    /** The tables of the colleges named, each by course key; a college without one is absent. */
    async tablesFor(
      ceebs: readonly string[],
      tx: Executor = db,
    ): Promise<Map<string, Map<string, EquivalencyRow>>> {
      const tables = new Map<string, Map<string, EquivalencyRow>>();
      if (ceebs.length === 0) return tables;
      const rows = await tx
        .select()
        .from(equivalencies)
        .where(inArray(equivalencies.sendingCeeb, [...new Set(ceebs)]))
        .orderBy(asc(equivalencies.sendingCeeb), asc(equivalencies.line));
      for (const row of rows) {
        let table = tables.get(row.sendingCeeb);
        if (!table) {
          table = new Map();
          tables.set(row.sendingCeeb, table);
        }
        table.set(row.courseKey, toEquivalency(row));
      }
      return tables;
    },

    /** Every college's table, newest import first, with the college's name where the list has it. */
    async listTables(tx: Executor = db): Promise<EquivalencyTableRow[]> {
      const rows = rowsOf<{
        ceeb: string;
        name: string | null;
        row_count: number;
        file_name: string;
        imported_by_label: string;
        imported_at: Date | string;
      }>(
        await tx.execute(sql`
      select t.sending_ceeb as ceeb,
        (select r.name from lookup_records r
          where r.category = 'college_ceeb' and r.ceeb = t.sending_ceeb
          order by r.id limit 1) as name,
        t.row_count, t.file_name, t.imported_by_label, t.imported_at
      from ${equivalencyTables} t
      order by t.imported_at desc, t.sending_ceeb
    `),
      );
      return rows.map((row) => ({
        ceeb: row.ceeb,
        name: row.name,
        rowCount: Number(row.row_count),
        fileName: row.file_name,
        importedByLabel: row.imported_by_label,
        importedAt: new Date(row.imported_at),
      }));
    },
  };
}

export type EquivalenciesStore = ReturnType<typeof createEquivalenciesStore>;
