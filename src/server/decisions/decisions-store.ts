import { and, asc, eq, inArray, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { type AppDatabase, rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import { accounts, applicationReceipts, applications, decisions } from '../db/schema';

/*
 * The decisions table and what a release reads. Plain functions on the database or a
 * transaction the caller opened, so a change and its audit entry commit together.
 */

export type DecisionRow = typeof decisions.$inferSelect;

export interface Recorder {
  id: string | null;
  label: string;
}

export async function databaseNow(db: Executor): Promise<Date> {
  const [row] = rowsOf<{ now: string | Date }>(await db.execute(sql`select now() as now`));
  return new Date(row?.now ?? Date.now());
}

/** Whether the application exists and is submitted; null when there is no such application. */
export async function applicationSubmitted(
  db: Executor,
  accountId: string,
): Promise<{ submitted: boolean } | null> {
  const [row] = await db
    .select({ submittedAt: applications.submittedAt })
    .from(applications)
    .where(eq(applications.accountId, accountId));
  return row ? { submitted: row.submittedAt !== null } : null;
}

/** The decision of an application; `lock` holds its row until the transaction ends. */
export async function decisionOf(
  db: Executor,
  accountId: string,
  options: { lock?: boolean } = {},
): Promise<DecisionRow | null> {
  const query = db.select().from(decisions).where(eq(decisions.accountId, accountId));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** The released decision of an application, or null: the only read the applicant's routes make. */
export async function releasedDecisionOf(
  db: Executor,
  accountId: string,
  options: { lock?: boolean } = {},
): Promise<DecisionRow | null> {
  const query = db
    .select()
    .from(decisions)
    .where(and(eq(decisions.accountId, accountId), isNotNull(decisions.releasedAt)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** Records or changes a decision; a released one is left alone (null). */
export async function saveDecision(
  db: Executor,
  accountId: string,
  code: string,
  by: Recorder,
): Promise<DecisionRow | null> {
  const [row] = await db
    .insert(decisions)
    .values({ accountId, code, recordedById: by.id, recordedByLabel: by.label })
    .onConflictDoUpdate({
      target: decisions.accountId,
      set: {
        code,
        recordedById: by.id,
        recordedByLabel: by.label,
        recordedAt: sql`now()`,
      },
      setWhere: isNull(decisions.releasedAt),
    })
    .returning();
  return row ?? null;
}

/** Sets when an unreleased decision is released (now when `at` is null); false when none is. */
export async function scheduleRelease(
  db: Executor,
  accountId: string,
  at: Date | null,
): Promise<boolean> {
  const updated = await db
    .update(decisions)
    .set({ releaseAt: at ?? sql`now()` })
    .where(and(eq(decisions.accountId, accountId), isNull(decisions.releasedAt)))
    .returning({ id: decisions.accountId });
  return updated.length > 0;
}

export interface DueDecision {
  accountId: string;
  code: string;
  email: string;
  answers: Record<string, string | boolean>;
  confirmationNumber: string | null;
}

/**
 * Up to `limit` decisions due by `now`, each locked until the transaction ends. Rows another
 * server holds are skipped rather than waited for, and a row released meanwhile no longer
 * matches once its lock is taken, so each decision is claimed by one transaction only.
 */
export async function lockDueDecisions(
  tx: Executor,
  limit: number,
  now: Date | null,
  only: readonly string[] | null = null,
): Promise<DueDecision[]> {
  return tx
    .select({
      accountId: decisions.accountId,
      code: decisions.code,
      email: accounts.email,
      answers: applications.answers,
      confirmationNumber: applicationReceipts.number,
    })
    .from(decisions)
    .innerJoin(applications, eq(applications.accountId, decisions.accountId))
    .innerJoin(accounts, eq(accounts.id, decisions.accountId))
    .leftJoin(applicationReceipts, eq(applicationReceipts.accountId, decisions.accountId))
    .where(
      and(
        isNull(decisions.releasedAt),
        lte(decisions.releaseAt, now ?? sql`now()`),
        only ? inArray(decisions.accountId, [...only]) : undefined,
      ),
    )
    .orderBy(asc(decisions.releaseAt))
    .limit(limit)
    .for('update', { of: decisions, skipLocked: true });
}

/** Marks a claimed decision released with its letter; false if it already was. */
export async function markReleased(
  tx: Executor,
  accountId: string,
  values: { letter: string; replyDeadline: Date | null; at: Date | null },
): Promise<Date | null> {
  const [row] = await tx
    .update(decisions)
    .set({
      releasedAt: values.at ?? sql`now()`,
      letter: values.letter,
      replyDeadline: values.replyDeadline,
    })
    .where(and(eq(decisions.accountId, accountId), isNull(decisions.releasedAt)))
    .returning({ releasedAt: decisions.releasedAt });
  return row?.releasedAt ?? null;
}

export async function saveReply(
  tx: Executor,
  accountId: string,
  reply: 'accepted' | 'declined',
): Promise<DecisionRow | null> {
  const [row] = await tx
    .update(decisions)
    .set({ reply, repliedAt: sql`now()` })
    .where(and(eq(decisions.accountId, accountId), isNull(decisions.reply)))
    .returning();
  return row ?? null;
}

export interface BatchSelection {
  /** Applications the list's filters match. */
  matched: number;
  /** Of those, submitted ones. */
  submitted: number;
  /** Those the batch may change, up to the limit asked for. */
  ids: string[];
}

const releasedDecisionExists = sql`exists (select 1 from ${decisions}
  where ${decisions.accountId} = ${applications.accountId} and ${decisions.releasedAt} is not null)`;
const unreleasedDecisionExists = sql`exists (select 1 from ${decisions}
  where ${decisions.accountId} = ${applications.accountId} and ${decisions.releasedAt} is null)`;

/**
 * What a batch over the list's condition touches: submitted applications without a released
 * decision (to record), or with a recorded, unreleased one (to release).
 */
export async function batchSelection(
  db: AppDatabase,
  where: SQL | undefined,
  kind: 'record' | 'release',
  limit: number,
): Promise<BatchSelection> {
  const [counted] = rowsOf<{ matched: string | number; submitted: string | number }>(
    await db.execute(sql`select count(*) as matched,
      count(*) filter (where ${applications.submittedAt} is not null) as submitted
      from ${applications} ${where ? sql`where ${where}` : sql``}`),
  );
  const eligible = await db
    .select({ id: applications.accountId })
    .from(applications)
    .where(
      and(
        where,
        isNotNull(applications.submittedAt),
        kind === 'record' ? sql`not ${releasedDecisionExists}` : unreleasedDecisionExists,
      ),
    )
    .orderBy(asc(applications.accountId))
    .limit(limit);
  return {
    matched: Number(counted?.matched ?? 0),
    submitted: Number(counted?.submitted ?? 0),
    ids: eligible.map((row) => row.id),
  };
}

/** Records one code on each application without a released decision; returns those changed. */
export async function saveDecisions(
  tx: Executor,
  accountIds: readonly string[],
  code: string,
  by: Recorder,
): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const rows = await tx
    .insert(decisions)
    .values(
      accountIds.map((accountId) => ({
        accountId,
        code,
        recordedById: by.id,
        recordedByLabel: by.label,
      })),
    )
    .onConflictDoUpdate({
      target: decisions.accountId,
      set: {
        code,
        recordedById: by.id,
        recordedByLabel: by.label,
        recordedAt: sql`now()`,
      },
      setWhere: isNull(decisions.releasedAt),
    })
    .returning({ id: decisions.accountId });
  return rows.map((row) => row.id);
}

/** Schedules the unreleased decisions of these applications; returns those changed. */
export async function scheduleReleases(
  tx: Executor,
  accountIds: readonly string[],
  at: Date | null,
): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const rows = await tx
    .update(decisions)
    .set({ releaseAt: at ?? sql`now()` })
    .where(and(inArray(decisions.accountId, [...accountIds]), isNull(decisions.releasedAt)))
    .returning({ id: decisions.accountId });
  return rows.map((row) => row.id);
}
