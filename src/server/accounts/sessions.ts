import type { FastifyReply, FastifyRequest } from 'fastify';
import { LOGGED_IN_MARKER_COOKIE } from '../../shared/accounts/session-cookies';
import type { AppDatabase } from '../db/database';
import { HttpError } from '../http/http-error';
import { bindActorToLog } from '../http/request-actor';
import { randomToken, sha256 } from './secrets';
import { createSessionsStore, type SessionCondition, type TokenHashValue } from './sessions-store';

export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please log in again.';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account; set by `requireSession` on every signed-in route. */
    accountId: string;
  }
}

/**
 * The session cookie's name. With secure cookies (production) it carries the `__Host-` prefix, so
 * browsers accept it only over HTTPS, for this host alone and the whole path: no other subdomain
 * of the university can set or shadow it.
 */
/** The value stored for a session token, for a prepared statement's placeholder. */
export const sessionTokenHash = sha256;

export function sessionCookieName(secureCookies: boolean): string {
  return secureCookies ? '__Host-tp_session' : 'tp_session';
}
/** Idle time is measured to within this much; it spares a write on most requests. */
const TOUCH_INTERVAL_SECONDS = 30;

export interface SessionSettings {
  idleMs: number;
  absoluteMs: number;
  secureCookies: boolean;
}

export function createSessions(db: AppDatabase, settings: SessionSettings) {
  const cookieName = sessionCookieName(settings.secureCookies);
  const store = createSessionsStore(db);
  const idleSeconds = settings.idleMs / 1000;
  const cookieOptions = (maxAgeSeconds: number) => ({
    path: '/',
    sameSite: 'lax' as const,
    secure: settings.secureCookies,
    maxAge: maxAgeSeconds,
  });

  function setCookies(reply: FastifyReply, token: string): void {
    const maxAge = Math.floor(settings.absoluteMs / 1000);
    reply.setCookie(cookieName, token, { ...cookieOptions(maxAge), httpOnly: true });
    // The marker lets the browser know it is signed in; it carries no secret.
    reply.setCookie(LOGGED_IN_MARKER_COOKIE, '1', { ...cookieOptions(maxAge), httpOnly: false });
  }

  return {
    /** The session token a request carries, if it could be one. */
    token(request: FastifyRequest): string | null {
      const token = request.cookies[cookieName];
      return token && token.length <= 100 ? token : null;
    },

    /** A new session (the previous one, if any, is revoked: the id rotates at every log-in). */
    async start(request: FastifyRequest, reply: FastifyReply, accountId: string): Promise<void> {
      const previous = this.token(request);
      if (previous) await this.revoke(previous);
      const token = randomToken();
      await store.insert({
        tokenHash: sha256(token),
        accountId,
        expiresAt: new Date(Date.now() + settings.absoluteMs),
      });
      setCookies(reply, token);
    },

    /** The condition on the sessions table that a live session of this token meets. */
    liveSessionCondition(token: string): SessionCondition {
      return this.liveSessionOfHash(sha256(token));
    },

    /**
     * The same condition on a token's hash, which may be a placeholder of a prepared statement
     * (`sessionTokenHash` gives its value).
     */
    liveSessionOfHash(tokenHash: TokenHashValue): SessionCondition {
      return store.liveCondition(tokenHash, idleSeconds);
    },

    /** After a statement that checked the session itself: touch it if its mark is stale. */
    async touchIfStale(token: string, lastSeenAt: Date): Promise<void> {
      if (Date.now() - lastSeenAt.getTime() < TOUCH_INTERVAL_SECONDS * 1000) return;
      await store.touch(sha256(token));
    },

    /** The account of a live session, or null; its idle mark is refreshed at most every 30 s. */
    async authenticate(request: FastifyRequest): Promise<string | null> {
      const token = this.token(request);
      if (!token) return null;
      const row = await store.findLive(this.liveSessionCondition(token));
      if (!row) return null;
      await this.touchIfStale(token, row.lastSeenAt);
      return row.accountId;
    },

    async revoke(token: string): Promise<void> {
      await store.revoke(sha256(token));
    },

    async revokeAllOf(
      accountId: string,
      executor: Pick<AppDatabase, 'update'> = db,
    ): Promise<void> {
      await store.revokeAllOf(accountId, executor);
    },

    /**
     * onRequest hook for every signed-in route: sets `request.accountId` (and binds it to the
     * request's log lines) or answers 401.
     */
    async requireSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const accountId = await this.authenticate(request);
      if (!accountId) {
        this.clearCookies(reply);
        throw new HttpError(401, SESSION_ENDED_MESSAGE);
      }
      request.accountId = accountId;
      bindActorToLog(request, reply, { accountId });
    },

    clearCookies(reply: FastifyReply): void {
      reply.clearCookie(cookieName, { path: '/', secure: settings.secureCookies });
      reply.clearCookie(LOGGED_IN_MARKER_COOKIE, { path: '/', secure: settings.secureCookies });
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
