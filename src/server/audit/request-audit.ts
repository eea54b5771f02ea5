import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Executor } from '../db/executor';
import type { AuditActor, AuditEntry, AuditTrail } from './audit-trail';

/**
 * An entry as a handler states it. Who acted is the request's own actor unless the entry names
 * another (a member not yet signed in, a read-only link); the address is always the request's.
 */
export type RequestAuditEntry = Omit<AuditEntry, 'actor' | 'ip'> & { actor?: AuditActor };

export interface RequestAudit {
  /** Appends the entry; given a transaction, it commits or rolls back with the work it records. */
  record(entry: RequestAuditEntry, tx?: Executor): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The audit trail as this request writes to it: its actor and its address filled in. */
    audit: RequestAudit;
  }
}

export const NO_AUDIT_ACTOR_MESSAGE =
  'an audit entry needs an actor: this request has none of its own, so the entry must name one';

/**
 * Every request gets `request.audit`, so a handler says what happened and not who or from where.
 * `actorOf` is the request's own actor (the staff member the session guard admitted), read when
 * the entry is recorded rather than when the request starts.
 */
export function registerRequestAudit(
  app: FastifyInstance,
  trail: Pick<AuditTrail, 'record'>,
  actorOf: (request: FastifyRequest) => AuditActor | null,
): void {
  app.decorateRequest('audit', {
    getter(this: FastifyRequest): RequestAudit {
      const request = this;
      return {
        record({ actor, ...entry }, tx) {
          const acting = actor ?? actorOf(request);
          if (!acting) throw new Error(NO_AUDIT_ACTOR_MESSAGE);
          return trail.record({ actor: acting, ...entry, ip: request.ip }, tx);
        },
      };
    },
  });
}
