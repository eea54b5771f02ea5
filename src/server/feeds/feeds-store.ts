import { and, asc, desc, eq, inArray, isNotNull, max, sql } from 'drizzle-orm';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { applicationSisIds, applications, feedRuns, integrationEvents } from '../db/schema';
import {
  CHANGE_LOG_START,
  type ChangeLogPosition,
  currentPosition,
  rowsBetween,
} from '../integration/change-log-store';

export type FeedRunRow = typeof feedRuns.$inferSelect;
export type NewFeedRun = Pick<
  typeof feedRuns.$inferInsert,
  | 'feed'
  | 'mode'
  | 'fromSeq'
  | 'fromSnapshot'
  | 'toSeq'
  | 'toSnapshot'
  | 'destination'
  | 'rerunOf'
  | 'startedBy'
  | 'scheduledFor'
>;

/** The change-log range a run reads: from null for every submitted application. */
export type FeedRange = Pick<FeedRunRow, 'fromSeq' | 'fromSnapshot' | 'toSeq' | 'toSnapshot'>;

export function createFeedsStore(db: AppDatabase) {
  return {
    /**
     * Where the change log stands now, read in one snapshot: the newest event and the
     * transactions still running, whose events the next changed run takes.
     */
    async changeLogPosition(): Promise<ChangeLogPosition> {
      return db.transaction((tx) => currentPosition(tx), {
        isolationLevel: 'repeatable read',
        accessMode: 'read only',
      });
    },

    /** Submitted applications with an event between two positions, in the order they last changed. */
    async changedIds(
      from: ChangeLogPosition,
      to: ChangeLogPosition,
      tx: Executor = db,
    ): Promise<string[]> {
      const last = max(integrationEvents.seq);
      const rows = await tx
        .select({ id: integrationEvents.accountId, last })
        .from(integrationEvents)
        .innerJoin(applications, eq(applications.accountId, integrationEvents.accountId))
        .where(and(rowsBetween(integrationEvents, from, to), isNotNull(applications.submittedAt)))
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

    /** Where the feed's next changed run starts: where its latest successful run ended. */
    async lastReadPosition(feed: string, tx: Executor = db): Promise<ChangeLogPosition> {
      const [row] = await tx
        .select({ seq: feedRuns.toSeq, snapshot: feedRuns.toSnapshot })
        .from(feedRuns)
        .where(
          and(
            eq(feedRuns.feed, feed),
            eq(feedRuns.status, 'succeeded'),
            inArray(feedRuns.mode, ['all', 'changed']),
            isNotNull(feedRuns.toSeq),
          ),
        )
        .orderBy(desc(feedRuns.toSeq), desc(feedRuns.startedAt))
        .limit(1);
      return row ? { seq: Number(row.seq), snapshot: row.snapshot } : CHANGE_LOG_START;
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
    async setRange(id: string, range: FeedRange, tx: Executor = db) {
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
