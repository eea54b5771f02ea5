import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Who a request acts for, by id only: an applicant's account, or a staff link by its token's
 * row. Logs travel further than the database, so names, addresses and tokens never go in.
 */
export type RequestActor = { accountId: string } | { serviceTokenId: string } | { staffId: string };

/**
 * Binds the actor to the request's logger, so every line logged for the request from here on
 * carries it, Fastify's "request completed" line included (that one is written by `reply.log`).
 */
export function bindActorToLog(
  request: FastifyRequest,
  reply: FastifyReply,
  actor: RequestActor,
): void {
  // The request's logger is a child Fastify made for this request alone: extending its bindings
  // in place spares a second child per request. Without logging there is nothing to extend.
  const own = request.log as FastifyBaseLogger & { setBindings?: (bindings: object) => void };
  if (own.setBindings) {
    own.setBindings(actor);
    return;
  }
  const log = request.log.child(actor);
  request.log = log;
  reply.log = log;
}
