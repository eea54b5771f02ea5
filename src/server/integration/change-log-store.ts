import { and, gt, lte, type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import type { applicationChanges, integrationEvents } from '../db/schema';

/**
 * Where a reader of the change log stands (decision 057): it has read every row up to `seq`
 * except those of the transactions in `pending`, which were still running when it read and whose
 * rows it could not see. Those rows are read once their transaction commits, whatever their seq.
 */
export interface ChangeLogPosition {
  seq: number;
  /** Transaction ids (xid8, as PostgreSQL prints them) running when the position was taken. */
  pending: string[];
}

export const CHANGE_LOG_START: ChangeLogPosition = { seq: 0, pending: [] };

type LogTable = typeof integrationEvents | typeof applicationChanges;

/**
 * The rows of the log a reader at `position` has not read: `late`, those at or before its seq
 * written by a transaction that was running when it read (and has committed since, or the reader
 * could not see them now either), and `after`, those past its seq. Nothing waits for a
 * transaction anywhere else on the server, and a transaction committing late is never passed over.
 */
export function unreadRows(
  table: LogTable,
  position: ChangeLogPosition,
): { late: SQL | undefined; after: SQL } {
  const after = gt(table.seq, position.seq) as SQL;
  if (position.pending.length === 0) return { late: undefined, after };
  const pending = sql`array[${sql.join(
    position.pending.map((xid) => sql`${xid}`),
    sql`, `,
  )}]::xid8[]`;
  return { late: and(lte(table.seq, position.seq), sql`${table.tx} = any(${pending})`), after };
}

/**
 * The transactions running when the reader's snapshot was taken: the `pending` of the position
 * it reaches. Call it inside the reading transaction (repeatable read), after its first read or
 * as its first statement, so it describes the snapshot the rows were read under.
 */
export async function runningTransactions(tx: Executor): Promise<string[]> {
  const rows = rowsOf<{ xid: string }>(
    await tx.execute(
      sql`select xid::text as xid from pg_snapshot_xip(pg_current_snapshot()) as xid order by 1`,
    ),
  );
  return rows.map((row) => String(row.xid));
}

/** Whether text is a transaction id as a position carries it. */
export function isTransactionId(text: unknown): text is string {
  return typeof text === 'string' && /^\d{1,20}$/.test(text);
}
