import { and, asc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { AppDatabase } from '../db/database';
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

export interface ChangedApplicationRow {
  seq: number;
  id: string;
  submittedAt: Date | null;
  changedAt: Date;
  confirmationNumber: string | null;
  programCode: string | null;
  programLabel: string | null;
  entryTerm: string | null;
  entryTermLabel: string | null;
  sisId: string | null;
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

const answer = (key: string) => sql<string | null>`nullif(${applications.answers}->>${key}, '')`;

/** What `/api/v1` reads and writes of submitted applications: the feeds, one record, the SIS id. */
export function createApiApplicationsStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /**
     * Up to `limit` applications changed after `position`, each once at its latest change,
     * oldest first, and every one a late commit put before it. One snapshot for all of it.
     */
    async changedSince(
      position: ChangeLogPosition,
      limit: number,
    ): Promise<FeedRead<ChangedApplicationRow>> {
      return db.transaction(
        async (tx) => {
          const snapshot = await readerSnapshot(tx);
          const c = applicationChanges;
          const where = unreadRows(c, position);
          const select = (condition: SQL | undefined) =>
            tx
              .select({
                seq: c.seq,
                id: c.accountId,
                submittedAt: applications.submittedAt,
                changedAt: c.changedAt,
                confirmationNumber: applicationReceipts.number,
                programCode: answer(LIST_KEYS.program),
                programLabel: answer(LIST_KEYS.programLabel),
                entryTerm: answer(LIST_KEYS.entryTerm),
                entryTermLabel: answer(LIST_KEYS.entryTermLabel),
                sisId: applicationSisIds.sisId,
              })
              .from(c)
              .innerJoin(applications, eq(applications.accountId, c.accountId))
              .leftJoin(applicationReceipts, eq(applicationReceipts.accountId, c.accountId))
              .leftJoin(applicationSisIds, eq(applicationSisIds.accountId, c.accountId))
              .where(and(condition, isNotNull(applications.submittedAt)))
              .orderBy(asc(c.seq));
          const late = where.late ? await select(where.late) : [];
          const rows = await select(where.after).limit(limit);
          return { rows, late, snapshot };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
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
