import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { NOT_CONFIRMED_CODE } from '../../shared/accounts/account-api';
import {
  confirmSchema,
  forgotPasswordSchema,
  loginSchema,
  normaliseUsername,
  resendConfirmSchema,
  resetPasswordSchema,
  signupSchema,
} from '../../shared/accounts/account-forms';
import type { ProfileResponse } from '../../shared/api/profile';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { AppDatabase } from '../db/database';
import { rowsOf } from '../db/database';
import { accounts, applications, confirmationCodes, logins, passwordResets } from '../db/schema';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import { accountMessages } from '../mail/account-messages';
import type { Mailer } from '../mail/mailer';
import type { RateLimiter } from '../rate-limit/rate-limiter';
import {
  ACCOUNT_MESSAGES,
  CONFIRMATION_CODE_MAX_FAILURES,
  CONFIRMATION_CODE_TTL_MINUTES,
  LIMITS,
  PASSWORD_RESET_TTL_MINUTES,
} from './account-policy';
import {
  confirmationCode,
  hashPassword,
  randomToken,
  sha256,
  spendPasswordCheckTime,
  verifyPassword,
} from './secrets';
import { SESSION_ENDED_MESSAGE, type Sessions } from './sessions';

export interface AccountsOptions {
  db: AppDatabase;
  mailer: Mailer;
  sessions: Sessions;
  limiter: RateLimiter;
  tenant: TenantConfig;
  /** Links in mail start here; without it, the address the request came to. */
  publicUrl: string | undefined;
}

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const codeHash = (accountId: string, code: string) => sha256(`${accountId}:${code}`);

export const accountsRoutes: FastifyPluginAsync<AccountsOptions> = async (parent, options) => {
  const { db, mailer, sessions, limiter } = options;
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const mail = accountMessages(options.tenant);
  const siteUrl = (request: FastifyRequest) =>
    options.publicUrl?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;

  async function issueConfirmationCode(accountId: string, email: string): Promise<void> {
    const code = confirmationCode();
    const values = {
      accountId,
      codeHash: codeHash(accountId, code),
      expiresAt: minutesFromNow(CONFIRMATION_CODE_TTL_MINUTES),
      failedAttempts: 0,
    };
    // A new code replaces the old one, which stops working at once.
    await db
      .insert(confirmationCodes)
      .values(values)
      .onConflictDoUpdate({
        target: confirmationCodes.accountId,
        set: { ...values, createdAt: sql`now()` },
      });
    mailer.send(mail.confirmationCode(email, code, CONFIRMATION_CODE_TTL_MINUTES));
  }

  async function findAccount(username: string) {
    const [account] = await db
      .select()
      .from(accounts)
      .where(eq(sql`lower(${accounts.email})`, normaliseUsername(username)));
    return account ?? null;
  }

  app.post('/public/signup', { schema: { body: signupSchema } }, async (request) => {
    const email = normaliseUsername(request.body.username);
    await limiter.consume([{ limit: LIMITS.signupPerIp, subject: request.ip }]);
    // Hashing first keeps every path equally slow, so the reply does not tell who has an account.
    const passwordHash = await hashPassword(request.body.password);
    const existing = await findAccount(email);
    if (existing?.confirmedAt) {
      mailer.send(
        mail.alreadyRegistered(email, `${siteUrl(request)}/login`, `${siteUrl(request)}/forgot`),
      );
      return { message: ACCOUNT_MESSAGES.signedUp(email) };
    }
    const [account] = existing
      ? await db
          .update(accounts)
          .set({ passwordHash })
          .where(and(eq(accounts.id, existing.id), isNull(accounts.confirmedAt)))
          .returning({ id: accounts.id })
      : await db
          .insert(accounts)
          .values({ email, passwordHash })
          .onConflictDoNothing()
          .returning({ id: accounts.id });
    const accountId = account?.id ?? null;
    // Null: another request created or confirmed the account meanwhile; answer the same either way.
    if (accountId) await issueConfirmationCode(accountId, email);
    return { message: ACCOUNT_MESSAGES.signedUp(email) };
  });

  app.post('/public/confirm', { schema: { body: confirmSchema } }, async (request) => {
    const email = normaliseUsername(request.body.username);
    await limiter.consume([
      { limit: LIMITS.confirmPerIp, subject: request.ip },
      { limit: LIMITS.confirmPerAccount, subject: email },
    ]);
    const account = await findAccount(email);
    const wrong = () =>
      new HttpError(400, ACCOUNT_MESSAGES.codeWrong, { code: [ACCOUNT_MESSAGES.codeWrong] });
    if (!account || account.confirmedAt) throw wrong();

    const confirmedNow = await db.transaction(async (tx) => {
      const [live] = await tx
        .select()
        .from(confirmationCodes)
        .where(eq(confirmationCodes.accountId, account.id))
        .for('update');
      if (
        !live ||
        live.expiresAt <= new Date() ||
        live.failedAttempts >= CONFIRMATION_CODE_MAX_FAILURES
      ) {
        return 'dead' as const;
      }
      if (live.codeHash !== codeHash(account.id, request.body.code)) {
        await tx
          .update(confirmationCodes)
          .set({ failedAttempts: sql`${confirmationCodes.failedAttempts} + 1` })
          .where(eq(confirmationCodes.accountId, account.id));
        return live.failedAttempts + 1 >= CONFIRMATION_CODE_MAX_FAILURES
          ? ('dead' as const)
          : ('wrong' as const);
      }
      await tx.delete(confirmationCodes).where(eq(confirmationCodes.accountId, account.id));
      await tx.update(accounts).set({ confirmedAt: sql`now()` }).where(eq(accounts.id, account.id));
      return 'confirmed' as const;
    });
    if (confirmedNow === 'dead') {
      throw new HttpError(400, ACCOUNT_MESSAGES.codeDead, { code: [ACCOUNT_MESSAGES.codeDead] });
    }
    if (confirmedNow === 'wrong') throw wrong();
    return { message: ACCOUNT_MESSAGES.confirmed };
  });

  app.post('/public/resend-confirm', { schema: { body: resendConfirmSchema } }, async (request) => {
    const email = normaliseUsername(request.body.username);
    await limiter.consume([
      { limit: LIMITS.resendPerIp, subject: request.ip },
      { limit: LIMITS.resendPerAccount, subject: email },
    ]);
    const account = await findAccount(email);
    if (account && !account.confirmedAt) await issueConfirmationCode(account.id, email);
    return { message: ACCOUNT_MESSAGES.codeResent(email) };
  });

  app.post('/public/login', { schema: { body: loginSchema } }, async (request, reply) => {
    const email = normaliseUsername(request.body.username);
    await limiter.consume([
      { limit: LIMITS.loginPerIp, subject: request.ip },
      { limit: LIMITS.loginPerAccount, subject: email },
    ]);
    const account = await findAccount(email);
    if (!account) {
      await spendPasswordCheckTime(request.body.password);
      throw new HttpError(400, ACCOUNT_MESSAGES.loginFailed);
    }
    if (!(await verifyPassword(account.passwordHash, request.body.password))) {
      throw new HttpError(400, ACCOUNT_MESSAGES.loginFailed);
    }
    if (!account.confirmedAt) {
      throw new HttpError(
        403,
        ACCOUNT_MESSAGES.notConfirmed,
        undefined,
        undefined,
        NOT_CONFIRMED_CODE,
      );
    }
    await db.insert(logins).values({ accountId: account.id });
    // Every signed-in applicant has an application row, so saving answers is a plain update.
    await db.insert(applications).values({ accountId: account.id }).onConflictDoNothing();
    await sessions.start(request, reply, account.id);
    return { message: 'Logged in.' };
  });

  app.post(
    '/public/forgot-password',
    { schema: { body: forgotPasswordSchema } },
    async (request) => {
      const email = normaliseUsername(request.body.username);
      await limiter.consume([
        { limit: LIMITS.forgotPerIp, subject: request.ip },
        { limit: LIMITS.forgotPerAccount, subject: email },
      ]);
      const account = await findAccount(email);
      const token = randomToken();
      if (account) {
        await db.insert(passwordResets).values({
          tokenHash: sha256(token),
          accountId: account.id,
          expiresAt: minutesFromNow(PASSWORD_RESET_TTL_MINUTES),
        });
        const url = new URL('/reset', siteUrl(request));
        url.searchParams.set('username', email);
        url.searchParams.set('id', token);
        mailer.send(mail.passwordReset(email, url.toString(), PASSWORD_RESET_TTL_MINUTES));
      } else {
        // The same work as the known-address path, so timing does not tell the two apart.
        sha256(token);
        await db.execute(sql`select 1`);
      }
      return { message: ACCOUNT_MESSAGES.resetRequested(email) };
    },
  );

  app.post('/public/reset-password', { schema: { body: resetPasswordSchema } }, async (request) => {
    await limiter.consume([{ limit: LIMITS.resetPerIp, subject: request.ip }]);
    const email = normaliseUsername(request.body.username);
    const passwordHash = await hashPassword(request.body.password);
    const reset = await db.transaction(async (tx) => {
      // Marking the link used in the same statement that checks it makes it single-use under races.
      const [used] = await tx
        .update(passwordResets)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(passwordResets.tokenHash, sha256(request.body.id)),
            isNull(passwordResets.usedAt),
            gt(passwordResets.expiresAt, sql`now()`),
            sql`${passwordResets.accountId} = (select ${accounts.id} from ${accounts} where lower(${accounts.email}) = ${email})`,
          ),
        )
        .returning({ accountId: passwordResets.accountId });
      if (!used) return false;
      await tx
        .update(accounts)
        .set({ passwordHash, confirmedAt: sql`coalesce(${accounts.confirmedAt}, now())` })
        .where(eq(accounts.id, used.accountId));
      await tx
        .update(passwordResets)
        .set({ usedAt: sql`now()` })
        .where(and(eq(passwordResets.accountId, used.accountId), isNull(passwordResets.usedAt)));
      await sessions.revokeAllOf(used.accountId, tx);
      return true;
    });
    if (!reset) {
      throw new HttpError(400, ACCOUNT_MESSAGES.resetLinkDead, {
        id: [ACCOUNT_MESSAGES.resetLinkDead],
      });
    }
    return { message: ACCOUNT_MESSAGES.passwordReset };
  });

  app.get('/api/logout', async (request, reply) => {
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw new HttpError(403, 'This request came from another site and was refused.');
    }
    const token = sessions.token(request);
    if (token) await sessions.revoke(token);
    sessions.clearCookies(reply);
    return { message: ACCOUNT_MESSAGES.loggedOut };
  });

  await app.register(async (signedIn) => {
    signedIn.addHook('onRequest', sessions.requireSession.bind(sessions));

    signedIn.get('/api/profile', async (request) => profile(db, request.accountId));

    // The browser calls this while the applicant is active but sends nothing else, so the
    // server's idle timer follows the browser's.
    signedIn.post('/api/keep-alive', async (_request, reply) => reply.status(204).send());
  });
};

async function profile(db: AppDatabase, accountId: string): Promise<ProfileResponse> {
  const [row] = rowsOf<{
    username: string;
    answer: ProfileResponse['answer'] | null;
    last_page: string | null;
    successful_login: ProfileResponse['successful_login'];
    document_answer: ProfileResponse['document_answer'];
    web_status: ProfileResponse['web_status'];
  }>(
    await db.execute(sql`
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
  if (!row) throw new HttpError(401, SESSION_ENDED_MESSAGE);
  return {
    answer: row.answer ?? {},
    document_answer: row.document_answer,
    username: row.username,
    last_page: row.last_page,
    successful_login: row.successful_login,
    web_status: row.web_status,
  };
}
