import { asc, desc, gt, sql } from 'drizzle-orm';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { auditEvents } from '../db/schema';

/** One constant for every server of a deployment: appends are serialised through it. */
const APPEND_LOCK = 7_241_115;

export type AuditEventRow = typeof auditEvents.$inferSelect;
export type NewAuditEventRow = typeof auditEvents.$inferInsert;

/** The audit chain as its writer and its verifier see it: appended to, and read in order. */
export function createAuditChainStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** Holds the append lock until the transaction ends. */
    async lockAppends(tx: Executor): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(${APPEND_LOCK})`);
    },

    /** The newest entry's link fields, or null while the trail is empty. */
    async last(
      tx: Executor = db,
    ): Promise<{ seq: number; hash: string; mac: string | null } | null> {
      const [row] = await tx
        .select({ seq: auditEvents.seq, hash: auditEvents.hash, mac: auditEvents.mac })
        .from(auditEvents)
        .orderBy(desc(auditEvents.seq))
        .limit(1);
      return row ?? null;
    },

    async insert(row: NewAuditEventRow, tx: Executor = db): Promise<void> {
      await tx.insert(auditEvents).values(row);
    },

    /** Up to `limit` entries after entry `seq`, in order. */
    async after(seq: number, limit: number, tx: Executor = db): Promise<AuditEventRow[]> {
      return tx
        .select()
        .from(auditEvents)
        .where(gt(auditEvents.seq, seq))
        .orderBy(asc(auditEvents.seq))
        .limit(limit);
    },
  };
}
