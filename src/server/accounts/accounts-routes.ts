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
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import { accountMessages } from '../mail/account-messages';
import type { Mailer } from '../mail/mailer';
import type { AccountRateLimiter } from '../rate-limit/rate-limiter';
import { createSignInThrottle } from '../rate-limit/sign-in-throttle';
import {
  ACCOUNT_MESSAGES,
  CONFIRMATION_CODE_MAX_FAILURES,
  CONFIRMATION_CODE_TTL_MINUTES,
  LIMITS,
  LOGIN_LIMITS,
  PASSWORD_RESET_TTL_MINUTES,
} from './account-policy';
import type { AccountsStore } from './accounts-store';
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
  store: AccountsStore;
  mailer: Mailer;
  sessions: Sessions;
  limiter: AccountRateLimiter;
  tenant: TenantConfig;
  /** Links in mail start here; without it, the address the request came to. */
  publicUrl: string | undefined;
}

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const codeHash = (accountId: string, code: string) => sha256(`${accountId}:${code}`);

export const accountsRoutes: FastifyPluginAsync<AccountsOptions> = async (parent, options) => {
  const { mailer, sessions, limiter, store } = options;
  const loginThrottle = createSignInThrottle(limiter, LOGIN_LIMITS);
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const mail = accountMessages(options.tenant);
  const siteUrl = (request: FastifyRequest) =>
    options.publicUrl?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;

  async function issueConfirmationCode(accountId: string, email: string): Promise<void> {
    const code = confirmationCode();
    // A new code replaces the old one, which stops working at once.
    await store.replaceConfirmationCode({
      accountId,
      codeHash: codeHash(accountId, code),
      expiresAt: minutesFromNow(CONFIRMATION_CODE_TTL_MINUTES),
    });
    mailer.send(mail.confirmationCode(email, code, CONFIRMATION_CODE_TTL_MINUTES));
  }

  app.post('/public/signup', { schema: { body: signupSchema } }, async (request) => {
    const email = normaliseUsername(request.body.username);
    await limiter.consume([{ limit: LIMITS.signupPerIp, subject: request.ip }]);
    // Hashing first keeps every path equally slow, so the reply does not tell who has an account.
    const passwordHash = await hashPassword(request.body.password);
    const existing = await store.findByUsername(email);
    if (existing?.confirmedAt) {
      mailer.send(
        mail.alreadyRegistered(email, `${siteUrl(request)}/login`, `${siteUrl(request)}/forgot`),
      );
      return { message: ACCOUNT_MESSAGES.signedUp(email) };
    }
    const accountId = existing
      ? await store.setUnconfirmedPassword(existing.id, passwordHash)
      : await store.create(email, passwordHash);
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
    const account = await store.findByUsername(email);
    const wrong = () =>
      new HttpError(400, ACCOUNT_MESSAGES.codeWrong, { code: [ACCOUNT_MESSAGES.codeWrong] });
    if (!account || account.confirmedAt) throw wrong();

    const confirmedNow = await store.transaction(async (tx) => {
      const live = await store.lockConfirmationCode(account.id, tx);
      if (
        !live ||
        live.expiresAt <= new Date() ||
        live.failedAttempts >= CONFIRMATION_CODE_MAX_FAILURES
      ) {
        return 'dead' as const;
      }
      if (live.codeHash !== codeHash(account.id, request.body.code)) {
        await store.countFailedConfirmation(account.id, tx);
        return live.failedAttempts + 1 >= CONFIRMATION_CODE_MAX_FAILURES
          ? ('dead' as const)
          : ('wrong' as const);
      }
      await store.confirm(account.id, tx);
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
    const account = await store.findByUsername(email);
    if (account && !account.confirmedAt) await issueConfirmationCode(account.id, email);
    return { message: ACCOUNT_MESSAGES.codeResent(email) };
  });

  app.post('/public/login', { schema: { body: loginSchema } }, async (request, reply) => {
    const email = normaliseUsername(request.body.username);
    await loginThrottle.admit(request.ip, email);
    const account = await store.findByUsername(email);
    const passwordRight = account
      ? await verifyPassword(account.passwordHash, request.body.password)
      : await spendPasswordCheckTime(request.body.password).then(() => false);
    if (!account || !passwordRight) {
      await loginThrottle.failed(request.ip, email);
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
    await store.recordSignIn(account.id);
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
      const account = await store.findByUsername(email);
      const token = randomToken();
      if (account) {
        await store.createPasswordReset({
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
        await store.roundTrip();
      }
      return { message: ACCOUNT_MESSAGES.resetRequested(email) };
    },
  );

  app.post('/public/reset-password', { schema: { body: resetPasswordSchema } }, async (request) => {
    await limiter.consume([{ limit: LIMITS.resetPerIp, subject: request.ip }]);
    const email = normaliseUsername(request.body.username);
    const passwordHash = await hashPassword(request.body.password);
    const reset = await store.transaction(async (tx) => {
      const accountId = await store.spendPasswordReset(sha256(request.body.id), email, tx);
      if (!accountId) return false;
      await store.setPasswordAndConfirm(accountId, passwordHash, tx);
      await store.spendOtherPasswordResets(accountId, tx);
      await sessions.revokeAllOf(accountId, tx);
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

    signedIn.get('/api/profile', async (request) => profile(store, request.accountId));

    // The browser calls this while the applicant is active but sends nothing else, so the
    // server's idle timer follows the browser's.
    signedIn.post('/api/keep-alive', async (_request, reply) => reply.status(204).send());
  });
};

async function profile(store: AccountsStore, accountId: string): Promise<ProfileResponse> {
  const row = await store.profile(accountId);
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
