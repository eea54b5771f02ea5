import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { normaliseUsername } from '../../shared/accounts/account-forms';
import { ROLE_PERMISSIONS } from '../../shared/staff/permissions';
import {
  type EnrolmentStartResponse,
  invitationAcceptSchema,
  invitationCheckSchema,
  type RecoveryCodesResponse,
  recoveryCodeSchema,
  type SignInStepResponse,
  STAFF_API,
  STAFF_SIGN_IN_PAGE,
  type StaffMeResponse,
  type StaffOptionsResponse,
  staffSignInSchema,
  totpCodeSchema,
} from '../../shared/staff/staff-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { hashPassword, sha256, spendPasswordCheckTime, verifyPassword } from '../accounts/secrets';
import type { AuditActor } from '../audit/audit-trail';
import type { Env } from '../config/env';
import type { Executor } from '../db/executor';
import { HttpError } from '../http/http-error';
import { siteUrl } from '../http/site-url';
import type { ZodTypeProvider } from '../http/zod-validation';
import type { Mailer } from '../mail/mailer';
import { staffMessages } from '../mail/staff-messages';
import type { AccountRateLimiter } from '../rate-limit/rate-limiter';
import { createSignInThrottle } from '../rate-limit/sign-in-throttle';
import {
  FAILURE_MAIL_AFTER,
  RECOVERY_CODE_COUNT,
  STAFF_AUTH_MESSAGES,
  STAFF_LIMITS,
  STAFF_SIGN_IN_LIMITS,
} from './staff-policy';
import {
  STEP_UP_REQUIRED_CODE,
  STEP_UP_REQUIRED_MESSAGE,
  type StaffPrincipal,
  type StaffSessions,
  staffActor,
  staffOf,
  stepUpFresh,
  stepUpUntil,
} from './staff-sessions';
import type { StaffMember, StaffStore } from './staff-store';
import { enrolmentDetails, newTotpSecret, totpStep } from './totp';

/** Letters and digits that cannot be mistaken for each other when read from paper. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** Codes are hashed with the member's id, so one code's hash says nothing about another's. */
const recoveryCodeHash = (staffId: string, code: string) =>
  sha256(`${staffId}:${code.replace('-', '').toUpperCase()}`);

const codeError = (message: string) => new HttpError(400, message, { code: [message] });

export interface StaffAuthRoutesOptions {
  env: Env;
  tenant: TenantConfig;
  mailer: Mailer;
  limiter: AccountRateLimiter;
  sessions: StaffSessions;
  store: StaffStore;
}

/**
 * Staff sign-in with a password and a second factor, invitations, authenticator enrolment,
 * recovery codes, step-up and sign-out. Every success and failure goes into the audit trail.
 */
export const staffAuthRoutes: FastifyPluginAsync<StaffAuthRoutesOptions> = async (
  parent,
  context,
) => {
  const { store, sessions, limiter, mailer, env, tenant } = context;
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const mail = staffMessages(tenant);
  const signInThrottle = createSignInThrottle(limiter, STAFF_SIGN_IN_LIMITS);
  const anonymous = (email?: string): AuditActor => ({ type: 'anonymous', label: email });

  async function countFailure(member: StaffMember, request: FastifyRequest): Promise<void> {
    const failures = await store.countFailure(member.id);
    if (
      failures >= FAILURE_MAIL_AFTER &&
      (await limiter.add(STAFF_LIMITS.failureMailPerMember, member.id)) <=
        STAFF_LIMITS.failureMailPerMember.max
    ) {
      mailer.send(
        mail.repeatedFailures(
          member.email,
          failures,
          `${siteUrl(env, request)}${STAFF_SIGN_IN_PAGE}`,
        ),
      );
    }
  }

  /** A fully signed-in session, the failures forgotten, the sign-in on record. */
  async function completeSignIn(
    request: FastifyRequest,
    reply: Parameters<typeof sessions.start>[1],
    member: Pick<StaffMember, 'id' | 'email'>,
    secondFactor: string,
    tx?: Executor,
  ): Promise<void> {
    await store.update(member.id, { failedSignIns: 0, lastSignInAt: new Date() }, tx);
    await request.audit.record(
      {
        actor: staffActor(member),
        action: 'staff.sign_in',
        detail: { method: 'password', second_factor: secondFactor },
      },
      tx,
    );
    await sessions.start(request, reply, member.id, 'signed_in', 'password', new Date());
  }

  /** Checks a code against the member's authenticator and uses its time step up. */
  async function checkTotp(member: StaffMember, code: string, request: FastifyRequest) {
    await limiter.consume([{ limit: STAFF_LIMITS.codePerMember, subject: member.id }]);
    const step = member.totpSecret ? await totpStep(member.totpSecret, code) : null;
    const fresh = step !== null && (await store.acceptTotpStep(member.id, step));
    if (fresh) return;
    return refuseCode(
      member,
      request,
      step === null ? 'wrong code' : 'code already used',
      step === null ? STAFF_AUTH_MESSAGES.codeWrong : STAFF_AUTH_MESSAGES.codeReused,
    );
  }

  /** A wrong second factor: counted against the member, on record, and answered with `message`. */
  async function refuseCode(
    member: StaffMember,
    request: FastifyRequest,
    reason: string,
    message: string,
  ): Promise<never> {
    await countFailure(member, request);
    await request.audit.record({
      actor: staffActor(member),
      action: 'staff.second_factor_failed',
      detail: { reason },
    });
    throw codeError(message);
  }

  async function memberOf(staff: StaffPrincipal): Promise<StaffMember> {
    const member = await store.findById(staff.id);
    if (!member) throw new HttpError(401, STAFF_AUTH_MESSAGES.signInFailed);
    return member;
  }

  async function newRecoveryCodes(staffId: string, tx?: Executor): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await store.replaceRecoveryCodes(
      staffId,
      codes.map((code) => recoveryCodeHash(staffId, code)),
      tx,
    );
    return codes;
  }

  app.get(
    `${STAFF_API}/options`,
    async (): Promise<StaffOptionsResponse> => ({
      sso: env.OIDC_ISSUER ? { label: env.OIDC_LABEL } : null,
    }),
  );

  app.post(
    `${STAFF_API}/sign-in`,
    { schema: { body: staffSignInSchema } },
    async (request, reply): Promise<SignInStepResponse> => {
      const email = normaliseUsername(request.body.email);
      await signInThrottle.admit(request.ip, email);
      const member = await store.findByEmail(email);
      const usable = member && !member.disabledAt && member.passwordHash;
      const passwordRight = usable
        ? await verifyPassword(member.passwordHash, request.body.password)
        : await spendPasswordCheckTime(request.body.password).then(() => false);
      if (!member || !usable || !passwordRight) {
        await signInThrottle.failed(request.ip, email);
        if (member && usable) await countFailure(member, request);
        await request.audit.record({
          actor: member ? staffActor(member) : anonymous(email),
          action: 'staff.sign_in_failed',
          detail: {
            reason: !member ? 'unknown address' : member.disabledAt ? 'disabled' : 'wrong password',
          },
        });
        throw new HttpError(400, STAFF_AUTH_MESSAGES.signInFailed);
      }
      // Setting up the authenticator belongs to the invitation: a password alone never opens it
      // again, or whoever learnt the password could enrol a phone of their own.
      if (!member.totpSecret) {
        await request.audit.record({
          actor: staffActor(member),
          action: 'staff.sign_in_failed',
          detail: { reason: 'authenticator never set up' },
        });
        throw new HttpError(400, STAFF_AUTH_MESSAGES.setUpUnfinished);
      }
      await sessions.start(request, reply, member.id, 'second_factor', 'password');
      return { next: 'second_factor' };
    },
  );

  app.post(
    `${STAFF_API}/second-factor`,
    { schema: { body: totpCodeSchema }, onRequest: sessions.pending(['second_factor']) },
    async (request, reply): Promise<SignInStepResponse> => {
      const member = await memberOf(staffOf(request));
      await checkTotp(member, request.body.code, request);
      await completeSignIn(request, reply, member, 'authenticator');
      return { next: 'signed_in' };
    },
  );

  app.post(
    `${STAFF_API}/recovery-code`,
    { schema: { body: recoveryCodeSchema }, onRequest: sessions.pending(['second_factor']) },
    async (request, reply): Promise<SignInStepResponse & { remaining: number }> => {
      const member = await memberOf(staffOf(request));
      await limiter.consume([{ limit: STAFF_LIMITS.codePerMember, subject: member.id }]);
      const remaining = await store.spendRecoveryCode(
        member.id,
        recoveryCodeHash(member.id, request.body.code),
      );
      if (remaining === null) {
        return refuseCode(
          member,
          request,
          'wrong recovery code',
          STAFF_AUTH_MESSAGES.recoveryCodeWrong,
        );
      }
      await request.audit.record({
        actor: staffActor(member),
        action: 'staff.recovery_code_used',
        detail: { remaining },
      });
      await completeSignIn(request, reply, member, 'recovery code');
      mailer.send(mail.recoveryCodeUsed(member.email, remaining));
      return { next: 'signed_in', remaining };
    },
  );

  app.post(
    `${STAFF_API}/invitation/check`,
    { schema: { body: invitationCheckSchema } },
    async (request): Promise<{ valid: true }> => {
      await limiter.consume([{ limit: STAFF_LIMITS.invitationPerIp, subject: request.ip }]);
      const member = await store.liveInvitation(sha256(request.body.token));
      if (!member) throw new HttpError(400, STAFF_AUTH_MESSAGES.invitationDead);
      return { valid: true };
    },
  );

  app.post(
    `${STAFF_API}/invitation/accept`,
    { schema: { body: invitationAcceptSchema } },
    async (request, reply): Promise<SignInStepResponse> => {
      await limiter.consume([{ limit: STAFF_LIMITS.invitationPerIp, subject: request.ip }]);
      const tokenHash = sha256(request.body.token);
      const invited = await store.liveInvitation(tokenHash);
      if (!invited) throw new HttpError(400, STAFF_AUTH_MESSAGES.invitationDead);
      // A forwarded link is no use to whoever it reached: they must know the invited address.
      if (normaliseUsername(request.body.email) !== normaliseUsername(invited.email)) {
        await request.audit.record({
          actor: anonymous(normaliseUsername(request.body.email)),
          action: 'staff.sign_in_failed',
          detail: { reason: 'invitation used with another address', staff_id: invited.id },
        });
        throw new HttpError(400, STAFF_AUTH_MESSAGES.invitationOtherAddress, {
          email: [STAFF_AUTH_MESSAGES.invitationOtherAddress],
        });
      }
      const passwordHash = await hashPassword(request.body.password);
      const accepted = await store.transaction(async (tx) => {
        if (!(await store.spendInvitation(tokenHash, tx))) return false;
        // Accepting starts the member's credentials afresh: a new password, a new authenticator.
        await store.update(
          invited.id,
          { passwordHash, totpSecret: null, pendingTotpSecret: null, failedSignIns: 0 },
          tx,
        );
        await store.replaceRecoveryCodes(invited.id, [], tx);
        await sessions.revokeAllOf(invited.id, tx);
        await request.audit.record(
          {
            actor: staffActor(invited),
            action: 'staff.invitation_accepted',
          },
          tx,
        );
        return true;
      });
      if (!accepted) throw new HttpError(400, STAFF_AUTH_MESSAGES.invitationDead);
      await sessions.start(request, reply, invited.id, 'enrol', 'password');
      return { next: 'enrol' };
    },
  );

  app.post(
    `${STAFF_API}/enrolment/start`,
    { onRequest: sessions.pending(['enrol']) },
    async (request): Promise<EnrolmentStartResponse> => {
      const staff = staffOf(request);
      const secret = await newTotpSecret();
      await store.update(staff.id, { pendingTotpSecret: secret });
      return enrolmentDetails(secret, `${tenant.partner_name} Admissions`, staff.email);
    },
  );

  app.post(
    `${STAFF_API}/enrolment/finish`,
    { schema: { body: totpCodeSchema }, onRequest: sessions.pending(['enrol']) },
    async (request, reply): Promise<RecoveryCodesResponse> => {
      const member = await memberOf(staffOf(request));
      if (!member.pendingTotpSecret) throw codeError(STAFF_AUTH_MESSAGES.enrolmentNotStarted);
      await limiter.consume([{ limit: STAFF_LIMITS.codePerMember, subject: member.id }]);
      const step = await totpStep(member.pendingTotpSecret, request.body.code);
      if (step === null) {
        return refuseCode(
          member,
          request,
          'wrong code at enrolment',
          STAFF_AUTH_MESSAGES.codeWrong,
        );
      }
      const codes = await store.transaction(async (tx) => {
        await store.update(
          member.id,
          { totpSecret: member.pendingTotpSecret, pendingTotpSecret: null, totpLastStep: step },
          tx,
        );
        await request.audit.record(
          { actor: staffActor(member), action: 'staff.authenticator_enrolled' },
          tx,
        );
        return newRecoveryCodes(member.id, tx);
      });
      await completeSignIn(request, reply, member, 'authenticator');
      return { recovery_codes: codes };
    },
  );

  app.post(
    `${STAFF_API}/step-up`,
    { schema: { body: totpCodeSchema }, onRequest: sessions.guard(null) },
    async (request): Promise<{ step_up_until: string }> => {
      const staff = staffOf(request);
      const member = await memberOf(staff);
      if (!member.totpSecret) {
        throw new HttpError(
          400,
          STAFF_AUTH_MESSAGES.stepUpWithProvider,
          undefined,
          undefined,
          'step_up_sso',
        );
      }
      await checkTotp(member, request.body.code, request);
      const at = await sessions.markSecondFactor(staff);
      await request.audit.record({ action: 'staff.step_up' });
      return { step_up_until: (stepUpUntil({ secondFactorAt: at }) ?? at).toISOString() };
    },
  );

  app.post(
    `${STAFF_API}/recovery-codes`,
    { onRequest: sessions.guard(null) },
    async (request): Promise<RecoveryCodesResponse> => {
      const staff = staffOf(request);
      if (!staff.hasAuthenticator) throw new HttpError(400, STAFF_AUTH_MESSAGES.stepUpWithProvider);
      if (!stepUpFresh(staff)) {
        throw new HttpError(
          403,
          STEP_UP_REQUIRED_MESSAGE,
          undefined,
          undefined,
          STEP_UP_REQUIRED_CODE,
        );
      }
      const codes = await store.transaction(async (tx) => {
        await request.audit.record({ action: 'staff.recovery_codes_replaced' }, tx);
        return newRecoveryCodes(staff.id, tx);
      });
      return { recovery_codes: codes };
    },
  );

  app.get(
    `${STAFF_API}/me`,
    { onRequest: sessions.guard(null) },
    async (request): Promise<StaffMeResponse> => {
      const staff = staffOf(request);
      return {
        id: staff.id,
        email: staff.email,
        display_name: staff.displayName,
        role: staff.role,
        permissions: [...ROLE_PERMISSIONS[staff.role]],
        method: staff.method,
        step_up_until: stepUpUntil(staff)?.toISOString() ?? null,
        has_authenticator: staff.hasAuthenticator,
        idle_minutes: env.STAFF_SESSION_IDLE_MINUTES,
      };
    },
  );

  app.post(`${STAFF_API}/sign-out`, async (request, reply): Promise<{ message: string }> => {
    const staff = await sessions.current(request);
    const token = request.cookies[sessions.cookieName];
    if (token) await sessions.revoke(token);
    if (staff) {
      await request.audit.record({ actor: staffActor(staff), action: 'staff.sign_out' });
    }
    sessions.clearCookie(reply);
    return { message: STAFF_AUTH_MESSAGES.signedOut };
  });
};
