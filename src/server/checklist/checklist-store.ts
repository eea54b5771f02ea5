import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ChecklistState } from '../../shared/staff/application-api';
import type {
  ChecklistDocumentRecord,
  ChecklistMarkRecord,
  ChecklistSourceState,
} from '../../shared/staff/checklist';
import { type AppDatabase, rowsOf } from '../db/database';
import { type Executor, readAll } from '../db/executor';
import { applications, checklistCounts, checklistMarks, documentAnswers } from '../db/schema';

/** What an application's checklist is derived from, as stored. */
export interface ChecklistSource extends ChecklistSourceState {
  accountId: string;
  /**
   * The application's updated_at as PostgreSQL writes it (to the microsecond): what a count made
   * from this source is dated. A JavaScript Date would drop the microseconds, and the count would
   * look older than the application for ever.
   */
  updatedAt: string;
  documents: Record<string, ChecklistDocumentRecord>;
  marks: ChecklistMarkRecord[];
}

export interface ChecklistCountRow {
  accountId: string;
  missing: number;
  /** A timestamptz as PostgreSQL prints it. */
  sourceUpdatedAt: string;
}

/** Serialises the recounts and marks of one application across servers (a transaction lock). */
const lockKey = (accountId: string) => sql`hashtextextended(${`checklist:${accountId}`}, 0)`;

/** Rows a multi-row statement writes at once: well under PostgreSQL's 65,535 parameters. */
const WRITE_BATCH = 1_000;
/** Advisory locks one statement takes. */
const LOCK_BATCH = 5_000;

async function saveCountRows(rows: readonly ChecklistCountRow[], tx: Executor): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insert(checklistCounts)
    .values(
      rows.map((row) => ({
        accountId: row.accountId,
        missing: row.missing,
        sourceUpdatedAt: sql`${row.sourceUpdatedAt}::timestamptz`,
      })),
    )
    .onConflictDoUpdate({
      target: checklistCounts.accountId,
      set: {
        missing: sql`excluded.missing`,
        sourceUpdatedAt: sql`excluded.source_updated_at`,
      },
    });
}

/**
 * The checklist's tables: staff marks and the list's missing counts, and what a checklist is
 * derived from. Every method runs on the database unless given a transaction.
 */
export function createChecklistStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /**
     * Holds each application's checklist lock until the transaction ends, in one order so that
     * two batches never wait on each other.
     */
    async lock(accountIds: readonly string[], tx: Executor): Promise<void> {
      const sorted = [...new Set(accountIds)].sort();
      if (sorted.length === 1) {
        await tx.execute(sql`select pg_advisory_xact_lock(${lockKey(sorted[0] as string)})`);
        return;
      }
      // Many at once (a bulk mark of thousands) in one statement, taken in the ids' order.
      for (let start = 0; start < sorted.length; start += LOCK_BATCH) {
        const ids = sorted.slice(start, start + LOCK_BATCH);
        await tx.execute(sql`select count(pg_advisory_xact_lock(hashtextextended('checklist:' || id, 0)))
          from (select id from unnest(${sql.param(ids)}::text[]) as id order by id) as ids`);
      }
    },

    async applicationExists(accountId: string, tx: Executor = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: applications.accountId })
        .from(applications)
        .where(eq(applications.accountId, accountId));
      return row !== undefined;
    },

    /** Those of these ids that are an application's, in the order given. */
    async existingApplications(
      accountIds: readonly string[],
      tx: Executor = db,
    ): Promise<string[]> {
      if (accountIds.length === 0) return [];
      const ids = [...new Set(accountIds)];
      const rows = await tx
        .select({ id: applications.accountId })
        .from(applications)
        .where(inArray(applications.accountId, ids));
      const found = new Set(rows.map((row) => row.id));
      return ids.filter((id) => found.has(id));
    },

    /** The sources of these applications; an id without an application is left out. */
    async sources(
      accountIds: readonly string[],
      tx: Executor = db,
    ): Promise<Map<string, ChecklistSource>> {
      const out = new Map<string, ChecklistSource>();
      if (accountIds.length === 0) return out;
      const ids = [...new Set(accountIds)];
      const [rows, documents, marks] = await readAll(tx, [
        () =>
          tx
            .select({
              accountId: applications.accountId,
              answers: applications.answers,
              addAnother: applications.addAnother,
              tabs: applications.tabs,
              updatedAt: sql<string>`${applications.updatedAt}::text`,
            })
            .from(applications)
            .where(inArray(applications.accountId, ids)),
        () =>
          tx
            .select({
              accountId: documentAnswers.accountId,
              answerKey: documentAnswers.answerKey,
              status: documentAnswers.status,
              updatedAt: documentAnswers.updatedAt,
            })
            .from(documentAnswers)
            .where(inArray(documentAnswers.accountId, ids)),
        () => tx.select().from(checklistMarks).where(inArray(checklistMarks.accountId, ids)),
      ]);
      for (const row of rows) out.set(row.accountId, { ...row, documents: {}, marks: [] });
      for (const document of documents) {
        const source = out.get(document.accountId);
        if (source)
          source.documents[document.answerKey] = {
            status: document.status,
            updatedAt: document.updatedAt,
          };
      }
      for (const mark of marks) out.get(mark.accountId)?.marks.push(mark);
      return out;
    },

    async saveMark(
      mark: {
        accountId: string;
        itemKey: string;
        state: ChecklistState;
        staffId: string;
        staffLabel: string;
      },
      tx: Executor = db,
    ): Promise<void> {
      const values = {
        accountId: mark.accountId,
        itemKey: mark.itemKey,
        state: mark.state,
        setByType: 'staff' as const,
        setById: mark.staffId,
        setByLabel: mark.staffLabel,
        setAt: sql`now()`,
      };
      await tx
        .insert(checklistMarks)
        .values(values)
        .onConflictDoUpdate({
          target: [checklistMarks.accountId, checklistMarks.itemKey],
          set: {
            state: values.state,
            setByType: values.setByType,
            setById: values.setById,
            setByLabel: values.setByLabel,
            setAt: values.setAt,
          },
        });
    },

    /**
     * The same marks as saveMark, many in a statement: each row fires the table's triggers (the
     * integration events) as a single mark does.
     */
    async saveMarks(
      marks: readonly {
        accountId: string;
        itemKey: string;
        state: ChecklistState;
        staffId: string;
        staffLabel: string;
      }[],
      tx: Executor = db,
    ): Promise<void> {
      for (let start = 0; start < marks.length; start += WRITE_BATCH) {
        await tx
          .insert(checklistMarks)
          .values(
            marks.slice(start, start + WRITE_BATCH).map((mark) => ({
              accountId: mark.accountId,
              itemKey: mark.itemKey,
              state: mark.state,
              setByType: 'staff' as const,
              setById: mark.staffId,
              setByLabel: mark.staffLabel,
              setAt: sql`now()`,
            })),
          )
          .onConflictDoUpdate({
            target: [checklistMarks.accountId, checklistMarks.itemKey],
            set: {
              state: sql`excluded.state`,
              setByType: sql`excluded.set_by_type`,
              setById: sql`excluded.set_by_id`,
              setByLabel: sql`excluded.set_by_label`,
              setAt: sql`excluded.set_at`,
            },
          });
      }
    },

    async saveCounts(rows: readonly ChecklistCountRow[], tx: Executor = db): Promise<void> {
      for (let start = 0; start < rows.length; start += WRITE_BATCH)
        await saveCountRows(rows.slice(start, start + WRITE_BATCH), tx);
    },

    async count(
      accountId: string,
      tx: Executor = db,
    ): Promise<{ accountId: string; missing: number; sourceUpdatedAt: Date } | null> {
      const [row] = await tx
        .select()
        .from(checklistCounts)
        .where(eq(checklistCounts.accountId, accountId));
      return row ?? null;
    },

    /** The database's clock: the sweep compares it with updated_at, which the database sets. */
    async now(tx: Executor = db): Promise<Date> {
      const [row] = rowsOf<{ now: string | Date }>(await tx.execute(sql`select now() as now`));
      return new Date(row?.now ?? Date.now());
    },

    /**
     * Applications whose count is missing or older than the application, up to `limit`. With
     * `activeSince`, only those active from that hour on: the indexed activity hour finds them
     * without reading every application.
     */
    async stale(
      options: { limit: number; activeSince: Date | null; after: string | null },
      tx: Executor = db,
    ): Promise<string[]> {
      const a = applications;
      const c = checklistCounts;
      const rows = await tx
        .select({ id: a.accountId })
        .from(a)
        .leftJoin(c, eq(c.accountId, a.accountId))
        .where(
          and(
            sql`(${c.accountId} is null or ${c.sourceUpdatedAt} < ${a.updatedAt})`,
            options.activeSince
              ? sql`${a.listActivityHour} >= date_trunc('hour', ${options.activeSince.toISOString()}::timestamptz at time zone 'UTC')`
              : undefined,
            options.after ? sql`${a.accountId} > ${options.after}` : undefined,
          ),
        )
        .orderBy(a.accountId)
        .limit(options.limit);
      return rows.map((row) => row.id);
    },
  };
}

export type ChecklistStore = ReturnType<typeof createChecklistStore>;
