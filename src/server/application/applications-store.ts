import { and, eq, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Answers } from '../../shared/form/model';
import { sha256 } from '../accounts/secrets';
import { type Sessions, sessionTokenHash } from '../accounts/sessions';
import type { AppDatabase } from '../db/database';
import { rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import {
  accounts,
  applicationReceipts,
  applications,
  courseworkTotals,
  documentAnswers,
  receiptSequences,
  sessions,
  validationReports,
  webStatuses,
} from '../db/schema';
import type { IssuedReceipt, ReceiptDraft } from '../receipts/receipts-service';
import { confirmationNumberSql } from '../receipts/receipts-store';

export type ApplicationRow = typeof applications.$inferSelect;

/** One `PUT /api/answer`: the session's token and the checked patch. */
export interface AnswerSave {
  token: string;
  patch: Answers;
  keepExisting: boolean;
}

/** What a save that applied tells its route: the session's account and idle mark. */
export interface SavedAnswers {
  accountId: string;
  lastSeenAt: Date;
}

/** The session check the answer save makes in its own statement. */
export type LiveSessions = Pick<Sessions, 'liveSessionCondition' | 'liveSessionOfHash'>;

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

  /**
   * `readForSubmit` for several sessions in one statement, by token; a token without a live
   * session is left out.
   */
  async function readForSubmits(
    liveSessions: LiveSessions,
    tokens: readonly string[],
    tx: Executor = db,
  ): Promise<Map<string, SubmitSnapshot>> {
    const tokenOfHash = new Map(tokens.map((token) => [sessionTokenHash(token), token]));
    const rows = rowsOf<{
      token_hash: string;
      account_id: string;
      last_seen_at: string | Date;
      email: string;
      answers: Answers | null;
      tabs: Record<string, string> | null;
      add_another: Record<string, number> | null;
      submitted: boolean | null;
      version: string | null;
      documents: { answer_key: string; pdf_key: string | null; after_submit: boolean }[] | null;
    }>(
      await tx.execute(sql`
  select wanted.token_hash, ${sessions.accountId} as account_id,
    ${sessions.lastSeenAt} as last_seen_at,
    ${accounts.email} as email, ${applications.answers} as answers, ${applications.tabs} as tabs,
    ${applications.addAnother} as add_another,
    ${applications.submittedAt} is not null as submitted, ${applications}.xmin::text as version,
    (select jsonb_agg(jsonb_build_object('answer_key', ${documentAnswers.answerKey},
              'pdf_key', ${documentAnswers.pdfKey},
              'after_submit', ${documentAnswers.receivedAfterSubmitAt} is not null))
       from ${documentAnswers}
       where ${documentAnswers.accountId} = ${sessions.accountId}
         and ${documentAnswers.status} = 'COMPLETED') as documents
  from jsonb_array_elements_text(${JSON.stringify([...tokenOfHash.keys()])}::jsonb)
    as wanted(token_hash)
  join ${sessions} on ${liveSessions.liveSessionOfHash(sql`wanted.token_hash`)}
  join ${accounts} on ${accounts.id} = ${sessions.accountId}
  left join ${applications} on ${applications.accountId} = ${sessions.accountId}`),
    );
    const snapshots = new Map<string, SubmitSnapshot>();
    for (const row of rows) {
      const token = tokenOfHash.get(row.token_hash);
      if (token === undefined) continue;
      snapshots.set(token, {
        accountId: row.account_id,
        lastSeenAt: new Date(row.last_seen_at),
        email: row.email,
        application:
          row.version === null
            ? null
            : {
                answers: row.answers ?? {},
                tabs: row.tabs ?? {},
                addAnother: row.add_another ?? {},
                submitted: Boolean(row.submitted),
                version: row.version,
              },
        documents: (row.documents ?? []).map((document) => ({
          answerKey: document.answer_key,
          pdfKey: document.pdf_key,
          receivedAfterSubmit: document.after_submit,
        })),
      });
    }
    return snapshots;
  }

  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /**
     * The hot path of saving: session check, merge and the submitted guard in one statement.
     * Returns the session's account and idle mark, or null when there is no live session, the
     * application is submitted or the account has no application row yet (`mergeAnswers` then
     * tells which). The benchmark measures this same call, the route's when a save goes alone.
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

    /**
     * `saveAnswers` for saves that arrived together, in one statement, by token. A token left
     * out is one `saveAnswers` would have answered null for, or one whose account came twice
     * (two sessions of one applicant: a row takes one change per statement); its route tells
     * which, as after a single save.
     */
    async saveAnswersTogether(
      liveSessions: LiveSessions,
      saves: readonly AnswerSave[],
    ): Promise<Map<string, SavedAnswers>> {
      const [only] = saves;
      if (saves.length === 1 && only) {
        const saved = await this.saveAnswers(
          liveSessions,
          only.token,
          only.patch,
          only.keepExisting,
        );
        return new Map(saved ? [[only.token, saved]] : []);
      }
      const tokenOfHash = new Map(saves.map((save) => [sessionTokenHash(save.token), save.token]));
      const input = JSON.stringify(
        saves.map((save) => ({
          token_hash: sessionTokenHash(save.token),
          patch: save.patch,
          keep: save.keepExisting,
        })),
      );
      const rows = rowsOf<{ token_hash: string; account_id: string; last_seen_at: string | Date }>(
        await db.execute(sql`
      with input as (
        select * from jsonb_to_recordset(${input}::jsonb) as input(token_hash text, patch jsonb, keep boolean)
      )
      update ${applications}
      set answers = case when input.keep then ${answersMerge(sql`input.patch`, true)}
          else ${answersMerge(sql`input.patch`, false)} end,
        updated_at = now()
      from input join ${sessions} on ${liveSessions.liveSessionOfHash(sql`input.token_hash`)}
      where ${applications.accountId} = ${sessions.accountId} and ${applications.submittedAt} is null
      returning input.token_hash, ${sessions.accountId} as account_id,
        ${sessions.lastSeenAt} as last_seen_at`),
      );
      const saved = new Map<string, SavedAnswers>();
      for (const row of rows) {
        const token = tokenOfHash.get(row.token_hash);
        if (token === undefined) continue;
        saved.set(token, { accountId: row.account_id, lastSeenAt: new Date(row.last_seen_at) });
      }
      return saved;
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

    /**
     * Everything submit decides from, in one statement: the session's account (null without a
     * live session), its address, the application with its row version, and its converted
     * documents. Nothing is locked: `submit` applies only if the row is still this version.
     */
    async readForSubmit(
      liveSessions: LiveSessions,
      token: string,
      tx: Executor = db,
    ): Promise<SubmitSnapshot | null> {
      return (await readForSubmits(liveSessions, [token], tx)).get(token) ?? null;
    },

    readForSubmits,

    /** An empty application for an account that has none yet, so that it can be submitted. */
    async createIfMissing(accountId: string, tx: Executor = db): Promise<void> {
      await tx.insert(applications).values({ accountId }).onConflictDoNothing();
    },

    /**
     * Submits, in one statement and so one transaction: for each application its final answers
     * (its `answers` laid over those stored) and submit time, the statuses up to submitted and, when it has a draft, its receipt with the
     * cycle's next number. Each applies only to an unsubmitted application still at its
     * `version` (the row's xmin when it was read and validated); the others are left out of the
     * answer, for their callers to read again. At most one submit per account.
     *
     * Every submit of a cycle updates the cycle's sequence row, and its lock is held until the
     * commit, so submits one by one would each wait for the previous one's commit to reach the
     * disk. Several in one statement take their numbers in one update and share one commit:
     * numbers stay unique, in the order given, and since they are taken in the transaction that
     * stores the receipts, a statement that fails takes them all back (no gaps).
     */
    async submit(
      submits: readonly SubmitItem[],
      tx: Executor = db,
    ): Promise<Map<string, SubmitOutcome>> {
      const input = JSON.stringify(
        submits.map((item, ord) => ({
          ord,
          account_id: item.accountId,
          version: item.version,
          answers: item.answers,
          prefix: item.draft?.prefix ?? null,
          cycle: item.draft?.cycle ?? null,
          fingerprint: item.draft?.fingerprint ?? null,
          documents: item.draft?.documents ?? null,
          transfer_gpa: item.coursework.gpa,
          transfer_units: item.coursework.transferUnits,
          in_progress_units: item.coursework.inProgressUnits,
        })),
      );
      const rows = rowsOf<{
        account_id: string;
        submitted_at: string | Date;
        number: string | null;
        sequence: number | null;
      }>(
        await tx.execute(sql`
      with input as (
        select * from jsonb_to_recordset(${input}::jsonb) as input(ord int, account_id uuid,
          version text, answers jsonb, prefix text, cycle text, fingerprint text, documents jsonb,
          transfer_gpa numeric, transfer_units numeric, in_progress_units numeric)
      ), submitted as (
        update ${applications} as target
        -- The list's status is set here, so the statuses' trigger finds nothing left to update.
        -- The answers as read (the row is still at that version) with the changes submit made.
        set answers = coalesce(target.answers, '{}'::jsonb) || input.answers,
          submitted_at = now(), updated_at = now(), list_status = 2
        from input
        where target.account_id = input.account_id and target.submitted_at is null
          and target.xmin = input.version::xid
        returning target.account_id, target.submitted_at
      ), statuses as (
        insert into ${webStatuses} (account_id, web_status)
        select submitted.account_id, status.web_status from submitted,
          unnest(array['started', 'validating', 'submitted']) as status(web_status)
        on conflict do nothing
      ), totals as (
        insert into ${courseworkTotals}
          (account_id, transfer_gpa, transfer_units, in_progress_units)
        select input.account_id, input.transfer_gpa, input.transfer_units, input.in_progress_units
        from submitted join input using (account_id)
        on conflict (account_id) do update set transfer_gpa = excluded.transfer_gpa,
          transfer_units = excluded.transfer_units,
          in_progress_units = excluded.in_progress_units, updated_at = now()
      ), drafted as (
        select input.*, submitted.submitted_at from submitted join input using (account_id)
        where input.cycle is not null
      ), counted as (
        select cycle, count(*)::int as taken from drafted group by cycle
      ), numbered as (
        insert into ${receiptSequences} (cycle, last) select cycle, taken from counted
        on conflict (cycle) do update set last = ${receiptSequences.last} + excluded.last
        returning cycle, last
      ), ranked as (
        select drafted.*, (numbered.last - counted.taken
            + row_number() over (partition by drafted.cycle order by drafted.ord))::int as sequence
        from drafted join counted using (cycle) join numbered using (cycle)
      ), receipt as (
        insert into ${applicationReceipts}
          (account_id, number, cycle, sequence, submitted_at, fingerprint, documents)
        select account_id, ${confirmationNumberSql(sql`prefix`, sql`cycle`, sql`sequence`)},
          cycle, sequence, submitted_at, fingerprint, documents
        from ranked
        returning account_id, number, sequence
      )
      select submitted.account_id, submitted.submitted_at, receipt.number, receipt.sequence
      from submitted left join receipt using (account_id)`),
      );
      return new Map(
        rows.map((row) => [
          row.account_id,
          {
            submittedAt: new Date(row.submitted_at),
            receipt:
              row.number !== null && row.sequence !== null
                ? { number: row.number, sequence: row.sequence }
                : null,
          },
        ]),
      );
    },
  };
}

/** One application to submit: see `submit`. */
export interface SubmitItem {
  accountId: string;
  version: string;
  /**
   * Laid over the answers as read at `version`: the answers submit changed (hidden ones
   * cleared), or all of them.
   */
  answers: Answers;
  draft: ReceiptDraft | null;
  /** The transfer GPA and units of the submitted coursework, as shown (`3.45`, `60.00`). */
  coursework: SubmittedCourseworkTotals;
}

export interface SubmittedCourseworkTotals {
  gpa: string | null;
  transferUnits: string;
  inProgressUnits: string;
}

export interface SubmitOutcome {
  submittedAt: Date;
  receipt: IssuedReceipt | null;
}

/** What submit reads: see `readForSubmit`. */
export interface SubmitSnapshot {
  accountId: string;
  lastSeenAt: Date;
  email: string;
  application: {
    answers: Answers;
    tabs: Record<string, string>;
    addAnother: Record<string, number>;
    submitted: boolean;
    version: string;
  } | null;
  /** Converted documents, with those received after a submit marked. */
  documents: { answerKey: string; pdfKey: string | null; receivedAfterSubmit: boolean }[];
}

export type ApplicationsStore = ReturnType<typeof createApplicationsStore>;
