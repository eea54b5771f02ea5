import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { normaliseUsername } from '../../shared/accounts/account-forms';
import type { ProfileResponse } from '../../shared/api/profile';
import type { AppDatabase } from '../db/database';
import { rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import { accounts, applications, confirmationCodes, logins, passwordResets } from '../db/schema';

export type Account = typeof accounts.$inferSelect;
export type ConfirmationCode = typeof confirmationCodes.$inferSelect;

/** The profile's columns as the database returns them; the route shapes the response. */
export interface ProfileRow {
  username: string;
  answer: ProfileResponse['answer'] | null;
  last_page: string | null;
  successful_login: ProfileResponse['successful_login'];
  document_answer: ProfileResponse['document_answer'];
  web_status: ProfileResponse['web_status'];
}

/**
 * Accounts, confirmation codes, password-reset links and sign-ins. Every method runs on the
 * database unless given a transaction (`tx`), so a route can make several calls commit together.
 */
export function createAccountsStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** The account whose address matches the username, ignoring case. */
    async findByUsername(username: string, tx: Executor = db): Promise<Account | null> {
      const [account] = await tx
        .select()
        .from(accounts)
        .where(eq(sql`lower(${accounts.email})`, normaliseUsername(username)));
      return account ?? null;
    },

    /** A new account; null when the address was taken meanwhile. */
    async create(email: string, passwordHash: string, tx: Executor = db): Promise<string | null> {
      const [account] = await tx
        .insert(accounts)
        .values({ email, passwordHash })
        .onConflictDoNothing()
        .returning({ id: accounts.id });
      return account?.id ?? null;
    },

    /** A new password for an account not yet confirmed; null when it was confirmed meanwhile. */
    async setUnconfirmedPassword(
      accountId: string,
      passwordHash: string,
      tx: Executor = db,
    ): Promise<string | null> {
      const [account] = await tx
        .update(accounts)
        .set({ passwordHash })
        .where(and(eq(accounts.id, accountId), isNull(accounts.confirmedAt)))
        .returning({ id: accounts.id });
      return account?.id ?? null;
    },

    /** Stores an account's confirmation code; it replaces the old one, which stops working. */
    async replaceConfirmationCode(
      code: { accountId: string; codeHash: string; expiresAt: Date },
      tx: Executor = db,
    ): Promise<void> {
      const values = { ...code, failedAttempts: 0 };
      await tx
        .insert(confirmationCodes)
        .values(values)
        .onConflictDoUpdate({
          target: confirmationCodes.accountId,
          set: { ...values, createdAt: sql`now()` },
        });
    },

    /** The account's confirmation code, locked until the transaction ends. */
    async lockConfirmationCode(accountId: string, tx: Executor): Promise<ConfirmationCode | null> {
      const [code] = await tx
        .select()
        .from(confirmationCodes)
        .where(eq(confirmationCodes.accountId, accountId))
        .for('update');
      return code ?? null;
    },

    async countFailedConfirmation(accountId: string, tx: Executor = db): Promise<void> {
      await tx
        .update(confirmationCodes)
        .set({ failedAttempts: sql`${confirmationCodes.failedAttempts} + 1` })
        .where(eq(confirmationCodes.accountId, accountId));
    },

    /** Marks the account confirmed and spends its code. */
    async confirm(accountId: string, tx: Executor = db): Promise<void> {
      await tx.delete(confirmationCodes).where(eq(confirmationCodes.accountId, accountId));
      await tx.update(accounts).set({ confirmedAt: sql`now()` }).where(eq(accounts.id, accountId));
    },

    /**
     * Records a sign-in. Every signed-in applicant has an application row from here on, so
     * saving answers is a plain update.
     */
    async recordSignIn(accountId: string, tx: Executor = db): Promise<void> {
      await tx.insert(logins).values({ accountId });
      await tx.insert(applications).values({ accountId }).onConflictDoNothing();
    },

    async createPasswordReset(
      reset: { tokenHash: string; accountId: string; expiresAt: Date },
      tx: Executor = db,
    ): Promise<void> {
      await tx.insert(passwordResets).values(reset);
    },

    /**
     * One round trip that reads nothing: a path that writes nothing spends it so that it takes
     * as long as the path that writes.
     */
    async roundTrip(tx: Executor = db): Promise<void> {
      await tx.execute(sql`select 1`);
    },

    /**
     * Marks a live reset link of that address used and returns its account, or null when there
     * is none. Checking and marking in one statement makes the link single-use under races.
     */
    async spendPasswordReset(
      tokenHash: string,
      email: string,
      tx: Executor = db,
    ): Promise<string | null> {
      const [used] = await tx
        .update(passwordResets)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(passwordResets.tokenHash, tokenHash),
            isNull(passwordResets.usedAt),
            gt(passwordResets.expiresAt, sql`now()`),
            sql`${passwordResets.accountId} = (select ${accounts.id} from ${accounts} where lower(${accounts.email}) = ${email})`,
          ),
        )
        .returning({ accountId: passwordResets.accountId });
      return used?.accountId ?? null;
    },

    /** Every other reset link of the account stops working. */
    async spendOtherPasswordResets(accountId: string, tx: Executor = db): Promise<void> {
      await tx
        .update(passwordResets)
        .set({ usedAt: sql`now()` })
        .where(and(eq(passwordResets.accountId, accountId), isNull(passwordResets.usedAt)));
    },

    /** A new password; a reset link reached the address, so the account counts as confirmed. */
    async setPasswordAndConfirm(
      accountId: string,
      passwordHash: string,
      tx: Executor = db,
    ): Promise<void> {
      await tx
        .update(accounts)
        .set({ passwordHash, confirmedAt: sql`coalesce(${accounts.confirmedAt}, now())` })
        .where(eq(accounts.id, accountId));
    },

    /** The account with its answers, sign-ins, web statuses and converted documents. */
    async profile(accountId: string, tx: Executor = db): Promise<ProfileRow | null> {
      const [row] = rowsOf<ProfileRow>(
        await tx.execute(sql`
      select a.email as username, ap.answers as answer, ap.last_page,
        coalesce((select json_agg(json_build_object('logged_in_at', l.logged_in_at) order by l.id)
                  from logins l where l.account_id = a.id), '[]'::json) as successful_login,
        coalesce((select json_agg(json_build_object('web_status', w.web_status) order by w.created_at, array_position(array['started', 'validating', 'submitted'], w.web_status))
                  from web_statuses w where w.account_id = a.id), '[]'::json) as web_status,
        coalesce((select json_object_agg(d.answer_key, json_build_object('file_name', d.file_name, 'file_size', d.file_size))
                  from document_answers d where d.account_id = a.id and d.status = 'COMPLETED'), '{}'::json) as document_answer
      from accounts a left join applications ap on ap.account_id = a.id
      where a.id = ${accountId}`),
      );
      return row ?? null;
    },
  };
}

export type AccountsStore = ReturnType<typeof createAccountsStore>;
