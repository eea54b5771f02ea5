import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { ReadRound, ReadStatus } from '../../shared/review/review-api';
import type { StaffRole } from '../../shared/staff/permissions';
import { type AppDatabase, rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import {
  applicationReceipts,
  applications,
  readerConflicts,
  reviewReads,
  reviewRules,
  staffMembers,
} from '../db/schema';

/** The answer keys naming one college: its CEEB code's (if any) and its name's. */
export interface CollegeKeys {
  ceeb: string | null;
  name: string;
}

export interface MemberRow {
  id: string;
  name: string;
  role: StaffRole;
  disabled: boolean;
}

export interface MemberLoadRow extends MemberRow {
  open: number;
  submitted: number;
}

export interface ConflictRow {
  id: string;
  readerId: string;
  readerName: string;
  kind: 'college' | 'applicant';
  value: string;
  note: string;
  createdBy: string;
  createdAt: Date;
}

export interface RuleRow {
  id: string;
  position: number;
  name: string;
  match: unknown;
  readerIds: string[];
  cap: number | null;
  enabled: boolean;
}

export interface ApplicationForPlan {
  id: string;
  cycle: string | null;
  colleges: Array<{ ceeb: string | null; name: string }>;
}

export interface ReadOfApplication {
  id: string;
  accountId: string;
  round: ReadRound;
  readerId: string | null;
}

export interface NewRead {
  accountId: string;
  round: ReadRound;
  readerId: string;
  formCycle: string;
  formVersion: number;
}

export interface QueueRow {
  readId: string;
  applicationId: string;
  firstName: string | null;
  lastName: string | null;
  program: string | null;
  entryTerm: string | null;
  round: ReadRound;
  status: ReadStatus;
  assignedAt: Date;
  savedAt: Date | null;
}

const m = staffMembers;
const r = reviewReads;
const a = applications;
const memberName = sql<string>`coalesce(nullif(${m.displayName}, ''), ${m.email})`;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value));

/** Every assignment holds this lock until it commits, so loads read are loads written. */
const ASSIGNMENT_LOCK = sql`hashtextextended('review_assignment', 0)`;

/**
 * The reading assignments' tables: reads given to readers, the rules tried as applications
 * arrive, readers' conflicts of interest, and the members and loads they are decided from.
 */
export function createAssignmentStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** Serialises assignments across servers until the transaction ends. */
    async lock(tx: Executor): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(${ASSIGNMENT_LOCK})`);
    },

    /** Members by id, whatever their role; those unknown are absent. */
    async members(ids: readonly string[], tx: Executor = db): Promise<MemberRow[]> {
      if (ids.length === 0) return [];
      const rows = await tx
        .select({ id: m.id, name: memberName, role: m.role, disabledAt: m.disabledAt })
        .from(m)
        .where(inArray(m.id, [...ids]));
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        role: row.role,
        disabled: row.disabledAt !== null,
      }));
    },

    /** Members of these roles (or these ids) with their open and submitted reads, by name. */
    async membersWithLoads(
      filter: { roles: readonly StaffRole[] } | { ids: readonly string[] },
      tx: Executor = db,
    ): Promise<MemberLoadRow[]> {
      const where =
        'roles' in filter
          ? filter.roles.length === 0
            ? sql`false`
            : inArray(m.role, [...filter.roles])
          : filter.ids.length === 0
            ? sql`false`
            : inArray(m.id, [...filter.ids]);
      const result = rowsOf<{
        id: string;
        name: string;
        role: StaffRole;
        disabled: boolean;
        open: string | number;
        submitted: string | number;
      }>(
        await tx.execute(sql`select ${m.id} as id, ${memberName} as name, ${m.role} as role,
          ${m.disabledAt} is not null as disabled,
          (select count(*) from ${r} where ${r.readerId} = ${m.id}
            and ${r.status} in ('assigned', 'draft')) as open,
          (select count(*) from ${r} where ${r.readerId} = ${m.id}
            and ${r.status} = 'submitted') as submitted
          from ${m} where ${where}
          order by lower(${memberName}), ${m.id}`),
      );
      return result.map((row) => ({
        ...row,
        disabled: row.disabled === true || (row.disabled as unknown) === 't',
        open: Number(row.open),
        submitted: Number(row.submitted),
      }));
    },

    async conflictsOf(readerIds: readonly string[], tx: Executor = db): Promise<ConflictRow[]> {
      if (readerIds.length === 0) return [];
      return conflictRows(tx, inArray(readerConflicts.readerId, [...readerIds]));
    },

    async conflicts(tx: Executor = db): Promise<ConflictRow[]> {
      return conflictRows(tx);
    },

    /** The new conflict, or null when the reader already has it. */
    async insertConflict(
      conflict: { readerId: string; kind: 'college' | 'applicant'; value: string; note: string },
      createdBy: string,
      tx: Executor = db,
    ): Promise<ConflictRow | null> {
      const [row] = await tx
        .insert(readerConflicts)
        .values({ ...conflict, createdBy })
        .onConflictDoNothing()
        .returning({ id: readerConflicts.id });
      if (!row) return null;
      const [created] = await conflictRows(tx, eq(readerConflicts.id, row.id));
      return created ?? null;
    },

    /** The conflict removed, or null when there was none by that id. */
    async deleteConflict(id: string, tx: Executor = db): Promise<ConflictRow | null> {
      const [found] = await conflictRows(tx, eq(readerConflicts.id, id));
      if (!found) return null;
      await tx.delete(readerConflicts).where(eq(readerConflicts.id, id));
      return found;
    },

    async rules(tx: Executor = db): Promise<RuleRow[]> {
      return tx
        .select({
          id: reviewRules.id,
          position: reviewRules.position,
          name: reviewRules.name,
          match: reviewRules.match,
          readerIds: reviewRules.readerIds,
          cap: reviewRules.cap,
          enabled: reviewRules.enabled,
        })
        .from(reviewRules)
        .orderBy(asc(reviewRules.position), asc(reviewRules.id));
    },

    async replaceRules(
      rules: ReadonlyArray<Omit<RuleRow, 'id' | 'position'>>,
      updatedBy: string,
      tx: Executor,
    ): Promise<void> {
      await tx.delete(reviewRules);
      if (rules.length === 0) return;
      await tx.insert(reviewRules).values(
        rules.map((rule, position) => ({
          position,
          name: rule.name,
          match: rule.match,
          readerIds: rule.readerIds,
          cap: rule.cap,
          enabled: rule.enabled,
          updatedBy,
        })),
      );
    },

    /**
     * How many submitted applications a list's condition matches (the count an administrator
     * confirms: only they get reads), and their ids in the
     * list's order, up to `limit`.
     */
    async selection(
      where: SQL | undefined,
      order: SQL,
      limit: number,
      tx: Executor = db,
    ): Promise<{ matched: number; ids: string[] }> {
      const [counted] = rowsOf<{ matched: string | number }>(
        await tx.execute(sql`select count(*) as matched from ${a}
          where ${a.submittedAt} is not null ${where ? sql`and ${where}` : sql``}`),
      );
      const ids = rowsOf<{ id: string }>(
        await tx.execute(sql`select ${a.accountId} as id from ${a}
          where ${a.submittedAt} is not null ${where ? sql`and ${where}` : sql``}
          order by ${order} limit ${limit}`),
      );
      return { matched: Number(counted?.matched ?? 0), ids: ids.map((row) => row.id) };
    },

    /**
     * What a plan needs of each submitted application: its cycle and its colleges (read from the
     * given keys only, not the whole answers, which can be large). Unsubmitted ones are absent.
     */
    async applicationsForPlan(
      ids: readonly string[],
      collegeKeys: readonly CollegeKeys[],
      tx: Executor = db,
    ): Promise<ApplicationForPlan[]> {
      if (ids.length === 0) return [];
      const colleges =
        collegeKeys.length === 0
          ? sql`'[]'::json`
          : sql`json_build_array(${sql.join(
              collegeKeys.map(
                (keys) =>
                  sql`json_build_array(${keys.ceeb ? sql`${a.answers}->>${keys.ceeb}` : sql`null`}, ${a.answers}->>${keys.name})`,
              ),
              sql`, `,
            )})`;
      const rows = rowsOf<{
        id: string;
        cycle: string | null;
        colleges: Array<[string | null, string | null]> | string;
      }>(
        await tx.execute(sql`select ${a.accountId} as id, ${applicationReceipts.cycle} as cycle,
          ${colleges} as colleges
          from unnest(${toUuidArray(ids)}) with ordinality as wanted(id, ordinal)
          join ${a} on ${a.accountId} = wanted.id
          left join ${applicationReceipts} on ${applicationReceipts.accountId} = ${a.accountId}
          where ${a.submittedAt} is not null
          order by wanted.ordinal`),
      );
      return rows.map((row) => {
        const pairs = (
          typeof row.colleges === 'string' ? JSON.parse(row.colleges) : row.colleges
        ) as Array<[string | null, string | null]>;
        return {
          id: row.id,
          cycle: row.cycle,
          colleges: pairs.flatMap(([ceeb, name]) => {
            const code = ceeb?.trim() || null;
            const named = name?.trim() ?? '';
            return code || named ? [{ ceeb: code, name: named }] : [];
          }),
        };
      });
    },

    /** One submitted application's answers and cycle; null when it is not submitted. */
    async submittedAnswers(
      accountId: string,
      tx: Executor = db,
    ): Promise<{ answers: Record<string, string | boolean>; cycle: string | null } | null> {
      const [row] = await tx
        .select({
          answers: a.answers,
          cycle: applicationReceipts.cycle,
          submittedAt: a.submittedAt,
        })
        .from(a)
        .leftJoin(applicationReceipts, eq(applicationReceipts.accountId, a.accountId))
        .where(eq(a.accountId, accountId));
      if (!row || row.submittedAt === null) return null;
      return { answers: row.answers, cycle: row.cycle };
    },

    async readsOf(accountIds: readonly string[], tx: Executor = db): Promise<ReadOfApplication[]> {
      if (accountIds.length === 0) return [];
      return tx
        .select({ id: r.id, accountId: r.accountId, round: r.round, readerId: r.readerId })
        .from(r)
        .where(sql`${r.accountId} = any(${toUuidArray(accountIds)})`);
    },

    /** The applications with a read waiting for a reader (of one application, if given). */
    async applicationsWaiting(accountId: string | null, tx: Executor = db): Promise<string[]> {
      const rows = await tx
        .selectDistinct({ id: r.accountId })
        .from(r)
        .where(and(isNull(r.readerId), accountId ? eq(r.accountId, accountId) : undefined))
        .orderBy(asc(r.accountId));
      return rows.map((row) => row.id);
    },

    /**
     * Inserts the reads in one statement; a read that another assignment made meanwhile (same
     * round, or same reader, of an application) is skipped. Returns the reads inserted.
     */
    async insertReads(
      reads: readonly NewRead[],
      assignedBy: string,
      tx: Executor,
    ): Promise<Array<{ accountId: string; readerId: string }>> {
      if (reads.length === 0) return [];
      const rows = rowsOf<{ account_id: string; reader_id: string }>(
        await tx.execute(sql`insert into ${r}
          (account_id, round, reader_id, form_cycle, form_version, assigned_by)
          select account_id, round, reader_id, form_cycle, form_version, ${assignedBy}
          from unnest(${toUuidArray(reads.map((read) => read.accountId))},
            ${toTextArray(reads.map((read) => read.round))},
            ${toUuidArray(reads.map((read) => read.readerId))},
            ${toTextArray(reads.map((read) => read.formCycle))},
            ${sql`${`{${reads.map((read) => read.formVersion).join(',')}}`}::int[]`})
            as planned(account_id, round, reader_id, form_cycle, form_version)
          on conflict do nothing
          returning account_id, reader_id`),
      );
      return rows.map((row) => ({ accountId: row.account_id, readerId: row.reader_id }));
    },

    /** Gives waiting reads their readers; a read given one meanwhile is left as it is. */
    async fillReads(
      fills: ReadonlyArray<{ readId: string; readerId: string }>,
      tx: Executor,
    ): Promise<number> {
      let filled = 0;
      for (const fill of fills) {
        const rows = await tx
          .update(r)
          .set({ readerId: fill.readerId, assignedAt: new Date() })
          .where(and(eq(r.id, fill.readId), isNull(r.readerId)))
          .returning({ id: r.id });
        filled += rows.length;
      }
      return filled;
    },

    async read(
      readId: string,
      tx: Executor = db,
      options: { lock?: boolean } = {},
    ): Promise<{
      id: string;
      accountId: string;
      round: ReadRound;
      status: ReadStatus;
      readerId: string | null;
    } | null> {
      const query = tx
        .select({
          id: r.id,
          accountId: r.accountId,
          round: r.round,
          status: r.status,
          readerId: r.readerId,
        })
        .from(r)
        .where(eq(r.id, readId));
      const [row] = options.lock ? await query.for('update') : await query;
      return row ?? null;
    },

    /** Changes the reader only: answers, status and dates stay. */
    async setReader(readId: string, readerId: string, tx: Executor): Promise<void> {
      await tx.update(r).set({ readerId }).where(eq(r.id, readId));
    },

    async queue(
      readerId: string,
      status: 'open' | 'submitted',
      limit: number,
      tx: Executor = db,
    ): Promise<QueueRow[]> {
      const rows = rowsOf<{
        read_id: string;
        application_id: string;
        first_name: string | null;
        last_name: string | null;
        program: string | null;
        entry_term: string | null;
        round: ReadRound;
        status: ReadStatus;
        assigned_at: string | Date;
        saved_at: string | Date | null;
      }>(
        await tx.execute(sql`select ${r.id} as read_id, ${r.accountId} as application_id,
          ${a.answers}->>'first_name' as first_name, ${a.answers}->>'last_name' as last_name,
          ${a.listProgram} as program,
          coalesce(nullif(${a.answers}->>'entry_term_desc', ''), ${a.listEntryTerm}) as entry_term,
          ${r.round} as round, ${r.status} as status, ${r.assignedAt} as assigned_at,
          ${r.savedAt} as saved_at
          from ${r} join ${a} on ${a.accountId} = ${r.accountId}
          where ${r.readerId} = ${readerId}
          ${
            status === 'open'
              ? sql`and ${r.status} in ('assigned', 'draft') order by ${r.assignedAt} asc, ${r.id}`
              : sql`and ${r.status} = 'submitted' order by ${r.submittedAt} desc, ${r.id}`
          }
          limit ${limit}`),
      );
      return rows.map((row) => ({
        readId: row.read_id,
        applicationId: row.application_id,
        firstName: row.first_name,
        lastName: row.last_name,
        program: row.program,
        entryTerm: row.entry_term,
        round: row.round,
        status: row.status,
        assignedAt: new Date(row.assigned_at),
        savedAt: iso(row.saved_at),
      }));
    },

    async queueCounts(
      readerId: string,
      tx: Executor = db,
    ): Promise<{ open: number; submitted: number }> {
      const [row] = rowsOf<{ open: string | number; submitted: string | number }>(
        await tx.execute(sql`select
          count(*) filter (where ${r.status} in ('assigned', 'draft')) as open,
          count(*) filter (where ${r.status} = 'submitted') as submitted
          from ${r} where ${r.readerId} = ${readerId}`),
      );
      return { open: Number(row?.open ?? 0), submitted: Number(row?.submitted ?? 0) };
    },
  };
}

export type AssignmentStore = ReturnType<typeof createAssignmentStore>;

/** Postgres array literals, bound as one parameter each: a list of 10,000 is one value. */
function toUuidArray(values: readonly string[]): SQL {
  return sql`${`{${values.join(',')}}`}::uuid[]`;
}
function toTextArray(values: readonly string[]): SQL {
  const quoted = values.map((value) => `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`);
  return sql`${`{${quoted.join(',')}}`}::text[]`;
}

async function conflictRows(tx: Executor, where?: SQL): Promise<ConflictRow[]> {
  return tx
    .select({
      id: readerConflicts.id,
      readerId: readerConflicts.readerId,
      readerName: memberName,
      kind: readerConflicts.kind,
      value: readerConflicts.value,
      note: readerConflicts.note,
      createdBy: readerConflicts.createdBy,
      createdAt: readerConflicts.createdAt,
    })
    .from(readerConflicts)
    .innerJoin(m, eq(m.id, readerConflicts.readerId))
    .where(where)
    .orderBy(asc(readerConflicts.createdAt), asc(readerConflicts.id));
}
