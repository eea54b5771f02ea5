import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SSO_ERROR_MESSAGES, type SsoErrorCode } from '../../../shared/staff/sso-errors';
import {
  SSO_CALLBACK_PATH,
  SSO_START_PATH,
  STAFF_HOME,
  STAFF_SIGN_IN_PAGE,
} from '../../../shared/staff/staff-api';
import { sha256 } from '../../accounts/secrets';
import type { AuditTrail } from '../../audit/audit-trail';
import type { Env } from '../../config/env';
import type { AppDatabase } from '../../db/database';
import type { Executor } from '../../db/executor';
import { HttpError } from '../../http/http-error';
import { siteUrl } from '../../http/site-url';
import type { ZodTypeProvider } from '../../http/zod-validation';
import type { AccountRateLimiter, Limit } from '../../rate-limit/rate-limiter';
import { type StaffSessions, staffActor } from '../staff-sessions';
import type { StaffStore } from '../staff-store';
import {
  admitMember,
  type ExternalIdentity,
  type FinishedSignIn,
  type IdentityProvider,
  SIGN_IN_MINUTES,
  SsoRefusal,
  SsoUnavailable,
} from './identity-provider';
import { httpIssuerAllowed, oidcIdentityProvider } from './oidc-identity-provider';
import { type RoleMapping, roleMappingFromEnv } from './role-mapping';
import { createSsoStore, type SsoStore } from './sso-store';

/** Starting sign-ins writes a row each; a script doing it in a loop is stopped here. */
export const SSO_START_LIMIT: Limit = { name: 'sso-start:ip', max: 60, windowSeconds: 600 };

export const STEP_UP_WITH_AUTHENTICATOR_MESSAGE =
  'Confirm it is you with a code from your authenticator app.';

/**
 * The cookie that ties a sign-in to the browser that started it (login CSRF): the state, for ten
 * minutes. SameSite=Lax, so it comes back on the provider's top-level redirect to the callback.
 */
export function ssoCookieName(secureCookies: boolean): string {
  return secureCookies ? '__Host-tp_sso' : 'tp_sso';
}

/** The sign-in page with a refusal's code, which the page turns into a sentence. */
export function signInPageWithError(code: SsoErrorCode): string {
  return `${STAFF_SIGN_IN_PAGE}?error=${code}`;
}

const startQuery = z.strictObject({
  step_up: z.literal('1', { error: 'step_up can only be 1.' }).optional(),
});

export interface OidcRoutesOptions {
  env: Env;
  db: AppDatabase;
  sessions: StaffSessions;
  store: StaffStore;
  /** Admitting a member records it as the provider's sign-in, before any session exists. */
  audit: AuditTrail;
  limiter: AccountRateLimiter;
}

/** Single sign-on through the university's OpenID Connect provider, when OIDC_* are set. */
export const oidcRoutes: FastifyPluginAsync<OidcRoutesOptions> = async (app, context) => {
  const { env } = context;
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) return;
  if (!httpIssuerAllowed(env.OIDC_ISSUER, env.NODE_ENV)) {
    throw new Error(
      'OIDC_ISSUER: must be an https:// URL (http only for a provider on this machine, outside production)',
    );
  }
  const sso = createSsoStore(context.db);
  const provider = oidcIdentityProvider(
    {
      issuer: env.OIDC_ISSUER,
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
      roleClaim: env.OIDC_ROLE_CLAIM,
      allowHttp: new URL(env.OIDC_ISSUER).protocol === 'http:',
    },
    sso,
  );
  registerSsoRoutes(app, context, {
    provider,
    sso,
    mapping: roleMappingFromEnv(env),
    startPath: SSO_START_PATH,
    callbackPath: SSO_CALLBACK_PATH,
  });
};

/**
 * The start and callback routes of one identity provider. Written against `IdentityProvider`, so
 * a second provider (SAML 2.0) registers the same routes at its own paths.
 */
export function registerSsoRoutes(
  parent: FastifyInstance,
  context: Omit<OidcRoutesOptions, 'db'>,
  options: {
    provider: IdentityProvider;
    sso: SsoStore;
    mapping: RoleMapping;
    startPath: string;
    callbackPath: string;
  },
): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { provider, sso } = options;
  const { sessions, store, audit } = context;
  const secureCookies = context.env.NODE_ENV === 'production';
  const cookieName = ssoCookieName(secureCookies);
  const callbackUrl = (request: FastifyRequest) =>
    `${siteUrl(context.env, request)}${options.callbackPath}`;

  app.get(options.startPath, { schema: { querystring: startQuery } }, async (request, reply) => {
    await context.limiter.consume([{ limit: SSO_START_LIMIT, subject: request.ip }]);
    let stepUpSession: string | null = null;
    if (request.query.step_up) {
      const staff = await sessions.current(request);
      if (!staff) return reply.redirect(signInPageWithError('sso_session_ended'));
      if (staff.method !== provider.method) {
        throw new HttpError(403, STEP_UP_WITH_AUTHENTICATOR_MESSAGE);
      }
      stepUpSession = sha256(staff.token);
    }
    let started: Awaited<ReturnType<IdentityProvider['start']>>;
    try {
      started = await provider.start({ callbackUrl: callbackUrl(request), stepUpSession });
    } catch (error) {
      if (!(error instanceof SsoUnavailable)) throw error;
      request.log.warn({ err: error }, 'the identity provider cannot be reached');
      throw new HttpError(503, SSO_ERROR_MESSAGES.sso_unavailable);
    }
    reply.setCookie(cookieName, started.browserBinding, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookies,
      maxAge: SIGN_IN_MINUTES * 60,
    });
    return reply.redirect(started.redirectUrl);
  });

  const admissionDeps = {
    store,
    sso,
    audit,
    revokeAllOf: (staffId: string, tx: Executor) => sessions.revokeAllOf(staffId, tx),
  };

  async function finishStepUp(
    request: FastifyRequest,
    reply: FastifyReply,
    sessionHash: string,
    identity: ExternalIdentity,
  ) {
    const refuse = (code: SsoErrorCode, reason: string) => new SsoRefusal(code, reason, identity);
    // The staff cookie is SameSite=Strict and does not come back from the provider's redirect:
    // the session is the one that started the step-up, found by the hash kept with the attempt.
    const staffId = await sso.liveSessionMember(sessionHash);
    const owner = staffId ? await store.findById(staffId) : null;
    if (!owner) throw refuse('sso_session_ended', 'the session that asked for step-up ended');
    if (owner.oidcIssuer !== identity.issuer || owner.oidcSubject !== identity.subject) {
      throw refuse('sso_step_up_mismatch', 'signed in at the provider as another account');
    }
    if (!identity.authTime) throw refuse('sso_step_up_stale', 'the provider gave no auth_time');
    // A step-up is a sign-in too: the member must still be admitted, with the provider's role.
    // A changed role has ended the session, and the member signs in again.
    const member = await admitMember(admissionDeps, identity, options.mapping);
    const at = new Date(Math.min(identity.authTime.getTime(), Date.now()));
    if (!(await sso.markStepUp(sessionHash, at))) {
      throw refuse('sso_session_ended', 'the session that asked for step-up ended');
    }
    await request.audit.record({
      actor: staffActor(member),
      action: 'staff.step_up',
      detail: { method: provider.method },
    });
    return reply.redirect(STAFF_HOME);
  }

  async function signIn(request: FastifyRequest, reply: FastifyReply, finished: FinishedSignIn) {
    const member = await admitMember(admissionDeps, finished.identity, options.mapping);
    const { authTime } = finished.identity;
    // The provider's authentication (its MFA) counts as the second factor, from when it happened.
    const secondFactorAt = authTime ? new Date(Math.min(authTime.getTime(), Date.now())) : null;
    await sessions.start(request, reply, member.id, 'signed_in', provider.method, secondFactorAt);
    await request.audit.record({
      actor: staffActor(member),
      action: 'staff.sign_in',
      detail: { method: provider.method, role: member.role },
    });
    return reply.redirect(STAFF_HOME);
  }

  app.get(options.callbackPath, async (request, reply) => {
    const query = request.url.indexOf('?');
    const params = new URLSearchParams(query === -1 ? '' : request.url.slice(query + 1));
    const browserBinding = request.cookies[cookieName];
    reply.clearCookie(cookieName, { path: '/', secure: secureCookies });
    let identity: ExternalIdentity | null = null;
    try {
      const finished = await provider.finish({
        callbackUrl: callbackUrl(request),
        params,
        browserBinding,
      });
      identity = finished.identity;
      if (finished.stepUpSession) {
        return await finishStepUp(request, reply, finished.stepUpSession, identity);
      }
      return await signIn(request, reply, finished);
    } catch (error) {
      if (!(error instanceof SsoRefusal)) throw error;
      const who = error.identity ?? identity;
      request.log.info({ code: error.code, reason: error.reason }, 'single sign-on refused');
      await request.audit.record({
        actor: { type: 'anonymous', label: who?.email ?? who?.subject ?? undefined },
        action: 'staff.sso_refused',
        detail: {
          code: error.code,
          reason: error.reason,
          ...(who ? { issuer: who.issuer, subject: who.subject } : {}),
        },
      });
      return reply.redirect(signInPageWithError(error.code));
    }
  });
}
