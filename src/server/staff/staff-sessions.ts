import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type Permission,
  roleAllows,
  STEP_UP_MINUTES,
  STEP_UP_PERMISSIONS,
  type StaffRole,
} from '../../shared/staff/permissions';
import type { SignInStage } from '../../shared/staff/staff-api';
import { randomToken, sha256 } from '../accounts/secrets';
import type { AuditActor } from '../audit/audit-trail';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { HttpError } from '../http/http-error';
import { bindActorToLog } from '../http/request-actor';
import { createStaffSessionsStore } from './staff-sessions-store';

export const STAFF_SESSION_ENDED_MESSAGE = 'Your staff session has ended. Please sign in again.';
export const STAFF_FORBIDDEN_MESSAGE = 'Your role does not allow this.';
export const STEP_UP_REQUIRED_MESSAGE = `Confirm it is you: this needs a second factor from the last ${STEP_UP_MINUTES} minutes.`;
/** The error code the console reads to ask for a fresh second factor and retry. */
export const STEP_UP_REQUIRED_CODE = 'step_up_required';

/** A staff session lasts 10 hours at most, whatever the activity (a working day). */
export const STAFF_SESSION_ABSOLUTE_HOURS = 10;
/** A password alone opens the second-factor step for this long. */
const PENDING_STAGE_MINUTES = 10;
const TOUCH_INTERVAL_SECONDS = 30;

/** The signed-in staff member of a request. */
export interface StaffPrincipal {
  id: string;
  email: string;
  displayName: string;
  role: StaffRole;
  method: 'password' | 'oidc';
  stage: SignInStage;
  secondFactorAt: Date | null;
  hasAuthenticator: boolean;
  token: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the staff session guard on every staff route that needs a session. */
    staff: StaffPrincipal | null;
  }
}

/**
 * The staff cookie, apart from the applicant's: `__Host-` prefixed with secure cookies, so only
 * this host over HTTPS can set it. SameSite=Strict: the console is never entered from another
 * site with its session (the identity provider's redirect lands on a page that sets it anew).
 */
export function staffCookieName(secureCookies: boolean): string {
  return secureCookies ? '__Host-tp_staff' : 'tp_staff';
}

export interface StaffSessionSettings {
  idleMs: number;
  absoluteMs: number;
  secureCookies: boolean;
}

export function staffActor(staff: Pick<StaffPrincipal, 'id' | 'email'>): AuditActor {
  return { type: 'staff', id: staff.id, label: staff.email };
}

export function createStaffSessions(db: AppDatabase, settings: StaffSessionSettings) {
  const cookieName = staffCookieName(settings.secureCookies);
  const store = createStaffSessionsStore(db);
  const idleSeconds = settings.idleMs / 1000;

  function token(request: FastifyRequest): string | null {
    const value = request.cookies[cookieName];
    return value && value.length <= 100 ? value : null;
  }

  function setCookie(reply: FastifyReply, value: string, maxAgeSeconds: number): void {
    reply.setCookie(cookieName, value, {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: settings.secureCookies,
      maxAge: maxAgeSeconds,
    });
  }

  async function load(request: FastifyRequest): Promise<StaffPrincipal | null> {
    const value = token(request);
    if (!value) return null;
    const row = await store.findLive(sha256(value), idleSeconds);
    if (!row) return null;
    if (Date.now() - row.lastSeenAt.getTime() >= TOUCH_INTERVAL_SECONDS * 1000) {
      await store.touch(sha256(value));
    }
    return {
      id: row.id,
      email: row.email,
      displayName: row.displayName,
      role: row.role,
      method: row.method,
      stage: row.stage,
      secondFactorAt: row.secondFactorAt,
      hasAuthenticator: row.totpSecret !== null,
      token: value,
    };
  }

  function bind(request: FastifyRequest, reply: FastifyReply, staff: StaffPrincipal): void {
    request.staff = staff;
    bindActorToLog(request, reply, { staffId: staff.id });
  }

  async function requireStage(
    request: FastifyRequest,
    reply: FastifyReply,
    stages: readonly SignInStage[],
  ): Promise<StaffPrincipal> {
    const staff = await load(request);
    if (!staff || !stages.includes(staff.stage)) {
      if (!staff) clearCookie(reply);
      throw new HttpError(401, STAFF_SESSION_ENDED_MESSAGE);
    }
    bind(request, reply, staff);
    return staff;
  }

  function clearCookie(reply: FastifyReply): void {
    reply.clearCookie(cookieName, { path: '/', secure: settings.secureCookies });
  }

  return {
    cookieName,

    /**
     * A new session for a member at a stage of signing in. Any session the browser already held
     * is revoked: the id rotates at every step up in privilege.
     */
    async start(
      request: FastifyRequest,
      reply: FastifyReply,
      staffId: string,
      stage: SignInStage,
      method: 'password' | 'oidc',
      secondFactorAt: Date | null = null,
    ): Promise<void> {
      const previous = token(request);
      if (previous) await this.revoke(previous);
      const value = randomToken();
      const lifetimeMs =
        stage === 'signed_in' ? settings.absoluteMs : PENDING_STAGE_MINUTES * 60_000;
      await store.insert({
        tokenHash: sha256(value),
        staffId,
        stage,
        method,
        secondFactorAt,
        expiresAt: new Date(Date.now() + lifetimeMs),
      });
      setCookie(reply, value, Math.floor(lifetimeMs / 1000));
    },

    /** Marks a fresh second factor on the current session (step-up). */
    async markSecondFactor(staff: Pick<StaffPrincipal, 'token'>, tx: Executor = db): Promise<Date> {
      return (await store.markSecondFactor(sha256(staff.token), tx)) ?? new Date();
    },

    async revoke(value: string): Promise<void> {
      await store.revoke(sha256(value));
    },

    /** Ends every session of a member (disabled, role changed), except one to keep if given. */
    async revokeAllOf(staffId: string, tx: Executor = db, keepToken?: string): Promise<void> {
      await store.revokeAllOf(staffId, keepToken ? sha256(keepToken) : undefined, tx);
    },

    clearCookie,

    /** The member of a fully signed-in session, or null (for pages that only ask). */
    async current(request: FastifyRequest): Promise<StaffPrincipal | null> {
      const staff = await load(request);
      return staff?.stage === 'signed_in' ? staff : null;
    },

    /** onRequest hook for the steps of signing in that follow the password. */
    pending(stages: readonly SignInStage[]) {
      return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
        await requireStage(request, reply, stages);
      };
    },

    /**
     * onRequest hook for a staff route: a signed-in session whose role has the permission, and a
     * fresh second factor where the permission needs step-up. 401 without a session, 403 else.
     */
    guard(permission: Permission | null, options: { stepUp?: boolean } = {}) {
      // Reading the staff list is part of managing staff, but changes nothing: no step-up.
      const stepUp = options.stepUp ?? (permission !== null && STEP_UP_PERMISSIONS.has(permission));
      return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
        const staff = await requireStage(request, reply, ['signed_in']);
        if (permission === null) return;
        if (!roleAllows(staff.role, permission)) {
          throw new HttpError(403, STAFF_FORBIDDEN_MESSAGE);
        }
        if (stepUp && !stepUpFresh(staff)) {
          throw new HttpError(
            403,
            STEP_UP_REQUIRED_MESSAGE,
            undefined,
            undefined,
            STEP_UP_REQUIRED_CODE,
          );
        }
      };
    },
  };
}

/** The member the session guard admitted to this request (a route behind `guard` or `pending`). */
export function staffOf(request: FastifyRequest): StaffPrincipal {
  if (!request.staff) throw new HttpError(401, STAFF_SESSION_ENDED_MESSAGE);
  return request.staff;
}

/** Whether the member proved the second factor within the step-up window. */
export function stepUpFresh(staff: Pick<StaffPrincipal, 'secondFactorAt'>): boolean {
  return (
    staff.secondFactorAt !== null &&
    Date.now() - staff.secondFactorAt.getTime() < STEP_UP_MINUTES * 60_000
  );
}

export function stepUpUntil(staff: Pick<StaffPrincipal, 'secondFactorAt'>): Date | null {
  return stepUpFresh(staff) && staff.secondFactorAt
    ? new Date(staff.secondFactorAt.getTime() + STEP_UP_MINUTES * 60_000)
    : null;
}

export type StaffSessions = ReturnType<typeof createStaffSessions>;
