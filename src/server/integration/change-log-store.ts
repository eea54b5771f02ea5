import { and, gt, lte, or, type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import type { applicationChanges, integrationEvents } from '../db/schema';

/**
 * Where a reader of the change log stands (decision 057): it has read every row up to `seq` that
 * the snapshot it read under could see. The rows that snapshot could not see (their transaction
 * still running, or not yet begun) are read once committed, whatever their seq.
 */
export interface ChangeLogPosition {
  seq: number;
  /** The reader's snapshot as PostgreSQL prints a `pg_snapshot` (`xmin:xmax:xip,...`); null at the start. */
  snapshot: string | null;
}

export const CHANGE_LOG_START: ChangeLogPosition = { seq: 0, snapshot: null };

type LogTable = typeof integrationEvents | typeof applicationChanges;

/**
 * Rows a snapshot could not see: their transaction began at or after its `xmax`, or was running
 * (`xip`). Written with the snapshot's numbers as constants, so the planner finds them through the
 * index on `tx` instead of filtering every row before the position.
 */
function unseenBy(table: LogTable, snapshot: string): SQL {
  const { xmax, xip } = snapshotParts(snapshot);
  const beganAfter = sql`${table.tx} >= ${xmax}::xid8`;
  if (xip.length === 0) return beganAfter;
  return sql`(${beganAfter} or ${table.tx} = any(${`{${xip.join(',')}}`}::xid8[]))`;
}

/** A `pg_snapshot` in PostgreSQL's text form, `xmin:xmax:xip,...`, as its parts. */
function snapshotParts(snapshot: string): { xmax: string; xip: string[] } {
  if (!isSnapshotText(snapshot)) throw new Error('not a snapshot');
  const [, xmax = '0', list = ''] = snapshot.split(':');
  return { xmax, xip: list ? list.split(',') : [] };
}

/**
 * The rows of the log a reader at `position` has not read: `late`, those at or before its seq
 * that its snapshot could not see (committed since, or still invisible now too), and `after`,
 * those past its seq. Nothing waits for a transaction anywhere else on the server, and a
 * transaction committing late is never passed over.
 */
export function unreadRows(
  table: LogTable,
  position: ChangeLogPosition,
): { late: SQL | undefined; after: SQL } {
  const after = gt(table.seq, position.seq) as SQL;
  if (position.snapshot === null) return { late: undefined, after };
  return { late: and(lte(table.seq, position.seq), unseenBy(table, position.snapshot)), after };
}

/**
 * The rows between two positions of one reader: those `from` had not read that `to` has (what a
 * batch reader such as a feed run covers, the same rows however often it is read again). A row
 * `to`'s snapshot could not see belongs to the next range, even if it commits meanwhile.
 */
export function rowsBetween(
  table: LogTable,
  from: ChangeLogPosition,
  to: ChangeLogPosition,
): SQL | undefined {
  const { late, after } = unreadRows(table, from);
  const upTo = and(after, lte(table.seq, to.seq));
  const read = late ? or(late, upTo) : upTo;
  if (to.snapshot === null) return read;
  return and(read, sql`not ${unseenBy(table, to.snapshot)}`);
}

/**
 * The reader's snapshot, for the position it reaches. Call it inside the reading transaction
 * (repeatable read), so it describes the snapshot the rows are read under.
 */
export async function readerSnapshot(tx: Executor): Promise<string> {
  const rows = rowsOf<{ snapshot: string }>(
    await tx.execute(sql`select pg_current_snapshot()::text as snapshot`),
  );
  const snapshot = rows[0]?.snapshot;
  if (!snapshot) throw new Error('no snapshot');
  return String(snapshot);
}

/** The position a reader reaches now: the newest row it can see, and what it cannot see yet. */
export async function currentPosition(tx: Executor): Promise<ChangeLogPosition> {
  const snapshot = await readerSnapshot(tx);
  const rows = rowsOf<{ seq: string | number | null }>(
    await tx.execute(sql`select max(seq) as seq from integration_events`),
  );
  return { seq: Number(rows[0]?.seq ?? 0), snapshot };
}

/** Whether text is a snapshot as `pg_snapshot` prints it. */
export function isSnapshotText(text: unknown): text is string {
  return typeof text === 'string' && text.length <= 100_000 && /^\d+:\d+:(\d+(,\d+)*)?$/.test(text);
}
