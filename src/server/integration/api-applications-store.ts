import { and, asc, eq, inArray, isNotNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type AppDatabase, rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import { LIST_KEYS } from '../db/list-answer-keys';
import {
  applicationChanges,
  applicationReceipts,
  applicationSisIds,
  applications,
  decisions,
  integrationEvents,
} from '../db/schema';
import { type ChangeLogPosition, readerSnapshot, unreadRows } from './change-log-store';

/** A read of a feed: its rows in `seq` order and the transactions its snapshot could not see. */
export interface FeedRead<Row> {
  rows: Row[];
  /** The rows committed late, at or before the position's seq: always all of them. */
  late: Row[];
  /** The snapshot the read was made under: the position's after it. */
  snapshot: string;
}

/** A page of the change feed as the API answers it, its items already JSON. */
export interface FeedPage {
  /** The page's items, late commits first, as the JSON array the API sends. */
  itemsJson: string;
  /** The seq of the page's last application past the position; null on an empty page. */
  lastSeq: number | null;
  hasMore: boolean;
  /** The snapshot the page was read under: the position's after it. */
  snapshot: string;
}

export interface SubmittedApplicationRow {
  id: string;
  answers: Record<string, string | boolean>;
  addAnother: Record<string, number>;
  tabs: Record<string, string>;
  submittedAt: Date;
  changedAt: Date | null;
  sisId: string | null;
  receipt: {
    number: string;
    cycle: string;
    submittedAt: Date;
    fingerprint: string;
  } | null;
}

export interface ReleasedDecisionRow {
  code: string;
  releasedAt: Date;
  replyDeadline: Date | null;
  reply: 'accepted' | 'declined' | null;
  repliedAt: Date | null;
}

export interface DecisionEventRow extends ReleasedDecisionRow {
  seq: number;
  accountId: string;
  type: string;
  occurredAt: Date;
  data: Record<string, unknown>;
}

/** The answers the feed lists, by the API's name for each. */
const FEED_ANSWERS = {
  program_code: LIST_KEYS.program,
  program_label: LIST_KEYS.programLabel,
  entry_term: LIST_KEYS.entryTerm,
  entry_term_label: LIST_KEYS.entryTermLabel,
} as const;

/**
 * The feed's answers taken from `applications.answers` in one call, so the (large, compressed)
 * answers are read once per application rather than once per key.
 */
const feedAnswers = sql`jsonb_to_record(${applications.answers}) as listed(${sql.join(
  Object.values(FEED_ANSWERS).map((key) => sql`${sql.identifier(key)} text`),
  sql`, `,
)})`;

/** Each listed answer under its API name; a blank one is null. */
const feedAnswerColumns = sql.join(
  Object.entries(FEED_ANSWERS).map(
    ([name, key]) => sql`nullif(listed.${sql.identifier(key)}, '') as ${sql.identifier(name)}`,
  ),
  sql`, `,
);

/** A timestamp as JavaScript's `toISOString` writes it (milliseconds, UTC), in SQL. */
const isoText = (timestamp: SQLWrapper) =>
  sql`to_char(${timestamp} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Where the API serves one application: the href of each item of the feed. */
export const APPLICATION_HREF_PREFIX = '/applications/';

/** What `/api/v1` reads and writes of submitted applications: the feeds, one record, the SIS id. */
export function createApiApplicationsStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /**
     * A page of the change feed: up to `limit` applications changed after `position`, each once
     * at its latest change, oldest first, after every one a late commit put before it. One
     * statement, so one snapshot (the statement's own, which `pg_current_snapshot` reports) and
     * one round trip; the items come back as the JSON text of the API's answer, so the server
     * passes them through instead of parsing rows and serialising them again.
     */
    async changedSincePage(position: ChangeLogPosition, limit: number): Promise<FeedPage> {
      const c = applicationChanges;
      const a = applications;
      const where = unreadRows(c, position);
      const items = (condition: SQL) => sql`
        select ${c.seq} as seq, row_to_json(item)::text as item
        from ${c}
        join ${a} on ${a.accountId} = ${c.accountId}
        left join ${applicationReceipts} on ${applicationReceipts.accountId} = ${c.accountId}
        left join ${applicationSisIds} on ${applicationSisIds.accountId} = ${c.accountId}
        cross join lateral ${feedAnswers}
        cross join lateral (
          select ${c.accountId} as id,
            ${isoText(sql`coalesce(${a.submittedAt}, ${c.changedAt})`)} as submitted_at,
            ${isoText(c.changedAt)} as changed_at,
            ${applicationReceipts.number} as confirmation_number,
            ${feedAnswerColumns},
            ${applicationSisIds.sisId} as sis_id,
            ${APPLICATION_HREF_PREFIX}::text || ${c.accountId}::text as href
        ) item
        where ${condition} and ${a.submittedAt} is not null
        order by ${c.seq}`;
      const [row] = rowsOf<{
        snapshot: string;
        items: string;
        last_seq: string | number | null;
        has_more: boolean;
      }>(
        await db.execute(sql`
          with late as (${where.late ? items(where.late) : sql`select null::bigint as seq, null::text as item where false`}),
            page as (${items(where.after)} limit ${limit + 1}),
            shown as (select seq, item from page order by seq limit ${limit}),
            listed as (
              select 0 as part, seq, item from late
              union all
              select 1 as part, seq, item from shown
            )
          select pg_current_snapshot()::text as snapshot,
            coalesce((select string_agg(item, ',' order by part, seq) from listed), '') as items,
            (select max(seq) from shown) as last_seq,
            (select count(*) from page) > ${limit} as has_more`),
      );
      if (!row) throw new Error('the feed statement returned nothing');
      return {
        itemsJson: `[${row.items}]`,
        lastSeq: row.last_seq === null ? null : Number(row.last_seq),
        hasMore: row.has_more,
        snapshot: String(row.snapshot),
      };
    },

    /** A submitted application with its receipt and SIS id; null for any other id. */
    async submitted(id: string, tx: Executor = db): Promise<SubmittedApplicationRow | null> {
      const [row] = await tx
        .select({
          id: applications.accountId,
          answers: applications.answers,
          addAnother: applications.addAnother,
          tabs: applications.tabs,
          submittedAt: applications.submittedAt,
          changedAt: applicationChanges.changedAt,
          sisId: applicationSisIds.sisId,
          receiptNumber: applicationReceipts.number,
          receiptCycle: applicationReceipts.cycle,
          receiptSubmittedAt: applicationReceipts.submittedAt,
          receiptFingerprint: applicationReceipts.fingerprint,
        })
        .from(applications)
        .leftJoin(applicationChanges, eq(applicationChanges.accountId, applications.accountId))
        .leftJoin(applicationReceipts, eq(applicationReceipts.accountId, applications.accountId))
        .leftJoin(applicationSisIds, eq(applicationSisIds.accountId, applications.accountId))
        .where(and(eq(applications.accountId, id), isNotNull(applications.submittedAt)));
      if (!row?.submittedAt) return null;
      return {
        id: row.id,
        answers: row.answers,
        addAnother: row.addAnother,
        tabs: row.tabs,
        submittedAt: row.submittedAt,
        changedAt: row.changedAt,
        sisId: row.sisId,
        receipt:
          row.receiptNumber && row.receiptCycle && row.receiptSubmittedAt && row.receiptFingerprint
            ? {
                number: row.receiptNumber,
                cycle: row.receiptCycle,
                submittedAt: row.receiptSubmittedAt,
                fingerprint: row.receiptFingerprint,
              }
            : null,
      };
    },

    /** The decision once released; null before (a recorded decision is staff's alone). */
    async releasedDecision(id: string, tx: Executor = db): Promise<ReleasedDecisionRow | null> {
      const [row] = await tx
        .select({
          code: decisions.code,
          releasedAt: decisions.releasedAt,
          replyDeadline: decisions.replyDeadline,
          reply: decisions.reply,
          repliedAt: decisions.repliedAt,
        })
        .from(decisions)
        .where(and(eq(decisions.accountId, id), isNotNull(decisions.releasedAt)));
      return row?.releasedAt ? { ...row, releasedAt: row.releasedAt } : null;
    },

    /** The SIS id now, locked until the transaction ends, so `from` in the audit entry is true. */
    async sisIdForUpdate(id: string, tx: Executor = db): Promise<string | null> {
      const [row] = await tx
        .select({ sisId: applicationSisIds.sisId })
        .from(applicationSisIds)
        .where(eq(applicationSisIds.accountId, id))
        .for('update');
      return row?.sisId ?? null;
    },

    async saveSisId(
      values: { id: string; sisId: string; setByLabel: string },
      tx: Executor = db,
    ): Promise<{ sisId: string; setByLabel: string; setAt: Date }> {
      const [row] = await tx
        .insert(applicationSisIds)
        .values({ accountId: values.id, sisId: values.sisId, setByLabel: values.setByLabel })
        .onConflictDoUpdate({
          target: applicationSisIds.accountId,
          set: { sisId: values.sisId, setByLabel: values.setByLabel, setAt: sql`now()` },
        })
        .returning({
          sisId: applicationSisIds.sisId,
          setByLabel: applicationSisIds.setByLabel,
          setAt: applicationSisIds.setAt,
        });
      if (!row) throw new Error('the SIS id was not saved');
      return row;
    },

    /** Releases and replies after `position`, with the decision as it stands, oldest first. */
    async decisionEventsSince(
      position: ChangeLogPosition,
      limit: number,
      types: readonly string[],
    ): Promise<FeedRead<DecisionEventRow>> {
      return db.transaction(
        async (tx) => {
          const snapshot = await readerSnapshot(tx);
          const e = integrationEvents;
          const where = unreadRows(e, position);
          const select = (condition: SQL | undefined) =>
            tx
              .select({
                seq: e.seq,
                accountId: e.accountId,
                type: e.type,
                occurredAt: e.occurredAt,
                data: e.data,
                code: decisions.code,
                releasedAt: decisions.releasedAt,
                replyDeadline: decisions.replyDeadline,
                reply: decisions.reply,
                repliedAt: decisions.repliedAt,
              })
              .from(e)
              .innerJoin(decisions, eq(decisions.accountId, e.accountId))
              .where(and(condition, inArray(e.type, [...types]), isNotNull(decisions.releasedAt)))
              .orderBy(asc(e.seq));
          const released = (rows: Awaited<ReturnType<typeof select>>): DecisionEventRow[] =>
            rows.flatMap((row) => (row.releasedAt ? [{ ...row, releasedAt: row.releasedAt }] : []));
          const late = where.late ? released(await select(where.late)) : [];
          const rows = released(await select(where.after).limit(limit));
          return { rows, late, snapshot };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    },
  };
}

export type ApiApplicationsStore = ReturnType<typeof createApiApplicationsStore>;
