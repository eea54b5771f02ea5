import { and, eq, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Answers } from '../../shared/form/model';
import { sha256 } from '../accounts/secrets';
import { type Sessions, sessionTokenHash } from '../accounts/sessions';
import type { AppDatabase } from '../db/database';
import { rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import { applications, sessions, validationReports, webStatuses } from '../db/schema';

export type ApplicationRow = typeof applications.$inferSelect;

/** The session check the answer save makes in its own statement. */
export type LiveSessions = Pick<Sessions, 'liveSessionOfHash'>;

/**
 * The `answers = ...` assignment for a patch (JSON text). `||` merges per key: two browser tabs
 * saving different keys both keep their edits. Answers carried in from before sign-up
 * (`keepExisting`) never overwrite what the account already holds.
 */
function answersMerge(patch: string | SQLWrapper, keepExisting: boolean): SQL {
  return keepExisting
    ? sql`${patch}::jsonb || (select coalesce(jsonb_object_agg(key, value), '{}'::jsonb)
          from jsonb_each(${applications.answers}) where value not in ('""'::jsonb, 'false'::jsonb))`
    : sql`${applications.answers} || ${patch}::jsonb`;
}

/**
 * Applications: answers merged per key, tabs, add-another counts, the last page, web statuses,
 * validation reports and the one submit. Every change is refused once the application is
 * submitted. Methods run on the database unless given a transaction (`tx`).
 */
export function createApplicationsStore(db: AppDatabase) {
  /**
   * Applies a change to the application row in one statement, creating the row if needed.
   * False when the application is submitted.
   */
  async function change(
    accountId: string,
    set: SQL,
    insert: Partial<typeof applications.$inferInsert>,
    tx: Executor,
  ): Promise<boolean> {
    const rows = rowsOf<{ ok: number }>(
      await tx.execute(sql`
      insert into ${applications} (account_id, answers, last_page, tabs, add_another)
      values (${accountId}, ${JSON.stringify(insert.answers ?? {})}::jsonb, ${insert.lastPage ?? null},
              ${JSON.stringify(insert.tabs ?? {})}::jsonb, ${JSON.stringify(insert.addAnother ?? {})}::jsonb)
      on conflict (account_id) do update set ${set}, updated_at = now()
      where ${applications.submittedAt} is null
      returning 1 as ok`),
    );
    return rows.length > 0;
  }

  /** Merges one entry into a JSON column of the application (the chosen tabs, add-another counts). */
  function mergeEntry(
    accountId: string,
    column: 'tabs' | 'addAnother',
    entry: Record<string, string | number>,
    tx: Executor,
  ): Promise<boolean> {
    const set =
      column === 'tabs'
        ? sql`tabs = ${applications.tabs} || ${JSON.stringify(entry)}::jsonb`
        : sql`add_another = ${applications.addAnother} || ${JSON.stringify(entry)}::jsonb`;
    return change(accountId, set, { [column]: entry }, tx);
  }

  /**
   * The answer save is the hottest statement: prepared once per session settings and merge kind,
   * so neither the query text nor (on PostgreSQL, named per connection) its plan is built per save.
   */
  function prepareSave(liveSessions: LiveSessions, keepExisting: boolean) {
    const query = db
      .update(applications)
      .set({ answers: answersMerge(sql.placeholder('patch'), keepExisting), updatedAt: sql`now()` })
      .from(sessions)
      .where(
        and(
          liveSessions.liveSessionOfHash(sql.placeholder('tokenHash')),
          eq(applications.accountId, sessions.accountId),
          isNull(applications.submittedAt),
        ),
      )
      .returning({ accountId: sessions.accountId, lastSeenAt: sessions.lastSeenAt });
    // Named after its text: a name must never stand for two different statements on a connection.
    return query.prepare(`save_answers_${sha256(query.toSQL().sql).slice(0, 16)}`);
  }
  const preparedSaves = new WeakMap<LiveSessions, ReturnType<typeof prepareSave>[]>();
  function preparedSave(liveSessions: LiveSessions, keepExisting: boolean) {
    let both = preparedSaves.get(liveSessions);
    if (!both) {
      both = [prepareSave(liveSessions, false), prepareSave(liveSessions, true)];
      preparedSaves.set(liveSessions, both);
    }
    return both[keepExisting ? 1 : 0] as ReturnType<typeof prepareSave>;
  }

  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /**
     * The hot path of saving: session check, merge and the submitted guard in one statement.
     * Returns the session's account and idle mark, or null when there is no live session, the
     * application is submitted or the account has no application row yet (`mergeAnswers` then
     * tells which). The benchmark measures this same call.
     */
    async saveAnswers(
      liveSessions: LiveSessions,
      token: string,
      patch: Answers,
      keepExisting: boolean,
    ): Promise<{ accountId: string; lastSeenAt: Date } | null> {
      const [saved] = await preparedSave(liveSessions, keepExisting).execute({
        tokenHash: sessionTokenHash(token),
        patch: JSON.stringify(patch),
      });
      return saved ?? null;
    },

    /** Merges answers into the account's application, creating it; false once submitted. */
    async mergeAnswers(
      accountId: string,
      patch: Answers,
      keepExisting: boolean,
      tx: Executor = db,
    ): Promise<boolean> {
      const merged = sql`answers = ${answersMerge(JSON.stringify(patch), keepExisting)}`;
      return change(accountId, merged, { answers: patch }, tx);
    },

    async setLastPage(accountId: string, lastPage: string, tx: Executor = db): Promise<boolean> {
      return change(accountId, sql`last_page = ${lastPage}`, { lastPage }, tx);
    },

    async chooseTab(
      accountId: string,
      tabId: string,
      chosen: string,
      tx: Executor = db,
    ): Promise<boolean> {
      return mergeEntry(accountId, 'tabs', { [tabId]: chosen }, tx);
    },

    async setAddAnotherCount(
      accountId: string,
      buttonId: string,
      count: number,
      tx: Executor = db,
    ): Promise<boolean> {
      return mergeEntry(accountId, 'addAnother', { [buttonId]: count }, tx);
    },

    /** Tabs, add-another counts and whether it is submitted; empty for no application yet. */
    async state(accountId: string, tx: Executor = db) {
      const [row] = await tx
        .select({
          tabs: applications.tabs,
          addAnother: applications.addAnother,
          submittedAt: applications.submittedAt,
        })
        .from(applications)
        .where(eq(applications.accountId, accountId));
      return {
        tabs: row?.tabs ?? {},
        addAnother: row?.addAnother ?? {},
        submitted: Boolean(row?.submittedAt),
      };
    },

    /** The answers and the state that decides which are shown, as a reader sees them. */
    async findForReading(accountId: string, tx: Executor = db) {
      const [row] = await tx
        .select({
          answers: applications.answers,
          tabs: applications.tabs,
          addAnother: applications.addAnother,
        })
        .from(applications)
        .where(eq(applications.accountId, accountId));
      return row ?? null;
    },

    async isSubmitted(accountId: string, tx: Executor = db): Promise<boolean> {
      const [row] = await tx
        .select({ submittedAt: applications.submittedAt })
        .from(applications)
        .where(eq(applications.accountId, accountId));
      return Boolean(row?.submittedAt);
    },

    /** Statuses are recorded once each and in order: a later one brings the earlier ones. */
    async recordStatuses(accountId: string, statuses: string[], tx: Executor = db): Promise<void> {
      for (const webStatus of statuses) {
        await tx.insert(webStatuses).values({ accountId, webStatus }).onConflictDoNothing();
      }
    },

    async recordValidationReport(
      accountId: string,
      errors: (typeof validationReports.$inferInsert)['errors'],
      tx: Executor = db,
    ): Promise<void> {
      await tx.insert(validationReports).values({ accountId, errors });
    },

    /** The application row, created if missing and locked until the transaction ends. */
    async lockForSubmit(accountId: string, tx: Executor): Promise<ApplicationRow | null> {
      await tx.insert(applications).values({ accountId }).onConflictDoNothing();
      const [row] = await tx
        .select()
        .from(applications)
        .where(eq(applications.accountId, accountId))
        .for('update');
      return row ?? null;
    },

    /** Stores the final answers and the submit time; nothing changes the application after. */
    async markSubmitted(accountId: string, answers: Answers, tx: Executor = db): Promise<void> {
      await tx
        .update(applications)
        .set({ answers, submittedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(applications.accountId, accountId), isNull(applications.submittedAt)));
    },
  };
}

export type ApplicationsStore = ReturnType<typeof createApplicationsStore>;
