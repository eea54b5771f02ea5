import { and, asc, desc, eq, gt, inArray, isNotNull, lte, max, sql } from 'drizzle-orm';
import { type AppDatabase, rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import { applicationSisIds, applications, feedRuns, integrationEvents } from '../db/schema';

export type FeedRunRow = typeof feedRuns.$inferSelect;
export type NewFeedRun = Pick<
  typeof feedRuns.$inferInsert,
  'feed' | 'mode' | 'fromSeq' | 'toSeq' | 'destination' | 'rerunOf' | 'startedBy' | 'scheduledFor'
>;

export function createFeedsStore(db: AppDatabase) {
  return {
    /**
     * The newest change-log position visible now, and a transaction id newer than every one
     * assigned so far (this statement's own): once every transaction older than it has ended, no
     * event at or below `top` can still commit, since a transaction drawing a lower position
     * already had its id.
     */
    async changeLogTop(tx: Executor = db): Promise<{ top: number; horizon: string }> {
      const result = await tx.execute(sql`
        select coalesce(max(${integrationEvents.seq}), 0) as top,
          pg_current_xact_id()::text as horizon
        from ${integrationEvents}`);
      const [row] = rowsOf<{ top: string | number; horizon: string }>(result);
      return { top: Number(row?.top ?? 0), horizon: row?.horizon ?? '0' };
    },

    /** Whether every transaction older than `horizon` has ended. */
    async settled(horizon: string, tx: Executor = db): Promise<boolean> {
      const result = await tx.execute(
        sql`select pg_snapshot_xmin(pg_current_snapshot()) > ${horizon}::xid8 as settled`,
      );
      return rowsOf<{ settled: boolean }>(result)[0]?.settled === true;
    },

    /**
     * A position a run may read up to without waiting: every event at or below it was written by
     * a transaction older than all still running, and none committed since the oldest running one
     * began is passed over. Used when a transaction stays open too long to wait for.
     */
    async safeMaxSeq(tx: Executor = db): Promise<number> {
      const result = await tx.execute(sql`
        with horizon as (select pg_snapshot_xmin(pg_current_snapshot()) as xmin)
        select least(
          (select max(${integrationEvents.seq}) from ${integrationEvents}, horizon
            where ${integrationEvents.tx} < horizon.xmin),
          (select min(${integrationEvents.seq}) - 1 from ${integrationEvents}, horizon
            where ${integrationEvents.tx} >= horizon.xmin)
        ) as safe`);
      const [row] = rowsOf<{ safe: string | number | null }>(result);
      return row?.safe === null || row?.safe === undefined ? 0 : Number(row.safe);
    },

    /** Submitted applications with an event in (fromSeq, toSeq], in the order they last changed. */
    async changedIds(fromSeq: number, toSeq: number, tx: Executor = db): Promise<string[]> {
      const last = max(integrationEvents.seq);
      const rows = await tx
        .select({ id: integrationEvents.accountId, last })
        .from(integrationEvents)
        .innerJoin(applications, eq(applications.accountId, integrationEvents.accountId))
        .where(
          and(
            gt(integrationEvents.seq, fromSeq),
            lte(integrationEvents.seq, toSeq),
            isNotNull(applications.submittedAt),
          ),
        )
        .groupBy(integrationEvents.accountId)
        .orderBy(asc(last));
      return rows.map((row) => row.id);
    },

    /** Every submitted application, in the order they were submitted. */
    async submittedIds(tx: Executor = db): Promise<string[]> {
      const rows = await tx
        .select({ id: applications.accountId })
        .from(applications)
        .where(isNotNull(applications.submittedAt))
        .orderBy(asc(applications.submittedAt), asc(applications.accountId));
      return rows.map((row) => row.id);
    },

    async sisIds(ids: readonly string[], tx: Executor = db): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await tx
        .select({ id: applicationSisIds.accountId, sisId: applicationSisIds.sisId })
        .from(applicationSisIds)
        .where(inArray(applicationSisIds.accountId, [...ids]));
      return new Map(rows.map((row) => [row.id, row.sisId]));
    },

    /** Where the feed's next changed run starts: the furthest a successful run of it has read. */
    async lastReadSeq(feed: string, tx: Executor = db): Promise<number> {
      const [row] = await tx
        .select({ toSeq: max(feedRuns.toSeq) })
        .from(feedRuns)
        .where(
          and(
            eq(feedRuns.feed, feed),
            eq(feedRuns.status, 'succeeded'),
            inArray(feedRuns.mode, ['all', 'changed']),
          ),
        );
      return row?.toSeq === null || row?.toSeq === undefined ? 0 : Number(row.toSeq);
    },

    async start(values: NewFeedRun, tx: Executor = db): Promise<FeedRunRow> {
      const [row] = await tx
        .insert(feedRuns)
        .values({ ...values, status: 'running' })
        .returning();
      if (!row) throw new Error('feed run not recorded');
      return row;
    },

    /** A scheduled time's run, once across servers: null when another server claimed it. */
    async claim(
      values: NewFeedRun & { scheduledFor: Date },
      tx: Executor = db,
    ): Promise<FeedRunRow | null> {
      const [row] = await tx
        .insert(feedRuns)
        .values({ ...values, status: 'running' })
        .onConflictDoNothing({ target: [feedRuns.feed, feedRuns.scheduledFor] })
        .returning();
      return row ?? null;
    },

    /** The range a run read, once it knows it. */
    async setRange(
      id: string,
      range: { fromSeq: number | null; toSeq: number },
      tx: Executor = db,
    ) {
      await tx.update(feedRuns).set(range).where(eq(feedRuns.id, id));
    },

    async finish(
      id: string,
      values: Pick<
        typeof feedRuns.$inferInsert,
        'status' | 'rowCount' | 'fileName' | 'error' | 'destination'
      >,
      tx: Executor = db,
    ): Promise<FeedRunRow> {
      const [row] = await tx
        .update(feedRuns)
        .set({ ...values, finishedAt: sql`now()` })
        .where(eq(feedRuns.id, id))
        .returning();
      if (!row) throw new Error('feed run not found');
      return row;
    },

    async run(id: string, tx: Executor = db): Promise<FeedRunRow | null> {
      const [row] = await tx.select().from(feedRuns).where(eq(feedRuns.id, id));
      return row ?? null;
    },

    /** The newest runs first, of one feed or all. */
    async runs(
      options: { feed?: string; limit: number },
      tx: Executor = db,
    ): Promise<FeedRunRow[]> {
      return tx
        .select()
        .from(feedRuns)
        .where(options.feed ? eq(feedRuns.feed, options.feed) : undefined)
        .orderBy(desc(feedRuns.startedAt), desc(feedRuns.id))
        .limit(options.limit);
    },
  };
}

export type FeedsStore = ReturnType<typeof createFeedsStore>;
